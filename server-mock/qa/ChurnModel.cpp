#include "server-mock/qa/ChurnModel.h"

// C++
#include <cmath>
#include <numbers>
#include <utility>

// Qt
#include <QSet>

using namespace Qt::StringLiterals;

// The maths of the rate.
//
// Each user is a semi-Markov process over four phases: Offline -> Online (or, now and then,
// Invisible); Online -> Away (idle) or Offline (leaves); Away -> Online (back) or Offline;
// Invisible -> Offline. Every phase ends in exactly one change, and lasts a log-normal time
// whose mean is median * e^(sigma^2 / 2).
//
// Counting one cycle as an offline period plus the session after it, the expected visits
// to each phase are v_off = 1, v_inv = p, v_on = (1 - p) / (1 - q * r), v_away = q * v_on
// (p = kInvisibleChance, q = kAwayChance, r = kBackChance). By the renewal-reward theorem
// one user makes sum(v) changes per sum(v * mean) of time, so the mean gap between two
// changes of one user is M = sum(v * mean) / sum(v), and n users make n / M changes per
// unit of time. Multiplying every phase length by one factor keeps the shape (the share
// of users online or away, the spread of sessions) and divides the rate by that factor:
// the medians below are scaled so that M = n / RATE.
//
// With the medians below, M is about 28 realistic minutes (4.7 changes per 2 h 10 min
// cycle), sessions last 30 minutes on average and about a quarter of the users are
// connected at any moment.
//
// The start is stationary, so the rate holds from t = 0 with no warm-up: a user starts in
// a phase with the share of time spent in it, v * mean / sum(v * mean), with U * H of it
// left, U uniform on [0, 1) and H a length-biased phase length (a long phase is more
// likely to be the one in progress). For a log-normal, length-biased means mu + sigma^2.

