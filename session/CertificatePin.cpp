#include "session/CertificatePin.h"

// C++
#include <algorithm>

// Qt
#include <QCryptographicHash>
#include <QSslCertificate>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Presence::Session {

namespace {

constexpr qsizetype kDigestBytes = 32; // SHA-256

bool isHexDigit(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F');
}

} // namespace

QString CertificatePin::serverOf(const QUrl &url)
{
    const QString host = url.host().toLower();
    if (host.isEmpty())
        return {};
    const int port = url.port(url.scheme() == u"ws"_s ? 80 : 443);
    // "::1:443" would not say where the address ends.
    const QString shownHost = host.contains(u':') ? u"[%1]"_s.arg(host) : host;
    return u"%1:%2"_s.arg(shownHost).arg(port);
}

QByteArray CertificatePin::digestOf(const QSslCertificate &certificate)
{
    if (certificate.isNull())
        return {};
    return certificate.digest(QCryptographicHash::Sha256);
}

QString CertificatePin::displayed(const QByteArray &digest)
{
    return QString::fromLatin1(digest.toHex(':').toUpper());
}

std::optional<QByteArray> CertificatePin::fromHex(QStringView text)
{
    if (text.size() != 2 * kDigestBytes || !std::all_of(text.begin(), text.end(), isHexDigit))
        return std::nullopt;
    return QByteArray::fromHex(text.toLatin1());
}

QString CertificatePin::toHex(const QByteArray &digest)
{
    return QString::fromLatin1(digest.toHex());
}

} // namespace Presence::Session
