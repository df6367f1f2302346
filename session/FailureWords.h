#pragma once

// C++
#include <optional>

// Qt
#include <QByteArray>
#include <QCoreApplication>
#include <QString>
#include <QUrl>

namespace Presence::Session {

// What GatewaySession tells the person signing in when it gives up on an attempt, one
// sentence per way an attempt fails for good. Each reads only what the failed attempt left
// (its address, Qt's error text, certificate digests); when to give up is the session's call.
class FailureWords {
    Q_DECLARE_TR_FUNCTIONS(Presence::Session::FailureWords)

public:
    // Whether Qt's error text for a refused upgrade holds the HTTP status the server answered.
    [[nodiscard]] static bool hasHttpStatus(const QString &socketError);
    // The server answered the upgrade in HTTP with what no retry changes (a web server's 200,
    // a 404): the sentence. nullopt without an HTTP answer, or for one worth retrying (5xx,
    // 408, 429: a gateway restarting or full).
    [[nodiscard]] static std::optional<QString> notAGateway(
        const QUrl &url, const QString &socketError);
    // url has the wrong scheme (the probe heard the other one): the sentence naming the right
    // address.
    [[nodiscard]] static QString wrongScheme(const QUrl &url);
    // The certificate differs from the one trusted for this server (SHA-256 digests; presented
    // may be empty when it could not be read).
    [[nodiscard]] static QString certificateChanged(
        const QUrl &url, const QByteArray &pinned, const QByteArray &presented);
    // Qt refused the certificate (sslError says why) and none is trusted for this server.
    [[nodiscard]] static QString certificateUntrusted(
        const QUrl &url, const QString &sslError, const QByteArray &presented);
    [[nodiscard]] static QString signInExpired();
    [[nodiscard]] static QString tokenRefused();
    [[nodiscard]] static QString signedOut();
    [[nodiscard]] static QString unsupportedProtocol();
};

} // namespace Presence::Session
