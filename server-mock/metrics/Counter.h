#pragma once

// Qt
#include <QtGlobal>

namespace Presence::Server {

// One counter series: a count that only goes up. Not atomic: the gateway counts on its own
// thread, and a plain increment is what keeps per-frame counting free. Keep the reference
// CounterFamily::series() gives and increment through it; never look the series up per event.
class Counter {
public:
    Counter() = default;
    Counter(const Counter &) = delete;
    Counter &operator=(const Counter &) = delete;

    void increment() { ++m_value; }
    void add(quint64 amount) { m_value += amount; }
    [[nodiscard]] quint64 value() const { return m_value; }

private:
    quint64 m_value = 0;
};

} // namespace Presence::Server
