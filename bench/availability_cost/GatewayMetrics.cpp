#include "bench/availability_cost/GatewayMetrics.h"

// C++
#include <utility>

// Qt
#include <QHostAddress>
#include <QList>

// Presence
#include "bench/RawHttpExchange.h"

namespace AvailabilityCostBench {

Metrics parseMetrics(const QByteArray &body)
{
    Metrics metrics;
    for (const QByteArray &line : body.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype space = line.lastIndexOf(' ');
        if (space > 0)
            metrics.insert(QString::fromUtf8(line.left(space)), line.mid(space + 1).toDouble());
    }
    return metrics;
}

void fetchMetrics(const QUrl &http, std::function<void(std::optional<Metrics>)> done)
{
    using PushPollingBench::RawHttpExchange;
    const QByteArray host = http.host().toUtf8() + ':' + QByteArray::number(http.port());
    RawHttpExchange::start(QHostAddress(http.host()), quint16(http.port()), std::nullopt,
        "GET /metrics HTTP/1.1\r\nHost: " + host + "\r\n\r\n", {},
        [done = std::move(done)](const PushPollingBench::HttpOutcome &outcome) {
            done(outcome.status == 200 ? std::optional<Metrics>(parseMetrics(outcome.body))
                                       : std::nullopt);
        });
}

} // namespace AvailabilityCostBench