namespace Presence::Server {

namespace {

struct PhaseShape {
    double medianMinutes; // before scaling to the rate
    double sigma;
};

// Indexed by ChurnModel::Phase: Offline, Online, Away, Invisible.
constexpr std::array<PhaseShape, 4> kShapes { {
    { 60, 1.0 }, // between sessions
    { 6, 1.0 }, // online until idle or leaving
    { 4, 0.9 }, // away until back or leaving
    { 15, 1.0 }, // a whole invisible session
} };

constexpr double kInvisibleChance = 0.05; // a session is invisible throughout
constexpr double kAwayChance = 0.7; // an online stretch ends by going idle, not leaving
constexpr double kBackChance = 0.8; // an away stretch ends by coming back, not leaving

double meanMinutes(const PhaseShape &shape)
{
    return shape.medianMinutes * std::exp(shape.sigma * shape.sigma / 2);
}

// Expected visits to each phase per cycle (see the maths above).
std::array<double, 4> visitsPerCycle()
{
    const double online = (1 - kInvisibleChance) / (1 - kAwayChance * kBackChance);
    return { 1, online, kAwayChance * online, kInvisibleChance };
}

QString checkUsers(const QStringList &userIds)
{
    if (userIds.isEmpty())
        return u"the churn needs at least one simulated user"_s;
    QSet<QString> seen;
    seen.reserve(userIds.size());
    for (const QString &id : userIds) {
        if (id.isEmpty())
            return u"a simulated user has an empty id"_s;
        if (seen.contains(id))
            return u"simulated user \"%1\" appears twice"_s.arg(id);
        seen.insert(id);
    }
    return {};
}

qint64 wholeMs(double ms)
{
    return qint64(std::floor(ms));
}

} // namespace

QString ChurnModel::checkRate(double changesPerSecond)
{
    // Written so that NaN fails too.
    if (changesPerSecond >= kMinRate && changesPerSecond <= kMaxRate)
        return {};
    return u"the churn rate must be from %1 to %2 changes per second (got %3)"_s.arg(kMinRate)
        .arg(kMaxRate, 0, 'f', 0)
        .arg(changesPerSecond);
}

std::optional<ChurnModel> ChurnModel::create(
    const QStringList &userIds, double changesPerSecond, quint64 seed, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    *error = checkRate(changesPerSecond);
    if (error->isEmpty())
        *error = checkUsers(userIds);
    if (!error->isEmpty())
        return std::nullopt;
    return ChurnModel(userIds, changesPerSecond, seed);
}

ChurnModel::ChurnModel(const QStringList &userIds, double changesPerSecond, quint64 seed)
    : m_userIds(userIds)
    , m_initial(size_t(userIds.size()))
    , m_random(seed)
{
    const std::array<double, 4> visits = visitsPerCycle();
    std::array<double, kPhaseCount> timeShare {};
    double changesPerCycle = 0;
    double minutesPerCycle = 0;
    for (int i = 0; i < kPhaseCount; ++i) {
        timeShare[i] = visits[i] * meanMinutes(kShapes[i]);
        changesPerCycle += visits[i];
        minutesPerCycle += timeShare[i];
    }
    const double meanGapMs = 1000.0 * double(userIds.size()) / changesPerSecond;
    const double msPerMinute = meanGapMs / (minutesPerCycle / changesPerCycle);
    for (int i = 0; i < kPhaseCount; ++i)
        m_logMedianMs[i] = std::log(kShapes[i].medianMinutes * msPerMinute);

    std::vector<Due> due;
    due.reserve(m_initial.size());
    for (int user = 0; user < int(m_initial.size()); ++user) {
        double pick = uniform() * minutesPerCycle;
        int phase = 0;
        while (phase < kPhaseCount - 1 && pick >= timeShare[phase])
            pick -= timeShare[phase++];
        const double sigma = kShapes[phase].sigma;
        // One draw per statement: the order of calls within an expression is unspecified.
        const double z = normal();
        const double lengthBiased = std::exp(m_logMedianMs[phase] + sigma * sigma + sigma * z);
        const double left = uniform() * lengthBiased;
        m_initial[user] = Phase(phase);
        due.push_back({ left, user });
    }
    m_phase = m_initial;
    m_queue = decltype(m_queue)(Later {}, std::move(due));
}

QList<ChurnEvent> ChurnModel::initial() const
{
    QList<ChurnEvent> events;
    for (size_t user = 0; user < m_initial.size(); ++user) {
        if (m_initial[user] != Phase::Offline)
            events.append({ 0, m_userIds.at(qsizetype(user)), statusOf(m_initial[user]) });
    }
    return events;
}

qint64 ChurnModel::nextAtMs() const
{
    return wholeMs(m_queue.top().atMs);
}

ChurnEvent ChurnModel::next()
{
    const Due due = m_queue.top();
    m_queue.pop();
    const Phase phase = following(m_phase[size_t(due.user)]);
    m_phase[size_t(due.user)] = phase;
    // Lengths are positive, so the queue never hands out an earlier time than this one.
    m_queue.push({ due.atMs + phaseLength(phase), due.user });
    return { wholeMs(due.atMs), m_userIds.at(due.user), statusOf(phase) };
}

// std:: distributions differ between standard libraries; mt19937_64's output does not, so
// the transforms are written here to keep a seed's events the same everywhere.
double ChurnModel::uniform()
{
    return double(m_random() >> 11) * 0x1.0p-53; // [0, 1) with 53 random bits
}

double ChurnModel::normal()
{
    // Box-Muller; 1 - uniform() is in (0, 1], where the logarithm is finite.
    const double radius = std::sqrt(-2 * std::log(1 - uniform()));
    const double angle = 2 * std::numbers::pi * uniform();
    return radius * std::cos(angle);
}

double ChurnModel::phaseLength(Phase phase)
{
    const int index = int(phase);
    return std::exp(m_logMedianMs[index] + kShapes[index].sigma * normal());
}

ChurnModel::Phase ChurnModel::following(Phase phase)
{
    switch (phase) {
    case Phase::Offline:
        return uniform() < kInvisibleChance ? Phase::Invisible : Phase::Online;
    case Phase::Online:
        return uniform() < kAwayChance ? Phase::Away : Phase::Offline;
    case Phase::Away:
        return uniform() < kBackChance ? Phase::Online : Phase::Offline;
    case Phase::Invisible:
        return Phase::Offline;
    }
    return Phase::Offline;
}

std::optional<Protocol::ChosenStatus> ChurnModel::statusOf(Phase phase)
{
    switch (phase) {
    case Phase::Online:
        return Protocol::ChosenStatus::Online;
    case Phase::Away:
        return Protocol::ChosenStatus::Away;
    case Phase::Invisible:
        return Protocol::ChosenStatus::Invisible;
    case Phase::Offline:
        break;
    }
    return std::nullopt;
}

} // namespace Presence::Server
