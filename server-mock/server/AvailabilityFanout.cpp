#include "server-mock/server/AvailabilityFanout.h"

// C++
#include <algorithm>
#include <utility>

// Presence
#include "server-mock/core/SortedVector.h"
#include "server-mock/directory/UserDirectory.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Protocol::Availability;
using Protocol::AvailabilityChanged;
using Protocol::PresenceBatch;
using Protocol::PresenceStatus;
using Protocol::UserPresence;

namespace {

constexpr quint8 kToldMask = 0x7f;
constexpr quint8 kDirty = 0x80;
// Phases of a batch window: each flushes a sixteenth of its connections.
constexpr int kBatchPhases = 16;
// The most a loop that is behind spaces a phase's turns out by, in windows.
constexpr qint64 kMaxStretchWindows = 20;

qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

quint8 toldByte(PresenceStatus status)
{
    return quint8(status);
}

PresenceStatus toldStatus(quint8 state)
{
    return PresenceStatus(state & kToldMask);
}

} // namespace

AvailabilityFanout::AvailabilityFanout(const UserDirectory &directory,
    std::chrono::milliseconds interval, Deliver deliver, QObject *parent)
    : QObject(parent)
    , m_directory(directory)
    , m_interval(interval)
    , m_deliver(std::move(deliver))
{
    m_unbatched.timer.setInterval(m_interval);
    m_unbatched.timer.setSingleShot(true);
    m_unbatched.timer.setTimerType(Qt::PreciseTimer);
    connect(&m_unbatched.timer, &QTimer::timeout, this, [this] { flushPending(m_unbatched); });
}

const QString &AvailabilityFanout::idOf(UserIndex user) const
{
    return m_directory.user(int(user)).id;
}

std::chrono::milliseconds AvailabilityFanout::windowOf(const Watcher &watcher)
{
    return std::max(watcher.batchWindow, std::chrono::milliseconds(0));
}

AvailabilityFanout::Pending &AvailabilityFanout::pendingFor(
    ConnectionId connection, std::chrono::milliseconds batchWindow)
{
    if (batchWindow.count() <= 0)
        return m_unbatched;
    const int phase = int(connection % kBatchPhases);
    std::unique_ptr<Pending> &pending = m_batched[{ batchWindow, phase }];
    if (!pending) {
        pending = std::make_unique<Pending>();
        pending->window = batchWindow;
        pending->phase = phase;
        pending->timer.setSingleShot(true);
        pending->timer.setTimerType(Qt::PreciseTimer);
        Pending *raw = pending.get();
        connect(&raw->timer, &QTimer::timeout, this, [this, raw] { flushPending(*raw); });
    }
    return *pending;
}

qint64 AvailabilityFanout::nextTurnMs(
    qint64 now, qint64 window, int phase, qint64 lastFlush, qint64 stretch)
{
    // The phase's turns are fixed points of the steady clock, one window apart, so a change
    // waits at most about one window; and never sooner than a window after the last flush (a
    // late one), so a connection hears at most once per window.
    const qint64 offset = window * phase / kBatchPhases;
    const auto firstPointFrom = [&](qint64 t) { // the phase's first fixed point at or after t
        return offset + window * ((t - offset + window - 1) / window);
    };
    const qint64 turn = firstPointFrom(now + 1);
    if (stretch == 0)
        return std::max(turn, lastFlush + window);
    // The loop is behind: the phase waits that much longer, and its turn goes back to one of
    // its own points. One long iteration runs every phase whose turn it passed; without that
    // they would stay in step from then on, all leaving at once and making every iteration
    // long, with the changes waiting unread behind them.
    return std::max(turn, firstPointFrom(lastFlush + window + stretch));
}

qint64 AvailabilityFanout::stretchAfterTurnMs(qint64 stretch, qint64 late, qint64 window)
{
    // Turn after late turn adds up, until the loop keeps up again (a gateway past saturation
    // otherwise never catches up); a turn on time, or nearly, ends it at once, so that one slow
    // iteration costs a normal load one later batch, no more.
    if (late <= window / 4)
        return 0;
    return std::min(stretch + late, kMaxStretchWindows * window);
}

void AvailabilityFanout::armForNextTurn(Pending &pending)
{
    const qint64 now = steadyMs();
    pending.dueMs = nextTurnMs(
        now, pending.window.count(), pending.phase, pending.lastFlushMs, pending.stretchMs);
    pending.timer.start(std::chrono::milliseconds(pending.dueMs - now));
}

void AvailabilityFanout::forgetPending(Watcher &watcher)
{
    // Its entry in the pending list stays and is skipped at the flush: erasing it would cost
    // a walk of the list per departure, which a storm of departures cannot afford.
    watcher.pending = false;
}

