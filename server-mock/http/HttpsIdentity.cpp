#include "server-mock/http/HttpsIdentity.h"

// Qt
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// PEM files are kilobytes; a path to something else must not be read whole.
constexpr qint64 kMaxPemBytes = 1024 * 1024;

std::optional<QByteArray> readPem(const QString &path, const QString &what, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1 '%2': %3"_s.arg(what, path, file.errorString());
        return std::nullopt;
    }
    QByteArray pem = file.read(kMaxPemBytes + 1);
    if (pem.size() > kMaxPemBytes) {
        *error = u"%1 '%2': larger than 1 MiB, not a PEM file"_s.arg(what, path);
        return std::nullopt;
    }
    return pem;
}

} // namespace

std::optional<QSslConfiguration> HttpsIdentity::load(
    const QString &certificateFile, const QString &keyFile, QString *error)
{
    const auto certificatePem = readPem(certificateFile, u"TLS certificate"_s, error);
    if (!certificatePem)
        return std::nullopt;
    const QList<QSslCertificate> chain = QSslCertificate::fromData(*certificatePem, QSsl::Pem);
    if (chain.isEmpty()) {
        *error = u"TLS certificate '%1': no PEM certificate in it"_s.arg(certificateFile);
        return std::nullopt;
    }
    const auto keyPem = readPem(keyFile, u"TLS key"_s, error);
    if (!keyPem)
        return std::nullopt;
    QSslKey key;
    for (const QSsl::KeyAlgorithm algorithm : { QSsl::Ec, QSsl::Rsa }) {
        key = QSslKey(*keyPem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            break;
    }
    if (key.isNull()) {
        *error = u"TLS key '%1': no unencrypted PEM private key (RSA or EC) in it"_s.arg(keyFile);
        return std::nullopt;
    }
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(key);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // clients show no certificate
    return configuration;
}

} // namespace Presence::Server
