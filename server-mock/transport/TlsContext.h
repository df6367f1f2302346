#pragma once

// C++
#include <memory>

// Qt
#include <QString>

typedef struct ssl_ctx_st SSL_CTX;

namespace Presence::Server {

// The gateway's TLS identity: a certificate chain and its private key, read from PEM files
// (OpenSSL's libssl). TLS 1.2 or newer, no renegotiation. A context is never changed: a reload
// loads a new one, used by connections that come after; the ones before keep theirs.
class TlsContext {
public:
    ~TlsContext();
    TlsContext(const TlsContext &) = delete;
    TlsContext &operator=(const TlsContext &) = delete;

    // Nullptr with *error naming the file and what is wrong with it.
    [[nodiscard]] static std::shared_ptr<const TlsContext> load(
        const QString &certificateFile, const QString &keyFile, QString *error);

    [[nodiscard]] SSL_CTX *get() const { return m_context; }
    [[nodiscard]] const QString &certificateFile() const { return m_certificateFile; }
    [[nodiscard]] const QString &keyFile() const { return m_keyFile; }

    // What OpenSSL says went wrong last on this thread, and clears it.
    [[nodiscard]] static QString takeError();

private:
    TlsContext(SSL_CTX *context, QString certificateFile, QString keyFile);

    SSL_CTX *m_context;
    QString m_certificateFile;
    QString m_keyFile;
};

} // namespace Presence::Server
