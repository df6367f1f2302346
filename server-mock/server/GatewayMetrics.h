#pragma once

// C++
#include <array>
#include <chrono>

// Qt
#include <QHash>
#include <QString>

// Presence
#include "protocol/ErrorCode.h"
#include "server-mock/metrics/MetricsRegistry.h"
#include "server-mock/transport/ConnectionRefusal.h"

namespace Presence::Server {

// What the gateway counts for GET /metrics (docs/admin-api.md lists the names). Counting is a
// few hash lookups of short strings at most; label values come from fixed sets (the protocol's
// frame types and codes), so a client sending made-up types cannot grow the series.
class GatewayMetrics {
public:
    GatewayMetrics();
    GatewayMetrics(const GatewayMetrics &) = delete;
    GatewayMetrics &operator=(const GatewayMetrics &) = delete;

    // For the gateway's gauges, read at every scrape.
    [[nodiscard]] MetricsRegistry &registry() { return m_registry; }
    [[nodiscard]] QByteArray render() const { return m_registry.render(); }

    // A text frame of that `type` came in ("invalid" when it was not a frame at all).
    void frameIn(const QString &type);
    void frameOut(const QString &type, quint64 count = 1);
    void errorSent(Protocol::ErrorCode code);
    void connectionClosed(int closeCode);
    // A TCP connection refused before it became a WebSocket connection.
    void connectionRefused(ConnectionRefusal reason);
    // Accepting found no descriptor left and paused.
    void acceptPaused();
    void presencePublished();
    // A presence push was handed to a connection, this long after the gateway learnt of the
    // change.
    void pushWritten(std::chrono::steady_clock::duration sinceChange);
    void chatMessageStored();

private:
    Counter &typed(CounterFamily &family, QHash<QString, Counter *> &cache, const QString &type,
        const QStringList &known);

    MetricsRegistry m_registry;
    CounterFamily &m_framesIn;
    CounterFamily &m_framesOut;
    CounterFamily &m_errors;
    CounterFamily &m_closes;
    CounterFamily &m_refusals;
    std::array<Counter *, kConnectionRefusalCount> m_refusedBy {}; // by reason, every series
    Counter &m_acceptPauses;
    Counter &m_published;
    Counter &m_pushes;
    Counter &m_chatMessages;
    Histogram &m_pushLatency;
    QHash<QString, Counter *> m_framesInByType;
    QHash<QString, Counter *> m_framesOutByType;
    QHash<int, Counter *> m_closesByCode;
};

} // namespace Presence::Server
