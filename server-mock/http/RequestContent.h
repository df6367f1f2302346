#pragma once

// C++
#include <optional>
#include <variant>

// Qt
#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QStringView>

// Presence
#include "protocol/PresenceStatus.h"
#include "server-mock/http/HttpReply.h"

namespace Presence::Server {

// What the admin API reads from a request beyond its head (HttpRequestGate reads that): a JSON
// body, the presence change in it, the ids of a query. Each reader gives the value or the
// answer that refuses it, worded for the client, and trusts nothing of its input's size or
// shape. Kept apart from the routes, which need a server, so that a fuzzer can drive them
// (tests/fuzz/fuzz_request_content.cpp).

// Text of a request quoted back in an error message, cut to 64 characters.
[[nodiscard]] QString quotedFromRequest(QStringView text);
// The message that refuses an id of a request (a path's, a query's) as invalid.
[[nodiscard]] QString invalidUserId(QStringView id);

// The body as a JSON object; 400 when it is empty, not JSON, or JSON but no object.
[[nodiscard]] std::variant<QJsonObject, HttpReply> readJsonObject(const QByteArray &body);

// PUT /admin/users/{id}/presence: {"status": "online" | "away" | "invisible" | "offline"}, and
// nothing else. Offline is no status a device chooses: it is the simulated device going away.
struct SimulatedPresence {
    std::optional<Protocol::ChosenStatus> chosen; // none: offline
};
[[nodiscard]] std::variant<SimulatedPresence, HttpReply> readSimulatedPresence(
    const QByteArray &body);

// GET /api/presence?ids=a,b: the values the query gave for "ids", percent-decoded. It must be
// given once, as a comma-separated list of valid ids (empty for none), and hold at most maxIds
// (413 past it, 400 for anything else). Duplicates stay: the caller counts each once.
[[nodiscard]] std::variant<QStringList, HttpReply> readIdList(
    const QStringList &values, qsizetype maxIds);

} // namespace Presence::Server
