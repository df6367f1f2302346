#include "server-mock/http/BearerToken.h"

// C++
#include <algorithm>

// Qt
#include <QCryptographicHash>

// Presence
#include "protocol/Identifiers.h"

namespace Presence::Server {

BearerToken BearerToken::fromHeader(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    const qsizetype space = value.indexOf(' ');
    const QByteArrayView scheme = QByteArrayView(value).first(space < 0 ? value.size() : space);
    // RFC 9110 §11.1: the scheme is case-insensitive.
    if (value.isEmpty() || scheme.compare("Bearer", Qt::CaseInsensitive) != 0)
        return {};
    BearerToken bearer;
    bearer.status = Status::Malformed;
    const QByteArrayView token = QByteArrayView(value).sliced(scheme.size()).trimmed();
    const bool visible = std::all_of(
        token.begin(), token.end(), [](char c) { return c > ' ' && uchar(c) < 0x7f; });
    if (token.isEmpty() || token.size() > Protocol::kMaxTokenLength || !visible)
        return bearer;
    bearer.status = Status::Present;
    bearer.token = QString::fromLatin1(token);
    return bearer;
}

bool secretsEqual(QStringView a, QStringView b)
{
    const QByteArray hashA = QCryptographicHash::hash(a.toUtf8(), QCryptographicHash::Sha256);
    const QByteArray hashB = QCryptographicHash::hash(b.toUtf8(), QCryptographicHash::Sha256);
    // No early exit: every byte is looked at whatever the first difference.
    uchar difference = 0;
    for (qsizetype i = 0; i < hashA.size(); ++i)
        difference |= uchar(hashA[i]) ^ uchar(hashB[i]);
    return difference == 0;
}

} // namespace Presence::Server
