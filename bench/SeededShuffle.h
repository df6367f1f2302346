#pragma once

// C++
#include <random>
#include <utility>
#include <vector>

// Qt
#include <QtGlobal>

namespace BenchSupport {

// Fisher-Yates with the benchmark's own seeded generator, not std::shuffle: the standard
// leaves std::shuffle's use of the generator open, and a benchmark's picks must be the same
// on every machine and in every run.
inline void seededShuffle(std::vector<int> &values, std::mt19937_64 &random)
{
    for (size_t i = values.size(); i > 1; --i)
        std::swap(values[i - 1], values[size_t(random() % quint64(i))]);
}

} // namespace BenchSupport