void AvailabilityFanout::watch(ConnectionId connection, std::vector<UserIndex> covered,
    int totalFriends, std::chrono::milliseconds batchWindow)
{
    unwatch(connection);
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    Watcher &watcher = m_watchers[connection];
    watcher.state.assign(covered.size(), toldByte(PresenceStatus::Offline));
    watcher.covered = std::move(covered);
    watcher.totalFriends = totalFriends;
    watcher.batchWindow = batchWindow;
    for (const UserIndex user : watcher.covered) {
        std::vector<ConnectionId> &coverers = m_covered[user].coverers;
        insertSorted(coverers, connection);
        if (coverers.size() == 1)
            Q_EMIT userCovered(idOf(user));
    }
}

void AvailabilityFanout::unwatch(ConnectionId connection)
{
    const auto it = m_watchers.find(connection);
    if (it == m_watchers.end())
        return;
    const std::vector<UserIndex> covered = std::move(it->covered);
    m_watchers.erase(it);
    for (const UserIndex user : covered) {
        const auto held = m_covered.find(user);
        if (held == m_covered.end())
            continue;
        std::vector<ConnectionId> &coverers = held->coverers;
        eraseSorted(coverers, connection);
        if (coverers.empty()) {
            m_covered.erase(held);
            Q_EMIT userUncovered(idOf(user));
        }
    }
}

Availability AvailabilityFanout::snapshotRead(
    ConnectionId connection, const QList<UserPresence> &users)
{
    for (const UserPresence &user : users) {
        const std::optional<int> index = m_directory.indexOfId(user.id);
        const auto held = index ? m_covered.find(UserIndex(*index)) : m_covered.end();
        if (held == m_covered.end())
            continue;
        // A push that overtook the read is newer than what was read.
        if (!held->latest || held->latest->seq <= user.seq)
            setLatest(*held, user);
    }
    const auto it = m_watchers.find(connection);
    if (it == m_watchers.end())
        return {};
    return tell(*it);
}

void AvailabilityFanout::resetFrom(const QList<UserPresence> &users)
{
    for (Covered &covered : m_covered)
        covered.latest.reset();
    for (const UserPresence &user : users) {
        const std::optional<int> index = m_directory.indexOfId(user.id);
        if (const auto held = index ? m_covered.find(UserIndex(*index)) : m_covered.end();
            held != m_covered.end())
            setLatest(*held, user);
    }
    QList<Outgoing> out;
    for (auto it = m_watchers.begin(); it != m_watchers.end(); ++it) {
        if (!it->ready)
            continue; // its own snapshot is on the way
        out.append({ it.key(), u"availability"_s, Protocol::serializeFrame(toJson(tell(*it))) });
        forgetPending(*it);
    }
    deliverAll(out);
}

void AvailabilityFanout::setLatest(Covered &covered, const UserPresence &presence)
{
    covered.latest = presence;
    covered.order = ++m_published;
}

void AvailabilityFanout::deliverAll(const QList<Outgoing> &out)
{
    // Only after the bookkeeping: a send may close a connection that reads nothing, and its
    // unwatch() must not run under a loop over the watchers.
    for (const Outgoing &frame : out)
        m_deliver(frame.connection, frame.type, frame.frame);
}

Availability AvailabilityFanout::tell(Watcher &watcher)
{
    Availability availability;
    availability.covered = int(watcher.covered.size());
    availability.total = watcher.totalFriends;
    watcher.dirty.clear();
    watcher.ready = true;
    for (std::size_t position = 0; position < watcher.covered.size(); ++position) {
        const UserIndex user = watcher.covered[position];
        const PresenceStatus status = latestOf(user);
        watcher.state[position] = toldByte(status);
        if (status != PresenceStatus::Offline)
            (status == PresenceStatus::Online ? availability.online : availability.away)
                .append(idOf(user));
    }
    return availability;
}

std::optional<QHash<QString, PresenceStatus>> AvailabilityFanout::toldTo(
    ConnectionId connection) const
{
    const auto it = m_watchers.constFind(connection);
    if (it == m_watchers.constEnd() || !it->ready)
        return std::nullopt;
    QHash<QString, PresenceStatus> told;
    for (std::size_t position = 0; position < it->covered.size(); ++position) {
        const PresenceStatus status = toldStatus(it->state[position]);
        if (status != PresenceStatus::Offline)
            told.insert(idOf(it->covered[position]), status);
    }
    return told;
}

QStringList AvailabilityFanout::coveredUsers() const
{
    QStringList ids;
    ids.reserve(m_covered.size());
    for (auto it = m_covered.cbegin(); it != m_covered.cend(); ++it)
        ids.append(idOf(it.key()));
    return ids;
}

int AvailabilityFanout::covererCount(const QString &userId) const
{
    const std::optional<int> index = m_directory.indexOfId(userId);
    const auto held = index ? m_covered.constFind(UserIndex(*index)) : m_covered.constEnd();
    return held == m_covered.constEnd() ? 0 : int(held->coverers.size());
}

PresenceStatus AvailabilityFanout::latestOf(UserIndex user) const
{
    const auto held = m_covered.constFind(user);
    return held == m_covered.constEnd() || !held->latest ? PresenceStatus::Offline
                                                         : held->latest->status;
}

