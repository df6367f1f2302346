// BearerToken: the Authorization header of every admin and client HTTP request, as any bytes.
// Properties: a token is read only from the Bearer scheme (in any case), and is then 1 to 4096
// visible ASCII characters found in the header as they are; anything else is missing or
// malformed, with no token; secretsEqual() agrees with plain equality.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QString>

// Presence
#include "FuzzCheck.h"
#include "protocol/Identifiers.h"
#include "server-mock/http/BearerToken.h"

using Presence::Server::BearerToken;
using Presence::Server::secretsEqual;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray header(reinterpret_cast<const char *>(data), qsizetype(size));
    const BearerToken bearer = BearerToken::fromHeader(header);
    const bool bearerScheme = header.trimmed().toLower().startsWith("bearer");
    switch (bearer.status) {
    case BearerToken::Status::Missing:
        fuzzCheck(bearer.token.isEmpty(), "a missing token is empty");
        break;
    case BearerToken::Status::Malformed:
        fuzzCheck(bearerScheme, "only a Bearer header can be malformed");
        fuzzCheck(bearer.token.isEmpty(), "a malformed token is empty");
        break;
    case BearerToken::Status::Present: {
        fuzzCheck(bearerScheme, "a token comes only from the Bearer scheme");
        fuzzCheck(
            !bearer.token.isEmpty() && bearer.token.size() <= Presence::Protocol::kMaxTokenLength,
            "a token is 1 to 4096 characters");
        for (const QChar c : bearer.token)
            fuzzCheck(c.unicode() > 0x20 && c.unicode() < 0x7f, "of visible ASCII");
        fuzzCheck(header.contains(bearer.token.toLatin1()), "as the header has it");
        fuzzCheck(
            BearerToken::fromHeader("bEaReR " + bearer.token.toLatin1()).token == bearer.token,
            "whatever the scheme's case");
        break;
    }
    }
    // The comparison of secrets, on the two halves of the input.
    const QString a = QString::fromLatin1(header.first(header.size() / 2));
    const QString b = QString::fromLatin1(header.sliced(header.size() / 2));
    fuzzCheck(secretsEqual(a, b) == (a == b), "secretsEqual is equality");
    fuzzCheck(secretsEqual(a, a), "a secret equals itself");
    return 0;
}
