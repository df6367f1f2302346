#include "server-mock/metrics/GaugeFamily.h"

// C++
#include <utility>

// Presence
#include "server-mock/metrics/PrometheusFormat.h"

namespace Presence::Server {

GaugeFamily::GaugeFamily(QByteArray name, QByteArray help, QByteArrayList labelNames)
    : MetricFamily(std::move(name), std::move(help), Type::Gauge, std::move(labelNames))
{
}

void GaugeFamily::setReader(const QStringList &labelValues, Reader read)
{
    if (!fits(labelValues))
        return;
    if (read)
        m_series.insert_or_assign(labelValues, std::move(read));
    else
        m_series.erase(labelValues);
}

void GaugeFamily::renderSamples(QByteArray &out) const
{
    for (const auto &[labelValues, read] : m_series)
        appendSample(out, name(), labelValues, PrometheusFormat::formatValue(read()));
}

} // namespace Presence::Server