void AvailabilityFanout::presencePublished(const UserPresence &presence)
{
    const std::optional<int> index = m_directory.indexOfId(presence.id);
    if (!index)
        return;
    const UserIndex user = UserIndex(*index);
    const auto held = m_covered.find(user);
    if (held == m_covered.end())
        return;
    // Pushes of one user come in the store's order, even after a store restarted seq.
    setLatest(*held, presence);
    for (const ConnectionId connection : std::as_const(held->coverers)) {
        const auto watcher = m_watchers.find(connection); // a coverer is always a watcher
        if (watcher == m_watchers.end() || !watcher->ready)
            continue; // its snapshot will include this
        const auto at = std::lower_bound(watcher->covered.cbegin(), watcher->covered.cend(), user);
        const auto position = quint32(at - watcher->covered.cbegin());
        if (!(watcher->state[position] & kDirty)) {
            watcher->state[position] |= kDirty;
            watcher->dirty.push_back(position);
        }
        if (watcher->pending)
            continue;
        // Started by the first change after a flush: a connection hears at most once per
        // interval (or window), and a change waits at most that long.
        Pending &pending = pendingFor(connection, watcher->batchWindow);
        watcher->pending = true;
        pending.connections.push_back(connection);
        if (pending.timer.isActive())
            continue;
        if (pending.window.count() > 0)
            armForNextTurn(pending);
        else
            pending.timer.start();
    }
}

void AvailabilityFanout::flush()
{
    flushPending(m_unbatched);
    for (const auto &[window, pending] : m_batched)
        flushPending(*pending);
}

void AvailabilityFanout::flushPending(Pending &pending)
{
    pending.timer.stop();
    if (pending.window.count() > 0) {
        const qint64 now = steadyMs();
        // How late its turn came; an early flush() is on time.
        const qint64 late = pending.dueMs > 0 ? now - pending.dueMs : 0;
        pending.stretchMs = stretchAfterTurnMs(pending.stretchMs, late, pending.window.count());
        pending.dueMs = 0;
        pending.lastFlushMs = now;
    }
    const std::vector<ConnectionId> connections = std::exchange(pending.connections, {});
    QList<Outgoing> out;
    for (const ConnectionId connection : connections) {
        const auto it = m_watchers.find(connection);
        // Entries left by a connection that went, or that watched again since, are skipped.
        if (it == m_watchers.end() || !it->pending || windowOf(*it) != pending.window)
            continue;
        it->pending = false;
        if (std::optional<Outgoing> frame = changesFor(connection, *it))
            out.append(std::move(*frame));
    }
    deliverAll(out);
}

std::optional<AvailabilityFanout::Outgoing> AvailabilityFanout::changesFor(
    ConnectionId connection, Watcher &watcher)
{
    const std::vector<quint32> dirty = std::exchange(watcher.dirty, {});
    for (const quint32 position : dirty)
        watcher.state[position] &= kToldMask;
    if (watcher.batchWindow.count() > 0) {
        // Each latest presence once, in the order they were published: a user's states are
        // never reordered, across batches either.
        std::vector<std::pair<const Covered *, quint32>> latest;
        latest.reserve(dirty.size());
        for (const quint32 position : dirty) {
            const auto held = m_covered.constFind(watcher.covered[position]);
            if (held != m_covered.constEnd() && held->latest)
                latest.emplace_back(&*held, position);
        }
        std::sort(latest.begin(), latest.end(),
            [](const auto &a, const auto &b) { return a.first->order < b.first->order; });
        PresenceBatch batch;
        batch.updates.reserve(qsizetype(latest.size()));
        for (const auto &[held, position] : latest) {
            watcher.state[position] = toldByte(held->latest->status);
            batch.updates.append(*held->latest);
        }
        if (batch.updates.isEmpty())
            return std::nullopt;
        return Outgoing { connection, u"presence_batch"_s, Protocol::serializeFrame(batch) };
    }
    // Sorted by id, so the frame does not depend on the order of changes; only the changed
    // ids are visited.
    std::vector<std::pair<const QString *, quint32>> ids;
    ids.reserve(dirty.size());
    for (const quint32 position : dirty)
        ids.emplace_back(&idOf(watcher.covered[position]), position);
    std::sort(
        ids.begin(), ids.end(), [](const auto &a, const auto &b) { return *a.first < *b.first; });
    AvailabilityChanged changed;
    for (const auto &[id, position] : ids) {
        const PresenceStatus now = latestOf(watcher.covered[position]);
        const PresenceStatus was = toldStatus(watcher.state[position]);
        if (now == was)
            continue; // went and came back within the interval: nothing to say
        watcher.state[position] = toldByte(now);
        (now == PresenceStatus::Online        ? changed.online
                : now == PresenceStatus::Away ? changed.away
                                              : changed.offline)
            .append(*id);
    }
    if (changed.online.isEmpty() && changed.away.isEmpty() && changed.offline.isEmpty())
        return std::nullopt;
    return Outgoing { connection, u"availability_changed"_s,
        Protocol::serializeFrame(toJson(changed)) };
}

} // namespace Presence::Server
