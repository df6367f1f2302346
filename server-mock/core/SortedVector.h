#pragma once

// C++
#include <algorithm>
#include <vector>

namespace Presence::Server {

// Sorted vectors of numbers, the gateway's compact sets (subscriptions, watchers, coverers).
//
// They are many (one or two per connection and per watched user) and hold tens to thousands
// of values, so their spare room is a real share of the gateway's memory: grown by doubling
// they leave a quarter unused on average, about 5 bytes a subscription. They grow by an eighth
// instead, and give room back once they are less than half full. An insert moves the values
// after it anyway, so growing more often costs little.

// Room for one more value, grown by an eighth (and 4) when full.
template <typename T> void reserveOneMore(std::vector<T> &values)
{
    if (values.size() == values.capacity())
        values.reserve(values.size() + values.size() / 8 + 4);
}

// Inserts value into the ascending vector; false when it was there.
template <typename T> bool insertSorted(std::vector<T> &values, T value)
{
    if (values.empty() || values.back() < value) {
        reserveOneMore(values);
        values.push_back(value); // the common case: connections are numbered upwards
        return true;
    }
    auto at = std::lower_bound(values.begin(), values.end(), value);
    if (at != values.end() && *at == value)
        return false;
    if (values.size() == values.capacity()) {
        const auto offset = at - values.begin();
        reserveOneMore(values);
        at = values.begin() + offset;
    }
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
    // Halving before shrinking keeps the cost of a shrink spread over the erases before it.
    if (values.size() < values.capacity() / 2 && (values.empty() || values.capacity() > 8))
        values.shrink_to_fit();
    return true;
}

} // namespace Presence::Server
