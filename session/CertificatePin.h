#pragma once

// C++
#include <optional>

// Qt
#include <QByteArray>
#include <QString>
#include <QStringView>

class QSslCertificate;
class QUrl;

namespace Presence::Session {

// Trusting one certificate for one server, as a browser's exception does: the server is
// "host:port" and the certificate its SHA-256 digest. Exactly that certificate is trusted,
// and only there: the same certificate at another address, or another one at this address,
// is not.
class CertificatePin {
public:
    // The server a pin is for: the host lower-cased (an IPv6 address in brackets) and the
    // port, the scheme's default made explicit ("chat.example.org:443" for
    // wss://Chat.Example.org/). Empty for a URL without a host.
    [[nodiscard]] static QString serverOf(const QUrl &url);
    // The SHA-256 digest of the certificate's DER encoding (32 bytes); empty for a null one.
    [[nodiscard]] static QByteArray digestOf(const QSslCertificate &certificate);
    // A digest as people compare it: upper-case hex pairs joined by colons ("AB:CD:…").
    [[nodiscard]] static QString displayed(const QByteArray &digest);
    // A digest written as 64 hex digits (either case), as the settings keep it; nullopt for
    // anything else.
    [[nodiscard]] static std::optional<QByteArray> fromHex(QStringView text);
    // The 64 lower-case hex digits of a digest.
    [[nodiscard]] static QString toHex(const QByteArray &digest);
};

} // namespace Presence::Session
