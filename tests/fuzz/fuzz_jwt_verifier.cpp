// JwtVerifier: a token in hello or a Bearer header, as any bytes. The first byte picks the form:
// the rest as the token itself, or (structure-aware) a header and a payload, split at the first
// NUL, that the target signs with the verifier's HS256 secret, so that the fuzzer gets past
// the signature to the claims. Properties: a token is accepted only when it looks like a JWT,
// with a valid user id as subject and an expiry not more than the leeway ago; the same token
// one character short of its signature is refused; a refusal says why.

// C++
#include <chrono>
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QMessageAuthenticationCode>
#include <QString>

// Presence
#include "FuzzCheck.h"
#include "protocol/Identifiers.h"
#include "server-mock/identity/JwtVerifier.h"

using namespace Presence::Server;
using namespace std::chrono;

namespace {

const QByteArray kSecret = "the fuzzer's HS256 secret, 32 bytes long";
constexpr milliseconds kNow { 1'800'000'000'000 };

const JwtVerifier &verifier()
{
    static const JwtVerifier instance = [] {
        QString error;
        const auto key = JwtKey::fromSecret(kSecret, QString(), &error);
        fuzzCheck(key.has_value(), "the fuzzer's key loads");
        return JwtVerifier({ *key });
    }();
    return instance;
}

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QString signedToken(const QByteArray &header, const QByteArray &payload)
{
    const QByteArray input = base64Url(header) + '.' + base64Url(payload);
    const QByteArray mac
        = QMessageAuthenticationCode::hash(input, kSecret, QCryptographicHash::Sha256);
    return QString::fromLatin1(input + '.' + base64Url(mac));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    QString token;
    if (data[0] % 2 == 0) {
        token = QString::fromUtf8(rest);
    } else {
        const qsizetype nul = rest.indexOf('\0');
        token = signedToken(
            rest.first(nul < 0 ? rest.size() : nul), nul < 0 ? QByteArray() : rest.sliced(nul + 1));
    }
    const JwtVerifier::Result result = verifier().verify(token, kNow);
    if (!result.claims) {
        fuzzCheck(!result.refusal.isEmpty(), "a refusal says why");
        return 0;
    }
    fuzzCheck(result.refusal.isEmpty(), "an accepted token has no refusal");
    fuzzCheck(JwtVerifier::looksLikeJwt(token), "an accepted token looks like a JWT");
    fuzzCheck(Presence::Protocol::isValidId(result.claims->subject), "the subject is a user id");
    fuzzCheck(result.claims->expiresAt + JwtVerifier::kDefaultLeeway > kNow,
        "an accepted token has not expired past the leeway");
    fuzzCheck(!verifier().verify(token.chopped(1), kNow).claims,
        "a token one character short of its signature is refused");
    return 0;
}
