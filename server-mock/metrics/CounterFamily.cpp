#include "server-mock/metrics/CounterFamily.h"

// C++
#include <utility>

namespace Presence::Server {

CounterFamily::CounterFamily(QByteArray name, QByteArray help, QByteArrayList labelNames)
    : MetricFamily(std::move(name), std::move(help), Type::Counter, std::move(labelNames))
{
    if (this->labelNames().isEmpty())
        m_series.try_emplace(QStringList {});
}

Counter &CounterFamily::series(const QStringList &labelValues)
{
    if (!fits(labelValues))
        return m_unexported;
    return m_series.try_emplace(labelValues).first->second;
}

void CounterFamily::renderSamples(QByteArray &out) const
{
    for (const auto &[labelValues, counter] : m_series)
        appendSample(out, name(), labelValues, QByteArray::number(counter.value()));
}

} // namespace Presence::Server
