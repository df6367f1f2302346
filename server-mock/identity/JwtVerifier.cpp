#include "server-mock/identity/JwtVerifier.h"

// C++
#include <cmath>

// Qt
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

// Presence
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;
using namespace std::chrono;

namespace Presence::Server {

namespace {

bool isBase64UrlCharacter(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z') || (u >= u'0' && u <= u'9')
        || u == u'-' || u == u'_';
}

std::optional<QByteArray> decodePart(QStringView part)
{
    const auto decoded = QByteArray::fromBase64Encoding(part.toLatin1(),
        QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals
            | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return decoded.decoded;
}

std::optional<QJsonObject> objectOf(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::nullopt;
    return document.object();
}

// A NumericDate (seconds since the epoch, RFC 7519 §2) as milliseconds; nullopt for anything
// else, or a date past what milliseconds hold.
std::optional<milliseconds> numericDate(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double seconds = value.toDouble();
    if (!std::isfinite(seconds) || std::abs(seconds) > 1e13)
        return std::nullopt;
    return milliseconds(qint64(seconds * 1000));
}

JwtVerifier::Result refused(QString why)
{
    return { std::nullopt, std::move(why) };
}

} // namespace

JwtVerifier::JwtVerifier(QList<JwtKey> keys, seconds leeway)
    : m_keys(std::move(keys))
    , m_leeway(leeway)
{
}

bool JwtVerifier::looksLikeJwt(QStringView token)
{
    int dots = 0;
    for (const QChar c : token) {
        if (c == u'.')
            ++dots;
        else if (!isBase64UrlCharacter(c))
            return false;
    }
    return dots == 2;
}

JwtVerifier::Result JwtVerifier::verify(QStringView token, milliseconds now) const
{
    if (!looksLikeJwt(token))
        return refused(u"not a JSON Web Token in compact form"_s);
    const qsizetype firstDot = token.indexOf(u'.');
    const qsizetype secondDot = token.indexOf(u'.', firstDot + 1);
    const QStringView headerPart = token.first(firstDot);
    const QStringView payloadPart = token.sliced(firstDot + 1, secondDot - firstDot - 1);
    const QStringView signaturePart = token.sliced(secondDot + 1);

    const std::optional<QByteArray> headerJson = decodePart(headerPart);
    const std::optional<QJsonObject> header = headerJson ? objectOf(*headerJson) : std::nullopt;
    if (!header)
        return refused(u"the header is not base64url of a JSON object"_s);
    const QJsonValue algValue = header->value("alg"_L1);
    if (!algValue.isString())
        return refused(u"the header names no algorithm"_s);
    const std::optional<JwtKey::Algorithm> algorithm = JwtKey::algorithmNamed(algValue.toString());
    if (!algorithm) {
        return refused(u"algorithm \"%1\" is not accepted"_s.arg(algValue.toString().left(16)));
    }
    if (header->contains("crit"_L1))
        return refused(u"the header has critical extensions (crit), which are not understood"_s);
    const QJsonValue kidValue = header->value("kid"_L1);
    if (!kidValue.isUndefined() && !kidValue.isString())
        return refused(u"the header's kid is not a string"_s);
    const QString kid = kidValue.toString();

    QList<const JwtKey *> candidates;
    for (const JwtKey &key : m_keys) {
        if (kid.isEmpty() ? key.algorithm() == *algorithm : key.kid() == kid)
            candidates.append(&key);
    }
    if (candidates.isEmpty()) {
        return refused(kid.isEmpty() ? u"no %1 key is configured"_s.arg(JwtKey::nameOf(*algorithm))
                                     : u"no key has kid \"%1\""_s.arg(kid.left(64)));
    }
    const std::optional<QByteArray> signature = decodePart(signaturePart);
    if (!signature)
        return refused(u"the signature is not base64url"_s);
    const QByteArray signingInput = token.first(secondDot).toLatin1();
    bool verified = false;
    for (const JwtKey *key : std::as_const(candidates)) {
        if (key->algorithm() != *algorithm) {
            return refused(u"key \"%1\" is for %2, the token says %3"_s.arg(
                key->kid(), JwtKey::nameOf(key->algorithm()), JwtKey::nameOf(*algorithm)));
        }
        if (key->verifies(signingInput, *signature)) {
            verified = true;
            break;
        }
    }
    if (!verified)
        return refused(u"the signature does not match"_s);

    // Signed by us: only now is the payload worth reading.
    const std::optional<QByteArray> payloadJson = decodePart(payloadPart);
    const std::optional<QJsonObject> payload = payloadJson ? objectOf(*payloadJson) : std::nullopt;
    if (!payload)
        return refused(u"the payload is not base64url of a JSON object"_s);
    const QJsonValue sub = payload->value("sub"_L1);
    if (!sub.isString() || !Protocol::isValidId(sub.toString()))
        return refused(u"sub is missing or no valid user id"_s);
    const std::optional<milliseconds> expiresAt = numericDate(payload->value("exp"_L1));
    if (!expiresAt)
        return refused(u"exp is missing or no NumericDate"_s);
    if (now >= *expiresAt + m_leeway)
        return refused(u"expired %1 s ago"_s.arg(duration_cast<seconds>(now - *expiresAt).count()));
    for (const auto &[name, problem] :
        { std::pair { "nbf"_L1, u"not valid before"_s }, std::pair { "iat"_L1, u"issued"_s } }) {
        const QJsonValue value = payload->value(name);
        if (value.isUndefined())
            continue;
        const std::optional<milliseconds> at = numericDate(value);
        if (!at)
            return refused(u"%1 is no NumericDate"_s.arg(name));
        if (*at > now + m_leeway) {
            return refused(
                u"%1 %2 s from now"_s.arg(problem).arg(ceil<seconds>(*at - now).count()));
        }
    }
    return { Claims { sub.toString(), *expiresAt }, {} };
}

} // namespace Presence::Server
