#pragma once

// Qt
#include <QByteArray>
#include <QJsonObject>
#include <QLatin1StringView>
#include <QList>
#include <QPair>
#include <QString>

namespace Presence::Server {

// The statuses the admin HTTP server answers with (docs/admin-api.md).
enum class HttpStatus {
    Ok = 200,
    Created = 201,
    NoContent = 204,
    BadRequest = 400,
    Unauthorized = 401,
    Forbidden = 403,
    NotFound = 404,
    MethodNotAllowed = 405,
    RequestTimeout = 408,
    Conflict = 409,
    LengthRequired = 411,
    ContentTooLarge = 413,
    UnprocessableContent = 422,
    TooManyRequests = 429,
    HeaderFieldsTooLarge = 431,
    NotImplemented = 501,
    ServiceUnavailable = 503,
};

// One whole HTTP/1.1 response, written to the socket as it is. The gate's refusals and
// AdminServer's answers are all made of these, so every error has the same JSON shape,
// {"error":{"code":"…","message":"…"}}, and every response says Connection: close (one request
// per connection, see HttpRequestGate).
class HttpReply {
public:
    HttpReply(HttpStatus status, QByteArray contentType, QByteArray body);

    // A JSON object, compact, with a final newline for people reading curl's output.
    [[nodiscard]] static HttpReply json(HttpStatus status, const QJsonObject &body);
    [[nodiscard]] static HttpReply error(
        HttpStatus status, QLatin1StringView code, const QString &message);
    [[nodiscard]] static HttpReply noContent();
    // 400, bad_request: what the client sent cannot be read.
    [[nodiscard]] static HttpReply badRequest(const QString &message);

    // Adds a header; control characters are dropped from the value, so that no text from a
    // request can split the response.
    HttpReply &withHeader(QByteArray name, QByteArray value);

    [[nodiscard]] HttpStatus status() const { return m_status; }
    [[nodiscard]] QByteArray toBytes() const;

private:
    HttpStatus m_status;
    QByteArray m_contentType;
    QByteArray m_body;
    QList<QPair<QByteArray, QByteArray>> m_headers;
};

} // namespace Presence::Server
