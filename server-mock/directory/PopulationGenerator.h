#pragma once

// Qt
#include <QtGlobal>

// Presence
#include "server-mock/directory/UserDirectory.h"

namespace Presence::Server {

// Makes a reproducible population for QA and demos: ids user0..user{N-1}, names drawn
// from fixed lists, tokens derived from the seed, and exactly `friendsPerUser` mutual
// friends each (one fewer when N and the count are both odd: the handshake lemma).
class PopulationGenerator {
public:
    static constexpr int kMaxUsers = 1'000'000;
    static constexpr int kMaxFriendsPerUser = 100'000;

    [[nodiscard]] static UserDirectory generate(int userCount, int friendsPerUser, quint64 seed);
};

} // namespace Presence::Server
