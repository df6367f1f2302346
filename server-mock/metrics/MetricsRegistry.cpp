#include "server-mock/metrics/MetricsRegistry.h"

// C++
#include <utility>

// Presence
#include "server-mock/metrics/Logging.h"
#include "server-mock/metrics/PrometheusFormat.h"

namespace Presence::Server {

MetricsRegistry::MetricsRegistry() = default;

MetricsRegistry::~MetricsRegistry() = default;

CounterFamily &MetricsRegistry::counterFamily(
    QByteArray name, QByteArray help, QByteArrayList labelNames)
{
    auto family
        = std::make_unique<CounterFamily>(std::move(name), std::move(help), std::move(labelNames));
    CounterFamily &result = *family;
    keep(std::move(family));
    return result;
}

Counter &MetricsRegistry::counter(QByteArray name, QByteArray help)
{
    return counterFamily(std::move(name), std::move(help), {}).series();
}

GaugeFamily &MetricsRegistry::gaugeFamily(
    QByteArray name, QByteArray help, QByteArrayList labelNames)
{
    auto family
        = std::make_unique<GaugeFamily>(std::move(name), std::move(help), std::move(labelNames));
    GaugeFamily &result = *family;
    keep(std::move(family));
    return result;
}

void MetricsRegistry::gauge(QByteArray name, QByteArray help, GaugeFamily::Reader read)
{
    gaugeFamily(std::move(name), std::move(help), {}).setReader({}, std::move(read));
}

HistogramFamily &MetricsRegistry::histogramFamily(
    QByteArray name, QByteArray help, QByteArrayList labelNames, QList<double> upperBounds)
{
    QByteArray problem;
    if (!Histogram::areValidBounds(upperBounds)) {
        problem = "bucket bounds must be finite and strictly increasing";
        upperBounds.clear(); // a refused family still has to work
    }
    auto family = std::make_unique<HistogramFamily>(
        std::move(name), std::move(help), std::move(labelNames), std::move(upperBounds));
    HistogramFamily &result = *family;
    keep(std::move(family), problem);
    return result;
}

Histogram &MetricsRegistry::histogram(QByteArray name, QByteArray help, QList<double> upperBounds)
{
    return histogramFamily(std::move(name), std::move(help), {}, std::move(upperBounds)).series();
}

bool MetricsRegistry::isExported(const QByteArray &name) const
{
    return m_families.find(name) != m_families.end();
}

QByteArray MetricsRegistry::render() const
{
    QByteArray out;
    out.reserve(4096);
    for (const auto &[name, family] : m_families)
        family->render(out);
    return out;
}

void MetricsRegistry::keep(std::unique_ptr<MetricFamily> family, const QByteArray &problem)
{
    const QByteArray why = problem.isEmpty() ? problemWith(*family) : problem;
    if (!why.isEmpty()) {
        qCCritical(lcMetrics, "Refusing metric \"%s\": %s; it is not exported",
            family->name().constData(), why.constData());
        m_refused.push_back(std::move(family));
        return;
    }
    m_takenNames.insert(family->name());
    for (const QByteArray &sampleName : family->sampleNames())
        m_takenNames.insert(sampleName);
    QByteArray name = family->name();
    m_families.emplace(std::move(name), std::move(family));
}

QByteArray MetricsRegistry::problemWith(const MetricFamily &family) const
{
    if (!PrometheusFormat::isValidMetricName(family.name()))
        return "invalid metric name";
    const QByteArrayList &labelNames = family.labelNames();
    for (qsizetype i = 0; i < labelNames.size(); ++i) {
        const QByteArray &label = labelNames[i];
        if (!PrometheusFormat::isValidLabelName(label))
            return "invalid label name \"" + label + '"';
        if (labelNames.indexOf(label) != i)
            return "label \"" + label + "\" given twice";
        if (family.type() == MetricFamily::Type::Histogram && label == "le")
            return "label \"le\" is reserved for histogram buckets";
    }
    QByteArrayList names = family.sampleNames();
    names.append(family.name());
    for (const QByteArray &name : std::as_const(names)) {
        if (m_takenNames.contains(name))
            return "\"" + name + "\" is already used by a registered metric";
    }
    return {};
}

} // namespace Presence::Server
