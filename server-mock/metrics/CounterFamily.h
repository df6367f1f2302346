#pragma once

// C++
#include <map>

// Presence
#include "server-mock/metrics/Counter.h"
#include "server-mock/metrics/MetricFamily.h"

namespace Presence::Server {

// Counters sharing a name, one series per combination of label values, e.g.
// presence_frames_in_total{type="subscribe"}. A family without labels has its one series
// from the start, so it is exported as 0 before the first increment.
class CounterFamily : public MetricFamily {
public:
    CounterFamily(QByteArray name, QByteArray help, QByteArrayList labelNames);

    // The series for labelValues (one per label name, in order), made at 0 on first use.
    // The reference stays valid as long as the family does: look it up once, keep it.
    [[nodiscard]] Counter &series(const QStringList &labelValues = {});

private:
    void renderSamples(QByteArray &out) const override;

    std::map<QStringList, Counter> m_series; // a map: stable references, sorted output
    Counter m_unexported; // counts for callers that gave the wrong number of label values
};

} // namespace Presence::Server
