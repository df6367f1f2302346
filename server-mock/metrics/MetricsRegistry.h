#pragma once

// C++
#include <map>
#include <memory>
#include <vector>

// Qt
#include <QByteArray>
#include <QSet>

// Presence
#include "server-mock/metrics/CounterFamily.h"
#include "server-mock/metrics/GaugeFamily.h"
#include "server-mock/metrics/HistogramFamily.h"

namespace Presence::Server {

// The gateway's metrics, rendered in the Prometheus text exposition format 0.0.4 for
// GET /metrics. The gateway owns one; register every family once at start-up, keep the
// series references they hand out, and count through those on the hot path.
//
// Registration refuses an invalid metric or label name, a reserved label ("le" on a
// histogram), invalid bucket bounds, and a name whose sample lines would clash with a family
// already registered. Those are programming errors: they are logged as critical, and the
// family handed back still works but is never exported, so a typo cannot corrupt /metrics.
class MetricsRegistry {
public:
    static constexpr char kContentType[] = "text/plain; version=0.0.4; charset=utf-8";

    MetricsRegistry();
    ~MetricsRegistry();
    MetricsRegistry(const MetricsRegistry &) = delete;
    MetricsRegistry &operator=(const MetricsRegistry &) = delete;

    [[nodiscard]] CounterFamily &counterFamily(
        QByteArray name, QByteArray help, QByteArrayList labelNames);
    // A counter without labels: its only series.
    [[nodiscard]] Counter &counter(QByteArray name, QByteArray help);

    [[nodiscard]] GaugeFamily &gaugeFamily(
        QByteArray name, QByteArray help, QByteArrayList labelNames);
    // A gauge without labels, read through read at every render.
    void gauge(QByteArray name, QByteArray help, GaugeFamily::Reader read);

    [[nodiscard]] HistogramFamily &histogramFamily(QByteArray name, QByteArray help,
        QByteArrayList labelNames, QList<double> upperBounds = Histogram::defaultLatencyBounds());
    // A histogram without labels: its only series.
    [[nodiscard]] Histogram &histogram(QByteArray name, QByteArray help,
        QList<double> upperBounds = Histogram::defaultLatencyBounds());

    // Whether a family of that name was registered and is exported (not refused).
    [[nodiscard]] bool isExported(const QByteArray &name) const;

    // Every exported family sorted by name, each family's series sorted by label values, so
    // equal metrics render to equal bytes.
    [[nodiscard]] QByteArray render() const;

private:
    // Exports family, or logs why it cannot be and keeps it unexported so that the
    // reference its registration returns stays valid. problem: one found by the caller.
    void keep(std::unique_ptr<MetricFamily> family, const QByteArray &problem = {});
    [[nodiscard]] QByteArray problemWith(const MetricFamily &family) const;

    std::map<QByteArray, std::unique_ptr<MetricFamily>> m_families; // sorted by name
    QSet<QByteArray> m_takenNames; // every exported family's name and sample names
    std::vector<std::unique_ptr<MetricFamily>> m_refused;
};

} // namespace Presence::Server
