#include "server-mock/redis/RedisScripts.h"

// Qt
#include <QCryptographicHash>
#include <QFile>
#include <QLatin1StringView>
#include <QtGlobal>

// Presence
#include "protocol/PresenceStatus.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// The scripts are the files of scripts/, compiled in as resources (redis/CMakeLists.txt). Each
// one that runs is the generated RANK table (availabilityRanks()), common.lua, then
// chat_common.lua for the chat scripts, then its own body.
//
// common.lua: the presence rules of PresenceRules.cpp, in Lua, and the one place that changes
// what is published; tst_presence_rules_parity checks the two agree. Keys of user u: <p>dev:<u>
// (ZSET member -> expiry ms), <p>st:<u> (HASH member -> chosen status), <p>pub:<u> (HASH
// status, seq, last_seen, pending, grace_at), <p>due (ZSET user -> next due ms), <p>epoch
// (STRING); channel <p>ch:<u>.
//
// chat_common.lua: shared by the chat scripts. Keys: <p>chat:<a>|<b> (ZSET score n -> the
// message frame, a < b), <p>chat:ids (HASH epoch, next), <p>convs:<u> (ZSET other user -> n of
// the conversation's newest message), <p>read:<u> (HASH other user -> the id of u's read
// marker); channel <p>msg:<u>. Message n of the Redis store is "m<epoch>.<n>": n grows along
// every conversation, and a new epoch after Redis lost the hash keeps ids from repeating.
QByteArray part(QLatin1StringView name)
{
    QFile file(u":/presence/redis/scripts/%1.lua"_s.arg(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("the Redis script %s is not compiled in", qPrintable(file.fileName()));
    // Each part starts on a line of its own.
    return '\n' + file.readAll();
}

// The availability order as the Lua's RANK table, from the protocol's one encoding of it:
// local RANK = { offline = 0, away = 1, online = 2 }
QByteArray availabilityRanks()
{
    QByteArray table = "-- Generated from Protocol::kAvailabilityOrder (RedisScripts.cpp).\n"
                       "local RANK = {";
    for (const Protocol::PresenceStatus status : Protocol::kAvailabilityOrder) {
        table += ' ' + Protocol::toString(status).toLatin1() + " = "
            + QByteArray::number(Protocol::availability(status)) + ',';
    }
    table.chop(1);
    return table + " }\n";
}

RedisScript make(QLatin1StringView body, bool chat = false)
{
    RedisScript script;
    script.source = availabilityRanks();
    script.source += part("common"_L1);
    if (chat)
        script.source += part("chat_common"_L1);
    script.source += part(body);
    script.sha1 = QCryptographicHash::hash(script.source, QCryptographicHash::Sha1).toHex();
    return script;
}

} // namespace

const RedisScript &RedisScripts::device()
{
    static const RedisScript script = make("device"_L1);
    return script;
}

QByteArray RedisScripts::deviceCause(ChangeCause cause)
{
    switch (cause) {
    case ChangeCause::DeviceJoined:
        return QByteArrayLiteral("joined");
    case ChangeCause::DeviceLeft:
        return QByteArrayLiteral("left");
    case ChangeCause::StatusChosen:
    case ChangeCause::GraceExpired: // never written by a device change
        break;
    }
    return QByteArrayLiteral("status");
}

const RedisScript &RedisScripts::refresh()
{
    static const RedisScript script = make("refresh"_L1);
    return script;
}

const RedisScript &RedisScripts::sweep()
{
    static const RedisScript script = make("sweep"_L1);
    return script;
}

const RedisScript &RedisScripts::chatAppend()
{
    static const RedisScript script = make("chat_append"_L1, true);
    return script;
}

// ARGV: prefix, user, with, up_to, then the two user ids as the gateway sorts them. Returns 0
// when up_to is not a message of the conversation, 1 when the marker is at or past it already,
// 2 when it moved there (and was published on the user's channel with an empty origin, so that
// every gateway delivers it, the one that ran this included).
const RedisScript &RedisScripts::chatRead()
{
    static const RedisScript script = make("chat_read"_L1, true);
    return script;
}

// ARGV: prefix, user, then pairs of the other user and the conversation's key. Returns, flat,
// for each pair: the newest message (nil when the conversation is gone), the user's marker
// (nil when none) and the unread count.
const RedisScript &RedisScripts::chatSummaries()
{
    static const RedisScript script = make("chat_summaries"_L1, true);
    return script;
}

} // namespace Presence::Server
