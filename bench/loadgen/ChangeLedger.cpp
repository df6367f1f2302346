#include "bench/loadgen/ChangeLedger.h"

namespace LoadGen {

ChangeLedger::ChangeLedger(int users)
    : m_records(std::make_unique<Record[]>(size_t(users)))
    , m_users(users)
{
}

std::uint64_t ChangeLedger::subscriptions() const
{
    std::uint64_t total = 0;
    for (int user = 0; user < m_users; ++user)
        total += m_records[size_t(user)].watchers.load();
    return total;
}

bool ChangeLedger::canChange(int user) const
{
    const Record &record = m_records[size_t(user)];
    return record.stamp.load(std::memory_order_relaxed) == 0
        || record.received.load(std::memory_order_relaxed) >= record.expected;
}

void ChangeLedger::recordChange(int user, Status status, std::int64_t sentMicros)
{
    Record &record = m_records[size_t(user)];
    const std::uint32_t before = record.received.exchange(0);
    if (record.stamp.load(std::memory_order_relaxed) != 0 && before > record.expected)
        record.duplicates += before - record.expected;
    record.expected = record.watchers.load();
    m_changes.fetch_add(1, std::memory_order_relaxed);
    m_expected.fetch_add(record.expected, std::memory_order_relaxed);
    // Published last: a watcher that sees the new stamp counts towards the new change.
    record.stamp.store(
        (std::uint64_t(sentMicros + 1) << 2) | std::uint64_t(status), std::memory_order_release);
}

std::optional<std::int64_t> ChangeLedger::recordPush(
    int user, Status status, std::int64_t nowMicros)
{
    Record &record = m_records[size_t(user)];
    const std::uint64_t stamp = record.stamp.load(std::memory_order_acquire);
    if (stamp == 0 || (stamp & 3) != std::uint64_t(status)) {
        m_unmatched.fetch_add(1, std::memory_order_relaxed);
        return std::nullopt;
    }
    record.received.fetch_add(1, std::memory_order_relaxed);
    m_received.fetch_add(1, std::memory_order_relaxed);
    return nowMicros - (std::int64_t(stamp >> 2) - 1);
}

std::uint64_t ChangeLedger::lost() const
{
    std::uint64_t total = 0;
    for (int user = 0; user < m_users; ++user) {
        const Record &record = m_records[size_t(user)];
        const std::uint32_t received = record.received.load();
        if (record.stamp.load() != 0 && received < record.expected)
            total += record.expected - received;
    }
    return total;
}

std::uint64_t ChangeLedger::duplicates() const
{
    std::uint64_t total = 0;
    for (int user = 0; user < m_users; ++user) {
        const Record &record = m_records[size_t(user)];
        const std::uint32_t received = record.received.load();
        total += record.duplicates;
        if (record.stamp.load() != 0 && received > record.expected)
            total += received - record.expected;
    }
    return total;
}

} // namespace LoadGen
