#include "server-mock/http/RequestContent.h"

// Qt
#include <QJsonDocument>
#include <QJsonParseError>

// Presence
#include "protocol/FieldReader.h"
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

constexpr qsizetype kMaxQuoted = 64;

} // namespace

QString quotedFromRequest(QStringView text)
{
    return text.size() <= kMaxQuoted ? text.toString() : text.first(kMaxQuoted).toString() + u"…"_s;
}

QString invalidUserId(QStringView id)
{
    return u"'%1' is not a valid user id (1-64 of A-Z a-z 0-9 . _ -)"_s.arg(quotedFromRequest(id));
}

std::variant<QJsonObject, HttpReply> readJsonObject(const QByteArray &body)
{
    const QByteArray trimmed = body.trimmed();
    if (trimmed.isEmpty())
        return HttpReply::badRequest(u"the body must be a JSON object, and it is empty"_s);
    // Qt's reader calls a bare 42 invalid; what matters here is that it is no object.
    if (!trimmed.startsWith('{'))
        return HttpReply::badRequest(u"the body must be a JSON object"_s);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        return HttpReply::badRequest(
            u"the body is not valid JSON: %1 at byte %2"_s.arg(error.errorString())
                .arg(error.offset));
    }
    return document.object();
}

std::variant<SimulatedPresence, HttpReply> readSimulatedPresence(const QByteArray &body)
{
    std::variant<QJsonObject, HttpReply> object = readJsonObject(body);
    if (auto *refusal = std::get_if<HttpReply>(&object))
        return std::move(*refusal);
    Protocol::FieldReader read(std::get<QJsonObject>(object));
    QString status;
    if (read.allowOnly({ "status"_L1 }, u"a presence change"_s))
        status = read.string("status"_L1, Protocol::Need::Required);
    SimulatedPresence presence;
    if (!read.failed() && status != u"offline"_s) {
        presence.chosen = Protocol::chosenStatusFromString(status);
        if (!presence.chosen)
            read.failField("status"_L1, u"must be one of online, away, invisible, offline"_s);
    }
    if (read.failed())
        return HttpReply::badRequest(read.problem());
    return presence;
}

std::variant<QStringList, HttpReply> readIdList(const QStringList &values, qsizetype maxIds)
{
    if (values.size() != 1) {
        return HttpReply::badRequest(values.isEmpty()
                ? u"name the users in the query: /api/presence?ids=alice,bob"_s
                : u"give 'ids' once, as one comma-separated list"_s);
    }
    const QString &list = values.first();
    // Counted before it is split, so that a million commas cost no million strings.
    const qsizetype count = list.isEmpty() ? 0 : list.count(u',') + 1;
    if (count > maxIds) {
        return HttpReply::error(HttpStatus::ContentTooLarge, "too_many_ids"_L1,
            u"%1 ids is more than the limit of %2 per request"_s.arg(count).arg(maxIds));
    }
    const QStringList ids = list.isEmpty() ? QStringList() : list.split(u',');
    for (const QString &id : ids) {
        if (!Protocol::isValidId(id))
            return HttpReply::badRequest(invalidUserId(id));
    }
    return ids;
}

} // namespace Presence::Server
