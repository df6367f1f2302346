#include "server-mock/metrics/Histogram.h"

// C++
#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace Presence::Server {

QList<double> Histogram::defaultLatencyBounds()
{
    return { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5 };
}

bool Histogram::areValidBounds(const QList<double> &upperBounds)
{
    for (qsizetype i = 0; i < upperBounds.size(); ++i) {
        if (!std::isfinite(upperBounds[i]))
            return false;
        if (i > 0 && !(upperBounds[i - 1] < upperBounds[i]))
            return false;
    }
    return true;
}

Histogram::Histogram(QList<double> upperBounds)
    : m_upperBounds(std::move(upperBounds))
    , m_bucketCounts(std::size_t(m_upperBounds.size()) + 1, 0)
{
}

void Histogram::observe(double value)
{
    if (std::isnan(value))
        return;
    // The first bound >= value: buckets count observations less than or equal to their bound.
    const auto bound = std::lower_bound(m_upperBounds.cbegin(), m_upperBounds.cend(), value);
    ++m_bucketCounts[std::size_t(bound - m_upperBounds.cbegin())];
    ++m_count;
    m_sum += value;
}

std::vector<quint64> Histogram::cumulativeCounts() const
{
    std::vector<quint64> counts(m_bucketCounts.size());
    std::partial_sum(m_bucketCounts.cbegin(), m_bucketCounts.cend(), counts.begin());
    return counts;
}

} // namespace Presence::Server
