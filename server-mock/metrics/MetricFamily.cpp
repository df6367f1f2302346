#include "server-mock/metrics/MetricFamily.h"

// C++
#include <utility>

// Presence
#include "server-mock/metrics/Logging.h"
#include "server-mock/metrics/PrometheusFormat.h"

namespace Presence::Server {

namespace {

QByteArrayView typeName(MetricFamily::Type type)
{
    switch (type) {
    case MetricFamily::Type::Counter:
        return "counter";
    case MetricFamily::Type::Gauge:
        return "gauge";
    case MetricFamily::Type::Histogram:
        return "histogram";
    }
    return "untyped";
}

} // namespace

MetricFamily::MetricFamily(QByteArray name, QByteArray help, Type type, QByteArrayList labelNames)
    : m_name(std::move(name))
    , m_help(std::move(help))
    , m_type(type)
    , m_labelNames(std::move(labelNames))
{
}

MetricFamily::~MetricFamily() = default;

void MetricFamily::render(QByteArray &out) const
{
    out.append("# HELP ").append(m_name).append(' ');
    PrometheusFormat::appendEscapedHelp(out, m_help);
    out.append("\n# TYPE ").append(m_name).append(' ').append(typeName(m_type)).append('\n');
    renderSamples(out);
}

bool MetricFamily::fits(const QStringList &labelValues) const
{
    if (labelValues.size() == m_labelNames.size())
        return true;
    qCCritical(lcMetrics, "Metric %s takes %d label values, not %d: the series is not exported",
        m_name.constData(), int(m_labelNames.size()), int(labelValues.size()));
    return false;
}

void MetricFamily::appendSample(QByteArray &out, QByteArrayView sampleName,
    const QStringList &labelValues, QByteArrayView value, QByteArrayView extraLabel,
    QByteArrayView extraValue) const
{
    out.append(sampleName);
    if (!m_labelNames.isEmpty() || !extraLabel.isEmpty()) {
        char separator = '{';
        for (qsizetype i = 0; i < m_labelNames.size(); ++i) {
            out.append(separator).append(m_labelNames[i]).append("=\"");
            PrometheusFormat::appendEscapedLabelValue(out, labelValues[i]);
            out.append('"');
            separator = ',';
        }
        if (!extraLabel.isEmpty())
            out.append(separator).append(extraLabel).append("=\"").append(extraValue).append('"');
        out.append('}');
    }
    out.append(' ').append(value).append('\n');
}

} // namespace Presence::Server
