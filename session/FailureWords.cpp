#include "session/FailureWords.h"

// Qt
#include <QRegularExpression>

// Presence
#include "session/CertificatePin.h"

using namespace Qt::StringLiterals;

namespace Presence::Session {

namespace {

// QWebSocket (Qt 6.4) reports the status of a refused upgrade only in its error string,
// "QWebSocketPrivate::processHandshake: Unhandled http status code: 200 (OK)."
const QRegularExpression kHttpStatus(u"status code: (\\d{3}) \\(([^)]*)\\)"_s);

// The server as the person typed it, without a path (not CertificatePin::serverOf, a pin's key).
QString displayedServer(const QUrl &url)
{
    return url.toDisplayString(QUrl::RemovePath | QUrl::RemoveQuery);
}

} // namespace

bool FailureWords::hasHttpStatus(const QString &socketError)
{
    return kHttpStatus.match(socketError).hasMatch();
}

std::optional<QString> FailureWords::notAGateway(const QUrl &url, const QString &socketError)
{
    const QRegularExpressionMatch match = kHttpStatus.match(socketError);
    if (!match.hasMatch())
        return std::nullopt;
    const int status = match.captured(1).toInt();
    const QString answer = u"HTTP %1 %2"_s.arg(match.captured(1), match.captured(2)).trimmed();
    if (status >= 500 || status == 429 || status == 408)
        return std::nullopt; // a gateway restarting or full (the cap answers 503)
    return status < 400
        //: %1 is the server's address, %2 what it answered, e.g. "HTTP 200 OK".
        ? tr("%1 is a web server, not a presence gateway (it answered %2).")
              .arg(displayedServer(url), answer)
        //: %1 is the server's address, %2 what it answered, e.g. "HTTP 404 Not Found".
        : tr("%1 refused the connection (%2): is this the gateway's address?")
              .arg(displayedServer(url), answer);
}

QString FailureWords::wrongScheme(const QUrl &url)
{
    const bool secure = url.scheme() == u"wss"_s;
    QUrl other = url;
    other.setScheme(secure ? u"ws"_s : u"wss"_s);
    // The address as typed, with the other scheme: "wss://host:port", a path only if it has one.
    const QString use = other.toDisplayString(
        other.path() == u"/"_s ? QUrl::RemovePath | QUrl::RemoveQuery : QUrl::None);
    return secure
        //: %1 is the address tried ("wss://host:port"), %2 the one to use ("ws://…").
        ? tr("%1 is not a TLS server: use %2").arg(displayedServer(url), use)
        //: %1 is the address tried ("ws://host:port"), %2 the one to use ("wss://…").
        : tr("%1 answered with TLS: use %2").arg(displayedServer(url), use);
}

QString FailureWords::certificateChanged(
    const QUrl &url, const QByteArray &pinned, const QByteArray &presented)
{
    const QString now = CertificatePin::displayed(presented);
    //: In place of a fingerprint that could not be read.
    const QString unknown = tr("unknown");
    //: %1 is the gateway's address, %2 the SHA-256 fingerprint of the certificate
    //: trusted for it, %3 that of the one it presented now ("AB:CD:…").
    return tr("The certificate of %1 changed since it was trusted: it was %2 and is now %3. "
              "This may mean that someone is intercepting the connection. Sign in only once "
              "the gateway's administrator confirms the new certificate.")
        .arg(
            displayedServer(url), CertificatePin::displayed(pinned), now.isEmpty() ? unknown : now);
}

QString FailureWords::certificateUntrusted(
    const QUrl &url, const QString &sslError, const QByteArray &presented)
{
    if (presented.isEmpty()) {
        //: %1 is the gateway's address, %2 what is wrong with its certificate, as Qt says
        //: it (e.g. "The host name did not match any of the valid hosts for this
        //: certificate").
        return tr("The certificate of %1 is not trusted: %2. If the gateway uses its own "
                  "certificate authority, start the app with --ca-file and that authority's "
                  "certificate.")
            .arg(displayedServer(url), sslError);
    }
    //: %1 is the gateway's address, %2 what is wrong with its certificate, as Qt says it,
    //: %3 the certificate's SHA-256 fingerprint ("AB:CD:…").
    return tr("The certificate of %1 is not trusted: %2. Its SHA-256 fingerprint is %3. If that "
              "is your gateway's certificate, you can trust it for this server in the sign-in "
              "dialog (Sign in…); if the gateway uses its own certificate authority, start the "
              "app with --ca-file and that authority's certificate.")
        .arg(displayedServer(url), sslError, CertificatePin::displayed(presented));
}

QString FailureWords::signInExpired()
{
    return tr("The sign-in expired: sign in again.");
}

QString FailureWords::tokenRefused()
{
    return tr("The gateway did not accept the token.");
}

QString FailureWords::signedOut()
{
    return tr("The gateway signed you out (the account was removed, or its token changed): "
              "sign in again.");
}

QString FailureWords::unsupportedProtocol()
{
    return tr("The gateway speaks another protocol version.");
}

} // namespace Presence::Session
