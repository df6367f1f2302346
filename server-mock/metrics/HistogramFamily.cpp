#include "server-mock/metrics/HistogramFamily.h"

// C++
#include <utility>

// Presence
#include "server-mock/metrics/PrometheusFormat.h"

namespace Presence::Server {

HistogramFamily::HistogramFamily(
    QByteArray name, QByteArray help, QByteArrayList labelNames, QList<double> upperBounds)
    : MetricFamily(std::move(name), std::move(help), Type::Histogram, std::move(labelNames))
    , m_upperBounds(std::move(upperBounds))
    , m_bucketName(this->name() + "_bucket")
    , m_sumName(this->name() + "_sum")
    , m_countName(this->name() + "_count")
    , m_unexported(m_upperBounds)
{
    // Formatted once: every render writes each bound once per series.
    for (const double bound : std::as_const(m_upperBounds))
        m_leValues.append(PrometheusFormat::formatValue(bound));
    m_leValues.append(QByteArrayLiteral("+Inf"));
    if (this->labelNames().isEmpty())
        m_series.try_emplace(QStringList {}, m_upperBounds);
}

QByteArrayList HistogramFamily::sampleNames() const
{
    return { m_bucketName, m_sumName, m_countName };
}

Histogram &HistogramFamily::series(const QStringList &labelValues)
{
    if (!fits(labelValues))
        return m_unexported;
    return m_series.try_emplace(labelValues, m_upperBounds).first->second;
}

void HistogramFamily::renderSamples(QByteArray &out) const
{
    for (const auto &[labelValues, histogram] : m_series) {
        const std::vector<quint64> counts = histogram.cumulativeCounts();
        for (qsizetype i = 0; i < m_leValues.size(); ++i) {
            appendSample(out, m_bucketName, labelValues, QByteArray::number(counts[std::size_t(i)]),
                "le", m_leValues[i]);
        }
        appendSample(out, m_sumName, labelValues, PrometheusFormat::formatValue(histogram.sum()));
        appendSample(out, m_countName, labelValues, QByteArray::number(histogram.count()));
    }
}

} // namespace Presence::Server
