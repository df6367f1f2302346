#pragma once

// The one clock of the benchmark, and what it measures with it.

// C++
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

// Qt
#include <QtGlobal>

namespace PushPollingBench {

using Clock = std::chrono::steady_clock;

inline double msBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// The nearest-rank percentile of sorted values.
inline double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto rank = qsizetype(std::ceil(p * double(sorted.size())));
    return sorted[size_t(std::clamp<qsizetype>(rank - 1, 0, qsizetype(sorted.size()) - 1))];
}

} // namespace PushPollingBench
