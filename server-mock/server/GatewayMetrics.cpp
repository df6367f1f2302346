#include "server-mock/server/GatewayMetrics.h"

// Presence
#include "protocol/FrameTypes.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// The protocol's own lists (a type it adds gets a series of its own here), and for frames in
// the two that are no type: "invalid" (not a frame) and "binary".
const QStringList &clientTypes()
{
    static const QStringList types
        = Protocol::clientFrameTypes() + QStringList { u"invalid"_s, u"binary"_s };
    return types;
}

} // namespace

GatewayMetrics::GatewayMetrics()
    : m_framesIn(m_registry.counterFamily("presence_frames_in_total",
        "Text frames received, by type (other: a type the protocol does not define).", { "type" }))
    , m_framesOut(m_registry.counterFamily(
          "presence_frames_out_total", "Frames sent, by type.", { "type" }))
    , m_errors(m_registry.counterFamily(
          "presence_errors_total", "Error frames sent, by code.", { "code" }))
    , m_closes(m_registry.counterFamily("presence_closes_total",
          "Connections ended, by WebSocket close code (1006: without a close frame).", { "code" }))
    , m_refusals(m_registry.counterFamily("presence_connections_refused_total",
          "TCP connections refused before their WebSocket upgrade, by reason.", { "reason" }))
    , m_acceptPauses(m_registry.counter("presence_accept_pauses_total",
          "Times accepting found no descriptor left and paused for 100 ms (own transport)."))
    , m_published(m_registry.counter("presence_changes_published_total",
          "Presence changes published (each one's push goes to every watcher)."))
    , m_pushes(m_registry.counter(
          "presence_pushes_sent_total", "Presence pushes handed to watchers' connections."))
    , m_chatMessages(
          m_registry.counter("presence_chat_messages_total", "Chat messages stored and relayed."))
    , m_pushLatency(m_registry.histogram("presence_push_latency_seconds",
          "From the gateway learning of a published change to its push being written to a "
          "watcher's connection."))
{
    // Every reason from the start, at 0, so that a rate over them works before the first one.
    for (int reason = 0; reason < kConnectionRefusalCount; ++reason) {
        m_refusedBy[std::size_t(reason)]
            = &m_refusals.series({ QString::fromLatin1(kConnectionRefusalNames[reason]) });
    }
}

Counter &GatewayMetrics::typed(CounterFamily &family, QHash<QString, Counter *> &cache,
    const QString &type, const QStringList &known)
{
    if (Counter *counter = cache.value(type))
        return *counter;
    const QString label = known.contains(type) ? type : u"other"_s;
    Counter *counter = &family.series({ label });
    if (cache.size() < 64) // bounded even if `known` grows
        cache.insert(type, counter);
    return *counter;
}

void GatewayMetrics::frameIn(const QString &type)
{
    typed(m_framesIn, m_framesInByType, type, clientTypes()).increment();
}

void GatewayMetrics::frameOut(const QString &type, quint64 count)
{
    if (count > 0)
        typed(m_framesOut, m_framesOutByType, type, Protocol::serverFrameTypes()).add(count);
}

void GatewayMetrics::errorSent(Protocol::ErrorCode code)
{
    m_errors.series({ Protocol::toString(code) }).increment();
}

void GatewayMetrics::connectionRefused(ConnectionRefusal reason)
{
    // Refusals come in storms once a cap is reached: no lookup per refusal.
    m_refusedBy[std::size_t(reason)]->increment();
}

void GatewayMetrics::acceptPaused()
{
    m_acceptPauses.increment();
}

void GatewayMetrics::connectionClosed(int closeCode)
{
    // The peer chooses its close code: only the standard and this protocol's ranges get a
    // series of their own.
    const bool known
        = (closeCode >= 1000 && closeCode <= 1015) || (closeCode >= 4000 && closeCode <= 4099);
    const int key = known ? closeCode : -1;
    Counter *&counter = m_closesByCode[key];
    if (!counter)
        counter = &m_closes.series({ known ? QString::number(closeCode) : u"other"_s });
    counter->increment();
}

void GatewayMetrics::presencePublished()
{
    m_published.increment();
}

void GatewayMetrics::pushWritten(std::chrono::steady_clock::duration sinceChange)
{
    m_pushes.increment();
    m_pushLatency.observe(std::chrono::duration<double>(sinceChange));
}

void GatewayMetrics::chatMessageStored()
{
    m_chatMessages.increment();
}

} // namespace Presence::Server
