#pragma once

// C++
#include <array>
#include <optional>
#include <queue>
#include <random>
#include <vector>

// Qt
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

// Presence
#include "protocol/PresenceStatus.h"

namespace Presence::Server {

// One presence change of a simulated user, atMs after the start of the churn. No status
// means the user's simulated device leaves (the user goes offline).
struct ChurnEvent {
    qint64 atMs = 0;
    QString userId;
    std::optional<Protocol::ChosenStatus> status;

    friend bool operator==(const ChurnEvent &, const ChurnEvent &) = default;
};

// Decides what simulated users do and when, for `--churn RATE --seed N`: each user
// alternates offline periods and sessions; a session starts online (now and then
// invisible), may go away and come back a few times, and ends offline. Phase lengths are
// log-normal, scaled so that the whole population makes about RATE changes per second.
// Pure logic: the caller owns the clock and applies the events. The same users, rate and
// seed give the same events.
class ChurnModel {
public:
    static constexpr double kMinRate = 0.001;
    static constexpr double kMaxRate = 1'000'000;

    // Empty when `changesPerSecond` is usable, else a message for the command line.
    [[nodiscard]] static QString checkRate(double changesPerSecond);
    // The model, or nullopt with *error set: no users, an empty or repeated id, or a rate
    // checkRate() refuses.
    [[nodiscard]] static std::optional<ChurnModel> create(
        const QStringList &userIds, double changesPerSecond, quint64 seed, QString *error);

    // The state at t = 0, to apply before any next(): one event at atMs 0 for every user
    // who starts connected (online, away or invisible), in user order; users not listed
    // start offline. About a quarter of the users start connected.
    [[nodiscard]] QList<ChurnEvent> initial() const;
    // When the event next() returns will happen (for scheduling a timer).
    [[nodiscard]] qint64 nextAtMs() const;
    // The next change, in time order (atMs never decreases). Every event changes its
    // user's state as left by initial() and the events before it. Never runs out.
    ChurnEvent next();

private:
    enum class Phase : quint8 { Offline, Online, Away, Invisible };
    static constexpr int kPhaseCount = 4;
    struct Due {
        double atMs;
        int user;
    };
    // Orders the queue so that its top is the earliest event (ties by user, so the order
    // does not depend on the standard library's heap).
    struct Later {
        bool operator()(const Due &a, const Due &b) const
        {
            return a.atMs > b.atMs || (a.atMs == b.atMs && a.user > b.user);
        }
    };

    ChurnModel(const QStringList &userIds, double changesPerSecond, quint64 seed);

    [[nodiscard]] double uniform();
    [[nodiscard]] double normal();
    [[nodiscard]] double phaseLength(Phase phase);
    [[nodiscard]] Phase following(Phase phase);
    [[nodiscard]] static std::optional<Protocol::ChosenStatus> statusOf(Phase phase);

    QStringList m_userIds;
    std::vector<Phase> m_initial;
    std::vector<Phase> m_phase;
    std::array<double, kPhaseCount> m_logMedianMs {}; // scaled to the rate
    std::mt19937_64 m_random;
    std::priority_queue<Due, std::vector<Due>, Later> m_queue;
};

} // namespace Presence::Server
