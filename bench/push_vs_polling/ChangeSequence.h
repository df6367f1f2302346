#pragma once

// C++
#include <random>
#include <utility>
#include <vector>

// Qt
#include <QtGlobal>

// Presence
#include "protocol/PresenceStatus.h"

namespace PushPollingBench {

using Presence::Protocol::PresenceStatus;

// The changes: which target, which new status. Seeded: the same sequence in every mode.
class ChangeSequence {
public:
    struct Step {
        int user = 0;
        PresenceStatus status = PresenceStatus::Online;
    };

    ChangeSequence(std::vector<int> targets, int userCount, quint64 seed)
        : m_targets(std::move(targets))
        , m_current(size_t(userCount), PresenceStatus::Offline)
        , m_random(seed ^ 0x5eed'c4a9'0000'0001ULL)
    {
    }

    Step next()
    {
        const int user = m_targets[size_t(m_random() % m_targets.size())];
        PresenceStatus &current = m_current[size_t(user)];
        static constexpr PresenceStatus kAll[]
            = { PresenceStatus::Online, PresenceStatus::Away, PresenceStatus::Offline };
        PresenceStatus others[2];
        int n = 0;
        for (const PresenceStatus status : kAll) {
            if (status != current)
                others[n++] = status;
        }
        current = others[m_random() % 2];
        return { user, current };
    }

private:
    std::vector<int> m_targets;
    std::vector<PresenceStatus> m_current;
    std::mt19937_64 m_random;
};

} // namespace PushPollingBench
