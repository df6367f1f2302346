#pragma once

// C++
#include <algorithm>
#include <vector>

// Qt
#include <QHash>

// Presence
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/Plan.h"
#include "protocol/PresenceStatus.h"

namespace PushPollingBench {

using Presence::Protocol::PresenceStatus;

// Every change made and every observation by every watcher: latencies and misses.
class Tracker {
public:
    Tracker(const Plan &plan, int userCount, qint64 firstMeasured, qint64 endMeasured)
        : m_plan(plan)
        , m_changesOfUser(size_t(userCount))
        , m_known(plan.clients.size())
        , m_firstMeasured(firstMeasured)
        , m_endMeasured(endMeasured)
    {
    }

    void changeMade(int user, PresenceStatus status, Clock::time_point at)
    {
        const auto index = qint64(m_changes.size());
        m_changes.push_back(
            { user, status, at, index >= m_firstMeasured && index < m_endMeasured });
        m_changesOfUser[size_t(user)].push_back(int(index));
    }

    // Watcher `client` sees `user` with this status and seq at `at`.
    void observed(int client, int user, PresenceStatus status, qint64 seq, Clock::time_point at)
    {
        ++m_observations;
        qint64 &known = m_known[size_t(client)][user]; // 0: the initial offline, seq 0
        if (seq <= known) {
            ++m_noNews;
            return;
        }
        const std::vector<int> &changes = m_changesOfUser[size_t(user)];
        if (seq > qint64(changes.size())) {
            ++m_unknownSeq; // a seq no change made here explains
            return;
        }
        if (m_changes[size_t(changes[size_t(seq - 1)])].status != status)
            ++m_wrongStatus;
        for (qint64 skipped = known + 1; skipped < seq; ++skipped) {
            if (m_changes[size_t(changes[size_t(skipped - 1)])].measured)
                ++m_missed;
        }
        const Change &change = m_changes[size_t(changes[size_t(seq - 1)])];
        if (change.measured)
            m_latencyMs.push_back(msBetween(change.at, at));
        known = seq;
    }

    [[nodiscard]] qint64 changes() const { return qint64(m_changes.size()); }
    [[nodiscard]] qint64 measuredChanges() const
    {
        return std::count_if(m_changes.cbegin(), m_changes.cend(),
            [](const Change &change) { return change.measured; });
    }
    // (change, watcher) pairs of the measured changes.
    [[nodiscard]] qint64 expectedPairs() const
    {
        qint64 pairs = 0;
        for (const Change &change : m_changes)
            pairs += change.measured ? m_plan.watchers[size_t(change.user)] : 0;
        return pairs;
    }
    [[nodiscard]] std::vector<double> sortedLatencyMs() const
    {
        std::vector<double> sorted = m_latencyMs;
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }
    [[nodiscard]] qint64 missed() const { return m_missed; }
    [[nodiscard]] qint64 wrongStatus() const { return m_wrongStatus; }
    [[nodiscard]] qint64 unknownSeq() const { return m_unknownSeq; }
    [[nodiscard]] qint64 observations() const { return m_observations; }
    [[nodiscard]] qint64 noNews() const { return m_noNews; }

private:
    struct Change {
        int user;
        PresenceStatus status;
        Clock::time_point at;
        bool measured;
    };

    const Plan &m_plan;
    std::vector<Change> m_changes;
    std::vector<std::vector<int>> m_changesOfUser; // change indices, by seq - 1
    std::vector<QHash<int, qint64>> m_known; // per client: user -> seq known
    qint64 m_firstMeasured;
    qint64 m_endMeasured;
    std::vector<double> m_latencyMs;
    qint64 m_missed = 0;
    qint64 m_wrongStatus = 0;
    qint64 m_unknownSeq = 0;
    qint64 m_observations = 0;
    qint64 m_noNews = 0;
};

} // namespace PushPollingBench
