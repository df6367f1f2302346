#pragma once

// C++
#include <chrono>
#include <vector>

// Qt
#include <QList>

namespace Presence::Server {

// One histogram series: how many observations fell at or below each fixed upper bound, plus
// their count and sum. observe() touches one bucket; the cumulative counts the text format
// wants are added up when rendering, which is rare.
class Histogram {
public:
    // For latencies in seconds: 0.5 ms to 5 s in 1-2.5-5 steps. Slower lands in +Inf.
    [[nodiscard]] static QList<double> defaultLatencyBounds();
    // Finite and strictly increasing (+Inf is implied, never listed).
    [[nodiscard]] static bool areValidBounds(const QList<double> &upperBounds);

    // upperBounds must be valid (HistogramFamily checks them through MetricsRegistry).
    explicit Histogram(QList<double> upperBounds);
    Histogram(const Histogram &) = delete;
    Histogram &operator=(const Histogram &) = delete;

    // A NaN is dropped: it would turn the sum into NaN for good.
    void observe(double value);
    void observe(std::chrono::duration<double> elapsed) { observe(elapsed.count()); }

    [[nodiscard]] const QList<double> &upperBounds() const { return m_upperBounds; }
    // Element i counts the observations <= upperBounds()[i]; the last one, +Inf, is count().
    [[nodiscard]] std::vector<quint64> cumulativeCounts() const;
    [[nodiscard]] quint64 count() const { return m_count; }
    [[nodiscard]] double sum() const { return m_sum; }

private:
    QList<double> m_upperBounds;
    std::vector<quint64> m_bucketCounts; // not cumulative; one more than bounds, for +Inf
    quint64 m_count = 0;
    double m_sum = 0;
};

} // namespace Presence::Server
