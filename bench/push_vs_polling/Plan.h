#pragma once

// C++
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

// Qt
#include <QtGlobal>

// Presence
#include "bench/DumpedPopulation.h"
#include "bench/SeededShuffle.h"

namespace PushPollingBench {

using Population = BenchSupport::DumpedPopulation;

// Who the clients are and whom each watches; the same for every mode.
struct Plan {
    std::vector<int> clients; // user index of each client
    std::vector<std::vector<int>> watched; // per client, user indices
    std::vector<int> targets; // users watched by at least one client
    std::vector<int> watchers; // per user: how many clients watch them
    int shortLists = 0; // clients with fewer than W friends who are not clients

    static Plan make(const Population &population, int clients, int watch, quint64 seed)
    {
        std::mt19937_64 random(seed);
        const int userCount = int(population.ids.size());
        std::vector<int> order(static_cast<size_t>(userCount));
        for (int i = 0; i < userCount; ++i)
            order[size_t(i)] = i;
        BenchSupport::seededShuffle(order, random);
        Plan plan;
        plan.clients.assign(order.begin(), order.begin() + std::min(clients, userCount));
        std::vector<bool> isClient(size_t(userCount), false);
        for (const int user : plan.clients)
            isClient[size_t(user)] = true;
        plan.watchers.assign(size_t(userCount), 0);
        for (const int user : plan.clients) {
            std::vector<int> candidates;
            for (const int other : population.friends[size_t(user)]) {
                if (!isClient[size_t(other)])
                    candidates.push_back(other);
            }
            BenchSupport::seededShuffle(candidates, random);
            if (int(candidates.size()) < watch)
                ++plan.shortLists;
            candidates.resize(std::min(candidates.size(), size_t(watch)));
            for (const int other : candidates)
                ++plan.watchers[size_t(other)];
            plan.watched.push_back(std::move(candidates));
        }
        for (int user = 0; user < userCount; ++user) {
            if (plan.watchers[size_t(user)] > 0)
                plan.targets.push_back(user);
        }
        return plan;
    }
};

} // namespace PushPollingBench
