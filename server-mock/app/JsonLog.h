#pragma once

// Qt
#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QtGlobal>

namespace Presence::Server {

// --log-format json: one JSON object per line on stderr, for a log collector rather than a
// person. Every line has "time" (UTC, ISO 8601 with milliseconds), "level" (debug, info,
// warning, critical, fatal), "category" and "message"; "connection" (a number) and "user"
// when the message names them, as the gateway's messages do ("connection 7 of "alice" …").
// Tokens are never logged, in either format.
class JsonLog {
public:
    [[nodiscard]] static QByteArray line(
        QtMsgType type, const char *category, const QString &message, const QDateTime &time);
    // From now on, every Qt message of the process is written so.
    static void install();
};

} // namespace Presence::Server
