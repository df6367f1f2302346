// RequestContent: what the admin API reads from a request beyond its head, as any bytes. The
// first byte picks the reader; the rest is a body, or a query string read as QHttpServer gives
// it to the route. Properties: each reader either refuses with 400 (or 413 for too many ids) or
// gives a value that agrees with the input: a JSON object that is the body, a status that is
// the body's only field, ids that are the one "ids" value split at its commas, each valid and
// no more than the limit.

// C++
#include <cstddef>
#include <cstdint>
#include <variant>

// Qt
#include <QByteArray>
#include <QJsonDocument>
#include <QUrl>
#include <QUrlQuery>

// Presence
#include "FuzzCheck.h"
#include "protocol/Identifiers.h"
#include "server-mock/http/RequestContent.h"

using namespace Presence::Server;
using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kMaxIds = 8;

bool isRefusal(const HttpReply &reply, bool mayBeTooLarge)
{
    const QByteArray bytes = reply.toBytes();
    const bool bad = reply.status() == HttpStatus::BadRequest;
    const bool tooLarge = mayBeTooLarge && reply.status() == HttpStatus::ContentTooLarge;
    // One head, whatever the request's text quoted back in the message.
    return (bad || tooLarge) && bytes.count("\r\n\r\n") == 1
        && bytes.contains("Connection: close\r\n");
}

void checkJsonObject(const QByteArray &body)
{
    const auto read = readJsonObject(body);
    if (const auto *refusal = std::get_if<HttpReply>(&read)) {
        fuzzCheck(isRefusal(*refusal, false), "a body is refused with 400");
        return;
    }
    const QJsonDocument document = QJsonDocument::fromJson(body);
    fuzzCheck(document.isObject() && document.object() == std::get<QJsonObject>(read),
        "an object read is the body");
}

void checkSimulatedPresence(const QByteArray &body)
{
    const auto read = readSimulatedPresence(body);
    if (const auto *refusal = std::get_if<HttpReply>(&read)) {
        fuzzCheck(isRefusal(*refusal, false), "a presence change is refused with 400");
        return;
    }
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    fuzzCheck(object.size() == 1, "status is the only field");
    const QString status = object.value("status"_L1).toString();
    const auto &chosen = std::get<SimulatedPresence>(read).chosen;
    if (chosen)
        fuzzCheck(Presence::Protocol::toString(*chosen) == status, "the status is the body's");
    else
        fuzzCheck(status == u"offline"_s, "no status is offline");
}

void checkIdList(const QByteArray &query)
{
    const QStringList values
        = QUrlQuery(QString::fromUtf8(query)).allQueryItemValues(u"ids"_s, QUrl::FullyDecoded);
    const auto read = readIdList(values, kMaxIds);
    if (const auto *refusal = std::get_if<HttpReply>(&read)) {
        fuzzCheck(isRefusal(*refusal, true), "ids are refused with 400 or 413");
        fuzzCheck((refusal->status() == HttpStatus::ContentTooLarge)
                == (values.size() == 1 && values.first().count(u',') >= kMaxIds),
            "413 exactly when there are too many ids");
        return;
    }
    const QStringList &ids = std::get<QStringList>(read);
    fuzzCheck(values.size() == 1 && ids.join(u',') == values.first(), "the ids are the value's");
    fuzzCheck(ids.size() <= kMaxIds, "no more ids than the limit");
    for (const QString &id : ids)
        fuzzCheck(Presence::Protocol::isValidId(id), "every id is valid");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    switch (data[0] % 3) {
    case 0:
        checkJsonObject(rest);
        break;
    case 1:
        checkSimulatedPresence(rest);
        break;
    default:
        checkIdList(rest);
        break;
    }
    const QString quoted = quotedFromRequest(QString::fromUtf8(rest));
    fuzzCheck(quoted.size() <= 65, "a quote is cut to 64 characters and an ellipsis");
    return 0;
}
