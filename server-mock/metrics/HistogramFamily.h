#pragma once

// C++
#include <map>

// Presence
#include "server-mock/metrics/Histogram.h"
#include "server-mock/metrics/MetricFamily.h"

namespace Presence::Server {

// Histograms sharing a name and bucket bounds, one series per combination of label values.
// Each series is exported as name_bucket{...,le="bound"} lines (cumulative, +Inf last),
// name_sum and name_count. A family without labels has its one series from the start.
class HistogramFamily : public MetricFamily {
public:
    // upperBounds must pass Histogram::areValidBounds (MetricsRegistry checks).
    HistogramFamily(
        QByteArray name, QByteArray help, QByteArrayList labelNames, QList<double> upperBounds);

    [[nodiscard]] const QList<double> &upperBounds() const { return m_upperBounds; }
    [[nodiscard]] QByteArrayList sampleNames() const override;

    // The series for labelValues (one per label name, in order), made empty on first use.
    // The reference stays valid as long as the family does: look it up once, keep it.
    [[nodiscard]] Histogram &series(const QStringList &labelValues = {});

private:
    void renderSamples(QByteArray &out) const override;

    QList<double> m_upperBounds;
    QByteArrayList m_leValues; // the bounds as "le" label values, then "+Inf"
    QByteArray m_bucketName;
    QByteArray m_sumName;
    QByteArray m_countName;
    std::map<QStringList, Histogram> m_series; // a map: stable references, sorted output
    Histogram m_unexported; // for callers that gave the wrong number of label values
};

} // namespace Presence::Server
