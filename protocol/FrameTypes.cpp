#include "protocol/FrameTypes.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

const QStringList &clientFrameTypes()
{
    static const QStringList types { u"hello"_s, u"friends"_s, u"subscribe"_s, u"unsubscribe"_s,
        u"set_status"_s, u"message"_s, u"history"_s, u"ping"_s, u"watch_availability"_s,
        u"unwatch_availability"_s, u"conversations"_s, u"read"_s, u"refresh"_s };
    return types;
}

const QStringList &serverFrameTypes()
{
    static const QStringList types { u"welcome"_s, u"friends"_s, u"snapshot"_s, u"presence"_s,
        u"message"_s, u"history"_s, u"ok"_s, u"pong"_s, u"error"_s, u"availability"_s,
        u"availability_changed"_s, u"presence_batch"_s, u"digest"_s, u"conversations"_s,
        u"read_marker"_s, u"token_expiring"_s, u"friends_changed"_s };
    return types;
}

} // namespace Presence::Protocol
