#pragma once

// C++
#include <algorithm>
#include <random>
#include <vector>

// Qt
#include <QStringList>
#include <QtGlobal>

// Presence
#include "bench/DumpedPopulation.h"
#include "bench/SeededShuffle.h"

namespace AvailabilityCostBench {

using Population = BenchSupport::DumpedPopulation;

// Who the clients are and which rows each subscribes to; the same in every run.
struct Plan {
    std::vector<int> clients; // user index of each client
    std::vector<QStringList> rows; // per client, the ids it subscribes to
    int shortLists = 0; // clients with fewer friends than rows

    static Plan make(const Population &population, int clients, int rows, quint64 seed)
    {
        std::mt19937_64 random(seed);
        std::vector<int> order(size_t(population.ids.size()));
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = int(i);
        BenchSupport::seededShuffle(order, random);
        Plan plan;
        plan.clients.assign(
            order.begin(), order.begin() + std::min<qsizetype>(clients, order.size()));
        for (const int user : plan.clients) {
            // Any friend, other clients included: rows on screen are whoever is there.
            std::vector<int> candidates = population.friends[size_t(user)];
            BenchSupport::seededShuffle(candidates, random);
            if (int(candidates.size()) < rows)
                ++plan.shortLists;
            candidates.resize(std::min(candidates.size(), size_t(rows)));
            QStringList ids;
            for (const int other : candidates)
                ids.append(population.ids.at(other));
            plan.rows.push_back(ids);
        }
        return plan;
    }
};

} // namespace AvailabilityCostBench
