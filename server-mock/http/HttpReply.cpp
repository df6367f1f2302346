#include "server-mock/http/HttpReply.h"

// Qt
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

QByteArray reasonPhrase(HttpStatus status)
{
    switch (status) {
    case HttpStatus::Ok:
        return "OK"_ba;
    case HttpStatus::Created:
        return "Created"_ba;
    case HttpStatus::NoContent:
        return "No Content"_ba;
    case HttpStatus::BadRequest:
        return "Bad Request"_ba;
    case HttpStatus::Unauthorized:
        return "Unauthorized"_ba;
    case HttpStatus::Forbidden:
        return "Forbidden"_ba;
    case HttpStatus::NotFound:
        return "Not Found"_ba;
    case HttpStatus::MethodNotAllowed:
        return "Method Not Allowed"_ba;
    case HttpStatus::RequestTimeout:
        return "Request Timeout"_ba;
    case HttpStatus::Conflict:
        return "Conflict"_ba;
    case HttpStatus::LengthRequired:
        return "Length Required"_ba;
    case HttpStatus::UnprocessableContent:
        return "Unprocessable Content"_ba;
    case HttpStatus::ContentTooLarge:
        return "Content Too Large"_ba;
    case HttpStatus::TooManyRequests:
        return "Too Many Requests"_ba;
    case HttpStatus::HeaderFieldsTooLarge:
        return "Request Header Fields Too Large"_ba;
    case HttpStatus::NotImplemented:
        return "Not Implemented"_ba;
    case HttpStatus::ServiceUnavailable:
        return "Service Unavailable"_ba;
    }
    return {};
}

} // namespace

HttpReply::HttpReply(HttpStatus status, QByteArray contentType, QByteArray body)
    : m_status(status)
    , m_contentType(std::move(contentType))
    , m_body(std::move(body))
{
}

HttpReply HttpReply::json(HttpStatus status, const QJsonObject &body)
{
    return HttpReply(status, "application/json"_ba,
        QJsonDocument(body).toJson(QJsonDocument::Compact).append('\n'));
}

HttpReply HttpReply::error(HttpStatus status, QLatin1StringView code, const QString &message)
{
    return json(status,
        QJsonObject {
            { "error"_L1, QJsonObject { { "code"_L1, code }, { "message"_L1, message } } } });
}

HttpReply HttpReply::noContent()
{
    return HttpReply(HttpStatus::NoContent, {}, {});
}

HttpReply HttpReply::badRequest(const QString &message)
{
    return error(HttpStatus::BadRequest, "bad_request"_L1, message);
}

HttpReply &HttpReply::withHeader(QByteArray name, QByteArray value)
{
    value.removeIf([](char c) { return uchar(c) < 0x20 || uchar(c) == 0x7f; });
    m_headers.append({ std::move(name), std::move(value) });
    return *this;
}

QByteArray HttpReply::toBytes() const
{
    QByteArray out = "HTTP/1.1 "_ba + QByteArray::number(int(m_status)) + ' '
        + reasonPhrase(m_status) + "\r\n"_ba;
    const auto header = [&out](const QByteArray &name, const QByteArray &value) {
        out += name + ": "_ba + value + "\r\n"_ba;
    };
    // RFC 9110 §8.6: no Content-Length on a 204; nor a type, since there is no content.
    if (m_status != HttpStatus::NoContent) {
        if (!m_contentType.isEmpty())
            header("Content-Type"_ba, m_contentType);
        header("Content-Length"_ba, QByteArray::number(m_body.size()));
    }
    // Presence and faults change from one moment to the next; nothing here is worth a cache.
    header("Cache-Control"_ba, "no-store"_ba);
    header("Connection"_ba, "close"_ba);
    for (const auto &[name, value] : m_headers)
        header(name, value);
    out += "\r\n"_ba;
    if (m_status != HttpStatus::NoContent)
        out += m_body;
    return out;
}

} // namespace Presence::Server
