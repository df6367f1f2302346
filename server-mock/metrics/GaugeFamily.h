#pragma once

// C++
#include <functional>
#include <map>

// Presence
#include "server-mock/metrics/MetricFamily.h"

namespace Presence::Server {

// Gauges sharing a name, each series read through a callback when the metrics are rendered:
// the numbers they report (connections, subscriptions) already live elsewhere, and a
// callback costs nothing between scrapes.
class GaugeFamily : public MetricFamily {
public:
    using Reader = std::function<double()>;

    GaugeFamily(QByteArray name, QByteArray help, QByteArrayList labelNames);

    // Reads the series labelValues through read at every render, replacing any earlier
    // reader of that series; an empty read removes the series.
    void setReader(const QStringList &labelValues, Reader read);

private:
    void renderSamples(QByteArray &out) const override;

    std::map<QStringList, Reader> m_series; // sorted output
};

} // namespace Presence::Server
