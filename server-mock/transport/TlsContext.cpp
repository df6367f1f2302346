#include "server-mock/transport/TlsContext.h"

// Qt
#include <QFile>
#include <QFileInfo>

// OpenSSL
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// A file OpenSSL can be given: present and readable, so that the message says so rather than
// OpenSSL's "system lib".
bool readable(const QString &path, const QString &what, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists())
        *error = u"%1 '%2': no such file"_s.arg(what, path);
    else if (!info.isFile() || !info.isReadable())
        *error = u"%1 '%2': not a readable file"_s.arg(what, path);
    else
        return true;
    return false;
}

} // namespace

TlsContext::TlsContext(SSL_CTX *context, QString certificateFile, QString keyFile)
    : m_context(context)
    , m_certificateFile(std::move(certificateFile))
    , m_keyFile(std::move(keyFile))
{
}

TlsContext::~TlsContext()
{
    SSL_CTX_free(m_context);
}

QString TlsContext::takeError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return u"unknown error"_s;
    char text[256];
    ERR_error_string_n(code, text, sizeof(text));
    // "error:0A00018F:SSL routines::ee key too small": the reason is the part people read.
    const QString all = QString::fromLatin1(text);
    const qsizetype reason = all.lastIndexOf(u':');
    return reason >= 0 ? all.mid(reason + 1) : all;
}

std::shared_ptr<const TlsContext> TlsContext::load(
    const QString &certificateFile, const QString &keyFile, QString *error)
{
    if (!readable(certificateFile, u"TLS certificate"_s, error)
        || !readable(keyFile, u"TLS key"_s, error))
        return nullptr;
    ERR_clear_error();
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context) {
        *error = u"TLS: %1"_s.arg(takeError());
        return nullptr;
    }
    std::shared_ptr<const TlsContext> result(new TlsContext(context, certificateFile, keyFile));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    // Output waits in the transport's own buffer, which may move between tries.
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    // Idle connections give their buffers back (thousands of them would hold 34 KiB each).
    SSL_CTX_set_mode(context, SSL_MODE_RELEASE_BUFFERS);
    const QByteArray certificatePath = QFile::encodeName(certificateFile);
    const QByteArray keyPath = QFile::encodeName(keyFile);
    if (SSL_CTX_use_certificate_chain_file(context, certificatePath.constData()) != 1) {
        *error = u"TLS certificate '%1': %2"_s.arg(certificateFile, takeError());
        return nullptr;
    }
    const bool keyLoaded
        = SSL_CTX_use_PrivateKey_file(context, keyPath.constData(), SSL_FILETYPE_PEM) == 1;
    // OpenSSL checks the pair as it loads the key; its words for it are "key values mismatch".
    const unsigned long why = ERR_peek_last_error();
    const bool mismatch
        = ERR_GET_LIB(why) == ERR_LIB_X509 && ERR_GET_REASON(why) == X509_R_KEY_VALUES_MISMATCH;
    if (!keyLoaded && !mismatch) {
        *error = u"TLS key '%1': %2"_s.arg(keyFile, takeError());
        return nullptr;
    }
    if (mismatch || SSL_CTX_check_private_key(context) != 1) {
        *error = u"TLS key '%1' does not belong to the certificate '%2'"_s.arg(
            keyFile, certificateFile);
        ERR_clear_error();
        return nullptr;
    }
    return result;
}

} // namespace Presence::Server
