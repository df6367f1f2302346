#include "server-mock/directory/PopulationGenerator.h"

// C++
#include <algorithm>
#include <array>
#include <numeric>

// Qt
#include <QList>

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// SplitMix64: tiny, fast and the same on every platform (std:: distributions are not).
class SplitMix64 {
public:
    explicit SplitMix64(quint64 seed)
        : m_state(seed)
    {
    }
    quint64 next()
    {
        quint64 z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    quint64 below(quint64 bound) { return next() % bound; }

private:
    quint64 m_state;
};

constexpr std::array kFirstNames = {
    u"Ada",
    u"Ben",
    u"Chloé",
    u"Dmitri",
    u"Elena",
    u"Farid",
    u"Grace",
    u"Hiro",
    u"Ines",
    u"Jonas",
    u"Keiko",
    u"Liam",
    u"Maya",
    u"Nikolai",
    u"Olu",
    u"Priya",
    u"Quentin",
    u"Rosa",
    u"Sven",
    u"Tara",
    u"Umar",
    u"Vera",
    u"Wen",
    u"Ximena",
    u"Yusuf",
    u"Zoë",
};
constexpr std::array kLastNames = {
    u"Abara",
    u"Becker",
    u"Costa",
    u"Dubois",
    u"Eriksen",
    u"Fujita",
    u"García",
    u"Haddad",
    u"Ivanova",
    u"Jensen",
    u"Kowalski",
    u"Lindqvist",
    u"Moreau",
    u"Nakamura",
    u"Okafor",
    u"Petrov",
    u"Quispe",
    u"Rossi",
    u"Santos",
    u"Tanaka",
    u"Ueda",
    u"Varga",
    u"Weber",
    u"Xu",
    u"Yilmaz",
    u"Zhang",
};

} // namespace

UserDirectory PopulationGenerator::generate(int userCount, int friendsPerUser, quint64 seed)
{
    userCount = std::clamp(userCount, 0, kMaxUsers);
    friendsPerUser = std::clamp(friendsPerUser, 0, std::max(0, userCount - 1));

    SplitMix64 random(seed);
    UserDirectory directory;
    for (int i = 0; i < userCount; ++i) {
        const auto first = QString::fromUtf16(kFirstNames[random.below(kFirstNames.size())]);
        const auto last = QString::fromUtf16(kLastNames[random.below(kLastNames.size())]);
        const QString token = u"qa-%1"_s.arg(random.next(), 16, 16, QLatin1Char('0'));
        directory.addUser(u"user%1"_s.arg(i), first + u' ' + last, token);
    }

    // A circulant graph over a shuffled order: everyone gets the same number of friends,
    // and who they are looks random while staying reproducible.
    QList<int> order(userCount);
    std::iota(order.begin(), order.end(), 0);
    for (int i = userCount - 1; i > 0; --i)
        std::swap(order[i], order[int(random.below(quint64(i) + 1))]);
    const int half = friendsPerUser / 2;
    for (int position = 0; position < userCount; ++position) {
        for (int step = 1; step <= half; ++step)
            directory.addFriendship(order[position], order[(position + step) % userCount]);
    }
    // An odd count: also pair each user with the one opposite, when the ring has an opposite.
    if (friendsPerUser % 2 == 1 && userCount % 2 == 0) {
        for (int position = 0; position < userCount / 2; ++position)
            directory.addFriendship(order[position], order[position + userCount / 2]);
    }
    directory.finish();
    return directory;
}

} // namespace Presence::Server
