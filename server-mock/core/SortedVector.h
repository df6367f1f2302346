#pragma once

// C++
#include <algorithm>
#include <vector>

namespace Presence::Server {

// Sorted vectors of numbers, the gateway's compact sets (subscriptions, watchers, coverers).

// Inserts value into the ascending vector; false when it was there.
template <typename T> bool insertSorted(std::vector<T> &values, T value)
{
    if (values.empty() || values.back() < value) {
        values.push_back(value); // the common case: connections are numbered upwards
        return true;
    }
    const auto at = std::lower_bound(values.begin(), values.end(), value);
    if (at != values.end() && *at == value)
        return false;
    values.insert(at, value);
    return true;
}

// Erases value from the ascending vector; false when it was not there.
template <typename T> bool eraseSorted(std::vector<T> &values, T value)
{
    const auto at = std::lower_bound(values.begin(), values.end(), value);
    if (at == values.end() || *at != value)
        return false;
    values.erase(at);
    return true;
}

} // namespace Presence::Server
