// bench_push_vs_polling: the same clients watching the same friends through the same presence
// changes, once by polling the gateway's HTTP API and once by holding a WebSocket and receiving
// pushes; what each costs the clients and the gateway, and how late each learns of a change.
//
// Every mode runs against a fresh real presence-mock-server (the binary, a child process):
//   --generate N --friends F --seed S --listen 127.0.0.1:0 --admin 127.0.0.1:0
//   --admin-token-file FILE --heartbeat-ttl-ms 35000 --grace-ms 0 --dump-users FILE
// Its addresses are read from what it prints; the generated users' tokens from the dump. The
// grace is 0 so that every change, going offline included, is published when it is made: the
// latency measured is the delivery, not the gateway's deliberate wait (equal in both designs).
//
// Population and plan (seeded, identical in every mode): C clients are C users picked at
// random; each watches W of its friends, picked at random among its friends who are not
// clients (a client's own presence is held up by its connection or heartbeats, so changes
// could not show on it). The watched users are the targets of the changes.
//
// The changes: R per second (default 20), made by the benchmark itself with
// POST /admin/users/{id}/presence (the admin token; one request at a time, each on its own
// connection from 127.0.0.1), a target and a new status (online, away or offline, never the
// current one) picked by a seeded RNG: the same sequence in every mode. Every change is
// published, so the k-th change of a user is the one watchers see with seq k (checked: the
// status seen must be that change's). Its time is taken when the request's connection starts.
//
// Modes:
//   polling  Each client, every P (default 5 s, first one at a random offset within P), opens
//            a connection and sends GET /api/presence?ids=<its W friends>; every H (default
//            15 s, random offset) POST /api/heartbeat; both with its own token. The HTTP
//            server answers one request per connection, so each request is a new TCP
//            connection. Requests are written by hand on QTcpSockets: bytes are exact. Each
//            client connects from a loopback address of its own (127.77.x.y), as a real
//            client would from its own host: the gateway allows 50 requests per second per peer
//            address, and 200 clients make about 53 (--same-address puts them all on one
//            address, as behind a NAT, and shows the 429s).
//   push     Each client opens one QWebSocket, sends hello, subscribes to the same W friends
//            and then only receives (Qt answers the gateway's pings by itself).
//   baseline The gateway with the changes alone and no client (--baseline-seconds, default
//            20; 0 skips it): the CPU the changes' own HTTP requests cost, to be subtracted.
//
// A watcher "knows" a change when a poll answer or a push shows that user with the change's
// seq; latency = that moment (the answer complete, or the push's arrival) - the change's time,
// both on this process's steady clock. A poll that shows a later seq has missed the changes
// in between (changed again before the watcher looked): counted as missed, with no latency.
// Changes are made through a warm-up (default 10 s), the measured window (default 60 s) and
// a drain of P + 2 s; only the changes made inside the window are measured, and the traffic
// and CPU are those of the window.
//
// Traffic, per client and per minute of the window:
//   polling  requests and connections started in the window, with every byte the socket wrote
//            and read for them (request, answer head and body); TCP segments from TCP_INFO up
//            to the complete answer, plus 4 for the close (estimated: FIN and ACK each way).
//   push     text frames sent and received in the window: payload + frame header (2, 4 or 10
//            bytes; a client frame also carries a 4-byte mask); the gateway's pings (empty,
//            every heartbeat_ms from the sign-in) and the client's pongs cannot be
//            observed through QWebSocket and are counted from that schedule. The kernel's count
//            for the same sockets (TCP_INFO payload bytes and segments, exact) is printed
//            beside it.
// Gateway CPU: utime + stime of the child (/proc/PID/stat) over the window, % of one core.
//
// Run: ./bench_push_vs_polling [--clients C] [--watch W] [--users N] [--friends F]
//      [--poll-ms P] [--heartbeat-ms H] [--changes-per-second R] [--seconds D]
//      [--warmup-seconds S] [--baseline-seconds B] [--seed X] [--mode both|polling|push]
//      [--same-address] [--mock-server PATH]

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QWebSocket>

#include "DumpedPopulation.h"
#include "IntegerOption.h"
#include "RawHttpExchange.h"
#include "SocketCounters.h"
#include "protocol/PresenceStatus.h"
#include "tests/harness/EventLoopWait.h"
#include "tests/harness/MockServerProcess.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace PushPollingBench;
using Presence::Protocol::PresenceStatus;

namespace {

using Clock = std::chrono::steady_clock;

enum class Mode { Polling, Push, Baseline };

struct Options {
    int clients = 200;
    int watch = 50;
    int users = 2000;
    int friends = 300;
    std::chrono::milliseconds poll { 5000 };
    std::chrono::milliseconds heartbeat { 15000 };
    std::chrono::milliseconds heartbeatTtl { 35000 };
    double changesPerSecond = 20;
    int seconds = 60;
    int warmupSeconds = 10;
    int baselineSeconds = 20;
    quint64 seed = 7;
    bool polling = true;
    bool push = true;
    bool sameAddress = false;
    QString mockServer = QStringLiteral(PRESENCE_MOCK_SERVER);
};

double msBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double, std::milli>(to - from).count();
}

// Runs the event loop until done() holds (checked after every batch of events) or timeout has
// passed; returns done().
using BenchSupport::loadAverage;
using BenchSupport::processCpuSeconds;
using Harness::waitUntil;
using Population = BenchSupport::DumpedPopulation;

// The nearest-rank percentile of sorted values.
double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const auto rank = qsizetype(std::ceil(p * double(sorted.size())));
    return sorted[size_t(std::clamp<qsizetype>(rank - 1, 0, qsizetype(sorted.size()) - 1))];
}

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
        for (int i = userCount - 1; i > 0; --i)
            std::swap(order[size_t(i)], order[size_t(random() % quint64(i + 1))]);
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
            for (size_t i = candidates.size(); i > 1; --i)
                std::swap(candidates[i - 1], candidates[size_t(random() % quint64(i))]);
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

// The measured window, set when the changes start; empty until then.
struct Window {
    Clock::time_point start = Clock::time_point::max();
    Clock::time_point end = Clock::time_point::max();
    [[nodiscard]] bool contains(Clock::time_point at) const { return at >= start && at < end; }
    [[nodiscard]] double seconds() const
    {
        return std::chrono::duration<double>(end - start).count();
    }
};

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

// Where the gateway's HTTP API is, and the Host header that names it.
struct HttpEndpoint {
    QHostAddress address;
    quint16 port = 0;
    QByteArray host;

    static HttpEndpoint of(const QUrl &url)
    {
        return { QHostAddress(url.host()), quint16(url.port()),
            url.host().toUtf8() + ':' + QByteArray::number(url.port()) };
    }
};

// What one kind of HTTP request cost, for the requests started in the window.
struct HttpCounters {
    qint64 requests = 0;
    qint64 bytesOut = 0;
    qint64 bytesIn = 0;
    qint64 segmentsOut = 0;
    qint64 segmentsIn = 0;
    qint64 failures = 0; // no complete answer
    QMap<int, qint64> statuses;
    std::vector<double> roundTripMs; // connect to complete answer
    qint64 inFlight = 0; // all requests, window or not

    void add(const HttpOutcome &outcome, double roundTrip)
    {
        ++requests;
        bytesOut += outcome.bytesWritten;
        bytesIn += outcome.bytesRead;
        if (outcome.segmentsToAnswer) {
            segmentsOut += qint64(outcome.segmentsToAnswer->segmentsOut) + 2; // FIN, ACK
            segmentsIn += qint64(outcome.segmentsToAnswer->segmentsIn) + 2;
        }
        if (!outcome.error.isEmpty())
            ++failures;
        ++statuses[outcome.status];
        if (roundTrip >= 0)
            roundTripMs.push_back(roundTrip);
    }
};

// Sends one request and counts it in `counters` if it started inside the window. answered:
// when the whole answer is in; done: when the exchange is over, answered or not.
void exchange(const HttpEndpoint &endpoint, const std::optional<QHostAddress> &source,
    QByteArray request, HttpCounters &counters, const Window &window,
    RawHttpExchange::Answered answered, std::function<void()> done = {})
{
    const auto started = Clock::now();
    const bool counted = window.contains(started);
    auto answeredAt = std::make_shared<std::optional<Clock::time_point>>();
    ++counters.inFlight;
    RawHttpExchange::start(
        endpoint.address, endpoint.port, source, std::move(request),
        [answeredAt, answered = std::move(answered)](
            Clock::time_point at, int status, const QByteArray &body) {
            *answeredAt = at;
            if (answered)
                answered(at, status, body);
        },
        [&counters, counted, started, answeredAt, done = std::move(done)](
            const HttpOutcome &outcome) {
            --counters.inFlight;
            if (counted)
                counters.add(outcome, *answeredAt ? msBetween(started, **answeredAt) : -1.0);
            if (done)
                done();
        });
}

// Makes the changes: R per second on schedule, one request at a time.
class ChangeDriver {
public:
    ChangeDriver(const Options &options, const Population &population, const Plan &plan,
        Tracker &tracker, HttpEndpoint endpoint, QByteArray adminToken, HttpCounters &counters,
        const Window &window)
        : m_options(options)
        , m_population(population)
        , m_sequence(plan.targets, int(population.ids.size()), options.seed)
        , m_tracker(tracker)
        , m_endpoint(std::move(endpoint))
        , m_adminToken(std::move(adminToken))
        , m_counters(counters)
        , m_window(window)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { sendDue(); });
    }

    void start(Clock::time_point origin)
    {
        m_origin = origin;
        m_timer.start(2);
        sendDue();
    }
    void stop()
    {
        m_timer.stop();
        m_stopped = true;
    }

    [[nodiscard]] double maxLagMs() const { return m_maxLagMs; }
    [[nodiscard]] qint64 refused() const { return m_refused; }

private:
    void sendDue()
    {
        if (m_inFlight || m_stopped)
            return;
        const auto now = Clock::now();
        const auto due = qint64(
            std::chrono::duration<double>(now - m_origin).count() * m_options.changesPerSecond);
        if (m_tracker.changes() >= due)
            return;
        const qint64 index = m_tracker.changes();
        const auto scheduled = m_origin
            + std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double>(double(index) / m_options.changesPerSecond));
        m_maxLagMs = std::max(m_maxLagMs, msBetween(scheduled, now));
        const ChangeSequence::Step step = m_sequence.next();
        const QByteArray body
            = "{\"status\":\"" + Presence::Protocol::toString(step.status).toUtf8() + "\"}";
        const QByteArray request = RawHttpExchange::request("POST",
            "/admin/users/" + m_population.ids.at(step.user).toUtf8() + "/presence",
            m_endpoint.host, m_adminToken, body);
        m_inFlight = true;
        m_tracker.changeMade(step.user, step.status, now);
        exchange(
            m_endpoint, std::nullopt, request, m_counters, m_window,
            [this](Clock::time_point, int status, const QByteArray &) {
                if (status != 204)
                    ++m_refused;
                m_inFlight = false;
                sendDue(); // catch up at once if late
            },
            [this, index] {
                if (m_tracker.changes() == index + 1 && m_inFlight) {
                    ++m_refused; // no answer at all
                    m_inFlight = false;
                }
            });
    }

    const Options &m_options;
    const Population &m_population;
    ChangeSequence m_sequence;
    Tracker &m_tracker;
    HttpEndpoint m_endpoint;
    QByteArray m_adminToken;
    HttpCounters &m_counters;
    const Window &m_window;
    QTimer m_timer;
    Clock::time_point m_origin;
    bool m_inFlight = false;
    bool m_stopped = false;
    double m_maxLagMs = 0;
    qint64 m_refused = 0;
};

// One polling client: GET /api/presence every P, POST /api/heartbeat every H.
class PollingClient {
public:
    PollingClient(int index, const Population &population, const Plan &plan, HttpEndpoint endpoint,
        std::optional<QHostAddress> source, Tracker &tracker, const Window &window,
        HttpCounters &polls, HttpCounters &heartbeats)
        : m_index(index)
        , m_population(population)
        , m_endpoint(std::move(endpoint))
        , m_source(std::move(source))
        , m_tracker(tracker)
        , m_window(window)
        , m_polls(polls)
        , m_heartbeats(heartbeats)
    {
        QByteArrayList ids;
        for (const int user : plan.watched[size_t(index)])
            ids.append(population.ids.at(user).toUtf8());
        const QByteArray token = population.tokens.at(plan.clients[size_t(index)]);
        m_pollRequest = RawHttpExchange::request(
            "GET", "/api/presence?ids=" + ids.join(','), m_endpoint.host, token);
        m_heartbeatRequest
            = RawHttpExchange::request("POST", "/api/heartbeat", m_endpoint.host, token);
        m_pollTimer.setTimerType(Qt::PreciseTimer);
        m_heartbeatTimer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_pollTimer, &QTimer::timeout, [this] { poll(); });
        QObject::connect(&m_heartbeatTimer, &QTimer::timeout, [this] { heartbeat(); });
    }

    // The first poll and heartbeat after their offsets, then every interval.
    void start(std::chrono::milliseconds pollOffset, std::chrono::milliseconds heartbeatOffset,
        std::chrono::milliseconds pollInterval, std::chrono::milliseconds heartbeatInterval)
    {
        m_pollInterval = pollInterval;
        m_heartbeatInterval = heartbeatInterval;
        m_pollTimer.start(pollOffset);
        m_heartbeatTimer.start(heartbeatOffset);
    }
    void stop()
    {
        m_pollTimer.stop();
        m_heartbeatTimer.stop();
    }

    [[nodiscard]] qint64 skippedPolls() const { return m_skippedPolls; }
    [[nodiscard]] qint64 deniedIds() const { return m_denied; }
    [[nodiscard]] qint64 badAnswers() const { return m_badAnswers; }

private:
    void poll()
    {
        if (m_pollTimer.interval() != int(m_pollInterval.count()))
            m_pollTimer.setInterval(m_pollInterval);
        if (m_pollInFlight) {
            ++m_skippedPolls; // the previous one has not been answered yet
            return;
        }
        m_pollInFlight = true;
        exchange(
            m_endpoint, m_source, m_pollRequest, m_polls, m_window,
            [this](Clock::time_point at, int status, const QByteArray &body) {
                onPollAnswer(at, status, body);
            },
            [this] { m_pollInFlight = false; });
    }

    void heartbeat()
    {
        if (m_heartbeatTimer.interval() != int(m_heartbeatInterval.count()))
            m_heartbeatTimer.setInterval(m_heartbeatInterval);
        exchange(m_endpoint, m_source, m_heartbeatRequest, m_heartbeats, m_window, {});
    }

    void onPollAnswer(Clock::time_point at, int status, const QByteArray &body)
    {
        if (status != 200) {
            ++m_badAnswers;
            return;
        }
        const QJsonObject answer = QJsonDocument::fromJson(body).object();
        m_denied += answer.value(u"denied"_s).toArray().size();
        for (const QJsonValue &entry : answer.value(u"users"_s).toArray()) {
            const QJsonObject presence = entry.toObject();
            const int user = m_population.indexOfId.value(presence.value(u"id"_s).toString(), -1);
            const auto parsed = Presence::Protocol::presenceStatusFromString(
                presence.value(u"status"_s).toString());
            if (user < 0 || !parsed) {
                ++m_badAnswers;
                continue;
            }
            m_tracker.observed(m_index, user, *parsed, presence.value(u"seq"_s).toInteger(), at);
        }
    }

    int m_index;
    const Population &m_population;
    HttpEndpoint m_endpoint;
    std::optional<QHostAddress> m_source;
    Tracker &m_tracker;
    const Window &m_window;
    HttpCounters &m_polls;
    HttpCounters &m_heartbeats;
    QByteArray m_pollRequest;
    QByteArray m_heartbeatRequest;
    QTimer m_pollTimer;
    QTimer m_heartbeatTimer;
    std::chrono::milliseconds m_pollInterval {};
    std::chrono::milliseconds m_heartbeatInterval {};
    bool m_pollInFlight = false;
    qint64 m_skippedPolls = 0;
    qint64 m_denied = 0;
    qint64 m_badAnswers = 0;
};

// Frame-level counts of the WebSocket clients, in the window.
struct FrameCounters {
    qint64 framesOut = 0;
    qint64 bytesOut = 0; // payload + header + mask
    qint64 framesIn = 0;
    qint64 bytesIn = 0; // payload + header
    qint64 pushes = 0;
    qint64 errors = 0;
    qint64 disconnects = 0;
    qint64 ready = 0;
    qint64 heartbeatMs = 0; // from welcome
};

// Header bytes of a frame with this payload: 2, 4 or 10, plus the mask of a client's frame.
qint64 frameHeader(qint64 payload, bool fromClient)
{
    const qint64 header = payload <= 125 ? 2 : payload <= 65535 ? 4 : 10;
    return header + (fromClient ? 4 : 0);
}

// One push client: a WebSocket, hello, one subscribe, then pushes.
class PushClient {
public:
    PushClient(int index, const Population &population, const Plan &plan, Tracker &tracker,
        const Window &window, FrameCounters &counters)
        : m_index(index)
        , m_population(population)
        , m_token(QString::fromUtf8(population.tokens.at(plan.clients[size_t(index)])))
        , m_tracker(tracker)
        , m_window(window)
        , m_counters(counters)
    {
        for (const int user : plan.watched[size_t(index)])
            m_watched.append(population.ids.at(user));
        QObject::connect(&m_socket, &QWebSocket::connected, &m_socket, [this] {
            send(QJsonObject { { u"type"_s, u"hello"_s }, { u"token"_s, m_token },
                { u"protocol"_s, 1 }, { u"client"_s, u"bench_push_vs_polling/1"_s } });
        });
        QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket,
            [this](const QString &text) { onText(Clock::now(), text); });
        QObject::connect(&m_socket, &QWebSocket::disconnected, &m_socket, [this] {
            if (!m_closing)
                ++m_counters.disconnects;
        });
    }

    void open(const QUrl &url) { m_socket.open(url); }
    void close()
    {
        m_closing = true;
        m_socket.abort();
    }

    // The gateway's pings (and so this client's pongs) in the window. Not observable through
    // QWebSocket: counted from the schedule, one every heartbeat_ms from the welcome (the
    // gateway starts a connection's ping timer when it signs it in).
    [[nodiscard]] qint64 pingsIn(const Window &window, std::chrono::milliseconds heartbeat) const
    {
        if (heartbeat <= 0ms || !m_signedInAt)
            return 0;
        qint64 pings = 0;
        for (auto at = *m_signedInAt + heartbeat; at < window.end; at += heartbeat)
            pings += window.contains(at) ? 1 : 0;
        return pings;
    }

private:
    void send(const QJsonObject &object)
    {
        const QByteArray payload = QJsonDocument(object).toJson(QJsonDocument::Compact);
        m_socket.sendTextMessage(QString::fromUtf8(payload));
        if (m_window.contains(Clock::now())) {
            ++m_counters.framesOut;
            m_counters.bytesOut += payload.size() + frameHeader(payload.size(), true);
        }
    }

    void onText(Clock::time_point at, const QString &text)
    {
        const QByteArray payload = text.toUtf8();
        if (m_window.contains(at)) {
            ++m_counters.framesIn;
            m_counters.bytesIn += payload.size() + frameHeader(payload.size(), false);
        }
        const QJsonObject frame = QJsonDocument::fromJson(payload).object();
        const QString type = frame.value(u"type"_s).toString();
        if (type == u"presence") {
            ++m_counters.pushes;
            observe(frame, at);
        } else if (type == u"snapshot") {
            for (const QJsonValue &entry : frame.value(u"users"_s).toArray())
                observe(entry.toObject(), at);
            if (!m_ready && frame.value(u"denied"_s).toArray().isEmpty()) {
                m_ready = true;
                ++m_counters.ready;
            }
        } else if (type == u"welcome") {
            m_signedInAt = at;
            m_counters.heartbeatMs = frame.value(u"heartbeat_ms"_s).toInteger();
            send(QJsonObject { { u"type"_s, u"subscribe"_s },
                { u"ids"_s, QJsonArray::fromStringList(m_watched) }, { u"ref"_s, u"s"_s } });
        } else if (type == u"error") {
            ++m_counters.errors;
        }
    }

    void observe(const QJsonObject &presence, Clock::time_point at)
    {
        const int user = m_population.indexOfId.value(presence.value(u"id"_s).toString(), -1);
        const auto status
            = Presence::Protocol::presenceStatusFromString(presence.value(u"status"_s).toString());
        if (user < 0 || !status) {
            ++m_counters.errors;
            return;
        }
        m_tracker.observed(m_index, user, *status, presence.value(u"seq"_s).toInteger(), at);
    }

    int m_index;
    const Population &m_population;
    QString m_token;
    QStringList m_watched;
    Tracker &m_tracker;
    const Window &m_window;
    FrameCounters &m_counters;
    QWebSocket m_socket;
    std::optional<Clock::time_point> m_signedInAt;
    bool m_ready = false;
    bool m_closing = false;
};

// What one mode measured.
struct ModeResult {
    Mode mode = Mode::Polling;
    double windowSeconds = 0;
    int clients = 0;
    // per client, per minute of the window
    double requestsOut = 0; // HTTP requests, or WebSocket frames sent
    double messagesIn = 0; // HTTP answers, or WebSocket frames received
    double bytesOut = 0;
    double bytesIn = 0;
    double connections = 0;
    double segments = 0; // both directions
    std::optional<double> kernelBytes; // push: TCP_INFO payload bytes both ways
    double gatewayCpuPercent = -1;
    double gatewayRssMiB = -1;
    double benchCpuPercent = 0;
    double loadBefore = 0;
    double loadAfter = 0;
    // latency
    std::vector<double> latencyMs; // sorted
    qint64 expectedPairs = 0;
    qint64 missed = 0;
    qint64 measuredChanges = 0;
    QStringList notes; // checks and details, printed under the mode
    bool ok = true;
};

const char *modeName(Mode mode)
{
    switch (mode) {
    case Mode::Polling:
        return "polling";
    case Mode::Push:
        return "push";
    case Mode::Baseline:
        return "baseline";
    }
    return "?";
}

double perClientMinute(double value, const ModeResult &result)
{
    return result.clients && result.windowSeconds > 0
        ? value / result.clients / (result.windowSeconds / 60.0)
        : 0;
}

// Runs one mode against a fresh gateway. The first run loads the population and makes the
// plan; later runs check that they got the same population.
std::optional<ModeResult> runMode(Mode mode, const Options &options,
    std::optional<Population> &population, std::optional<Plan> &plan)
{
    std::printf("\n== %s ==\n", modeName(mode));
    std::fflush(stdout);
    QTemporaryDir dir;
    if (!dir.isValid()) {
        std::fprintf(stderr, "no temporary directory\n");
        return std::nullopt;
    }
    const QByteArray adminToken
        = QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0')
        + QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0');
    QFile tokenFile(dir.filePath(u"admin-token"_s));
    if (!tokenFile.open(QIODevice::WriteOnly) || tokenFile.write(adminToken + '\n') < 0) {
        std::fprintf(stderr, "cannot write the admin token file\n");
        return std::nullopt;
    }
    tokenFile.close();
    const QString usersFile = dir.filePath(u"users.json"_s);
    MockServerProcess server(options.mockServer);
    const QStringList arguments { u"--generate"_s, QString::number(options.users), u"--friends"_s,
        QString::number(options.friends), u"--seed"_s, QString::number(options.seed), u"--listen"_s,
        u"127.0.0.1:0"_s, u"--admin"_s, u"127.0.0.1:0"_s, u"--admin-token-file"_s,
        tokenFile.fileName(), u"--heartbeat-ttl-ms"_s,
        QString::number(options.heartbeatTtl.count()), u"--grace-ms"_s, u"0"_s, u"--dump-users"_s,
        usersFile };
    QString error;
    if (!server.startServing(arguments, 60s, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return std::nullopt;
    }
    auto loaded = Population::load(usersFile, &error);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return std::nullopt;
    }
    if (!population) {
        population = std::move(loaded);
        plan = Plan::make(*population, options.clients, options.watch, options.seed);
    } else if (loaded->digest != population->digest) {
        std::fprintf(stderr, "the gateway generated another population this time\n");
        return std::nullopt;
    }
    const HttpEndpoint http = HttpEndpoint::of(server.httpUrl());
    std::printf("gateway pid %lld: %s, %s (%lld users)\n", server.pid(),
        qPrintable(server.url().toString()), qPrintable(server.httpUrl().toString()),
        static_cast<long long>(population->ids.size()));

    const qint64 firstMeasured
        = qint64(std::ceil(options.warmupSeconds * options.changesPerSecond));
    const int seconds = mode == Mode::Baseline ? options.baselineSeconds : options.seconds;
    const qint64 endMeasured
        = qint64(std::ceil((options.warmupSeconds + seconds) * options.changesPerSecond));
    Tracker tracker(*plan, int(population->ids.size()), firstMeasured, endMeasured);
    Window window;
    HttpCounters adminCounters;
    HttpCounters pollCounters;
    HttpCounters heartbeatCounters;
    FrameCounters frames;
    std::vector<std::unique_ptr<PollingClient>> pollers;
    std::vector<std::unique_ptr<PushClient>> pushers;
    const int clientCount = mode == Mode::Baseline ? 0 : int(plan->clients.size());

    const auto setupStart = Clock::now();
    if (mode == Mode::Polling) {
        std::mt19937_64 random(options.seed + 99);
        for (int i = 0; i < clientCount; ++i) {
            // 127.77.x.y, one per client, or 127.77.0.1 for all (never the driver's 127.0.0.1).
            const int slot = options.sameAddress ? 0 : i;
            const std::optional<QHostAddress> source = QHostAddress(
                (127u << 24) | (77u << 16) | (quint32(slot / 250) << 8) | quint32(1 + slot % 250));
            pollers.push_back(std::make_unique<PollingClient>(i, *population, *plan, http, source,
                tracker, window, pollCounters, heartbeatCounters));
            pollers.back()->start(
                std::chrono::milliseconds(random() % quint64(options.poll.count())),
                std::chrono::milliseconds(random() % quint64(options.heartbeat.count())),
                options.poll, options.heartbeat);
        }
    } else if (mode == Mode::Push) {
        // At most 50 handshakes in flight.
        int opened = 0;
        const auto openMore = [&] {
            while (opened < clientCount && opened - frames.ready < 50) {
                pushers.push_back(std::make_unique<PushClient>(
                    opened, *population, *plan, tracker, window, frames));
                pushers.back()->open(server.url());
                ++opened;
            }
        };
        const bool ready = waitUntil(
            [&] {
                openMore();
                return frames.ready == clientCount || frames.disconnects > 0;
            },
            120s);
        if (!ready || frames.disconnects > 0) {
            std::fprintf(stderr, "setup failed: %lld of %d clients subscribed, %lld disconnects\n",
                static_cast<long long>(frames.ready), clientCount,
                static_cast<long long>(frames.disconnects));
            return std::nullopt;
        }
    }
    const double setupSeconds = std::chrono::duration<double>(Clock::now() - setupStart).count();
    TcpCounters setupKernel;
    if (mode == Mode::Push) {
        setupKernel = tcpCountersOfConnectionsTo(quint16(server.url().port()));
        std::printf("setup: %d clients connected, signed in and subscribed in %.1f s; per client "
                    "%.0f bytes sent, %.0f received (handshake, hello/welcome, "
                    "subscribe/snapshot; TCP_INFO over %d sockets)\n",
            clientCount, setupSeconds, double(setupKernel.bytesSent) / clientCount,
            double(setupKernel.bytesReceived) / clientCount, setupKernel.sockets);
    } else if (mode == Mode::Polling) {
        std::printf("setup: %d clients started, first poll within %lld ms, first heartbeat within "
                    "%lld ms (random offsets)\n",
            clientCount, static_cast<long long>(options.poll.count()),
            static_cast<long long>(options.heartbeat.count()));
    }
    std::fflush(stdout);

    ChangeDriver driver(
        options, *population, *plan, tracker, http, adminToken, adminCounters, window);
    const auto origin = Clock::now();
    window.start = origin + std::chrono::seconds(options.warmupSeconds);
    window.end = window.start + std::chrono::seconds(seconds);
    const auto drain = mode == Mode::Baseline ? 2s : options.poll + 2s;
    driver.start(origin);

    // Readings at the window's edges.
    struct Reading {
        std::optional<double> gatewayCpu;
        double processCpu = 0;
        TcpCounters kernel;
        double load = 0;
        qint64 pushes = 0;
    };
    const quint16 wsPort = quint16(server.url().port());
    const auto read = [&] {
        Reading reading;
        reading.gatewayCpu = server.cpuSeconds();
        reading.processCpu = processCpuSeconds();
        if (mode == Mode::Push)
            reading.kernel = tcpCountersOfConnectionsTo(wsPort);
        reading.load = loadAverage();
        reading.pushes = frames.pushes;
        return reading;
    };
    std::optional<Reading> atStart;
    std::optional<Reading> atEnd;
    double gatewayRss = -1;
    const auto untilNow = [](Clock::time_point at) {
        return std::chrono::ceil<std::chrono::milliseconds>(at - Clock::now());
    };
    QObject edges; // the readings die with this function
    QTimer::singleShot(untilNow(window.start), Qt::PreciseTimer, &edges, [&] { atStart = read(); });
    QTimer::singleShot(untilNow(window.end), Qt::PreciseTimer, &edges, [&] {
        atEnd = read();
        gatewayRss = server.residentMiB();
    });
    std::printf("changes: %.0f/s from now; warm-up %d s, measured window %d s, drain %lld s\n",
        options.changesPerSecond, options.warmupSeconds, seconds,
        static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(drain).count()));
    std::fflush(stdout);
    const auto finish = window.end + drain;
    (void)waitUntil([&] { return Clock::now() >= finish || !server.isRunning(); },
        std::chrono::duration_cast<std::chrono::milliseconds>(finish - Clock::now()) + 1s);
    driver.stop();
    for (auto &client : pollers)
        client->stop();
    const bool gatewayAlive = server.isRunning();
    (void)waitUntil(
        [&] {
            return adminCounters.inFlight == 0 && pollCounters.inFlight == 0
                && heartbeatCounters.inFlight == 0;
        },
        20s);
    for (auto &client : pushers)
        client->close();
    const QByteArray gatewayErrors = server.takeErrorOutput();
    server.stop();

    ModeResult result;
    result.mode = mode;
    result.clients = clientCount;
    if (!atStart || !atEnd || !gatewayAlive) {
        std::fprintf(stderr, "%s: the gateway exited during the run\n%s\n", modeName(mode),
            gatewayErrors.constData());
        return std::nullopt;
    }
    result.windowSeconds = window.seconds();
    result.loadBefore = atStart->load;
    result.loadAfter = atEnd->load;
    if (atStart->gatewayCpu && atEnd->gatewayCpu)
        result.gatewayCpuPercent
            = 100 * (*atEnd->gatewayCpu - *atStart->gatewayCpu) / result.windowSeconds;
    result.gatewayRssMiB = gatewayRss;
    result.benchCpuPercent = 100 * (atEnd->processCpu - atStart->processCpu) / result.windowSeconds;
    result.latencyMs = tracker.sortedLatencyMs();
    result.expectedPairs = tracker.expectedPairs();
    result.missed = tracker.missed();
    result.measuredChanges = tracker.measuredChanges();

    const auto note = [&result](const QString &text) { result.notes.append(text); };
    const auto statuses = [](const HttpCounters &counters) {
        QStringList parts;
        for (auto it = counters.statuses.cbegin(); it != counters.statuses.cend(); ++it)
            parts.append(
                u"%1 x%2"_s.arg(it.key() ? QString::number(it.key()) : u"none"_s).arg(it.value()));
        return parts.join(u", "_s);
    };
    const auto roundTrip = [](const HttpCounters &counters) {
        std::vector<double> sorted = counters.roundTripMs;
        std::sort(sorted.begin(), sorted.end());
        return u"round trip (connect to complete answer) median %1 ms, p99 %2 ms"_s
            .arg(percentile(sorted, 0.5), 0, 'f', 2)
            .arg(percentile(sorted, 0.99), 0, 'f', 2);
    };
    note(u"changes: %1 made, %2 measured (sent in the window), max lag behind schedule %3 ms; "
         "admin requests in the window: %4 (%5), %6"_s.arg(tracker.changes())
             .arg(result.measuredChanges)
             .arg(driver.maxLagMs(), 0, 'f', 1)
             .arg(adminCounters.requests)
             .arg(statuses(adminCounters), roundTrip(adminCounters)));
    if (driver.refused())
        result.ok = false;

    if (mode == Mode::Polling) {
        const HttpCounters &p = pollCounters;
        const HttpCounters &h = heartbeatCounters;
        result.requestsOut = perClientMinute(double(p.requests + h.requests), result);
        result.messagesIn = result.requestsOut;
        result.bytesOut = perClientMinute(double(p.bytesOut + h.bytesOut), result);
        result.bytesIn = perClientMinute(double(p.bytesIn + h.bytesIn), result);
        result.connections = result.requestsOut;
        result.segments = perClientMinute(
            double(p.segmentsOut + p.segmentsIn + h.segmentsOut + h.segmentsIn), result);
        qint64 skipped = 0;
        qint64 denied = 0;
        qint64 bad = 0;
        for (const auto &client : pollers) {
            skipped += client->skippedPolls();
            denied += client->deniedIds();
            bad += client->badAnswers();
        }
        note(u"polls in the window: %1 (%2), %3 bytes out / %4 in per poll, %5"_s.arg(p.requests)
                 .arg(statuses(p))
                 .arg(p.requests ? double(p.bytesOut) / double(p.requests) : 0.0, 0, 'f', 0)
                 .arg(p.requests ? double(p.bytesIn) / double(p.requests) : 0.0, 0, 'f', 0)
                 .arg(roundTrip(p)));
        note(u"heartbeats in the window: %1 (%2), %3 bytes out / %4 in each"_s.arg(h.requests)
                 .arg(statuses(h))
                 .arg(h.requests ? double(h.bytesOut) / double(h.requests) : 0.0, 0, 'f', 0)
                 .arg(h.requests ? double(h.bytesIn) / double(h.requests) : 0.0, 0, 'f', 0));
        note(u"checks: failed exchanges %1, polls skipped (previous unanswered) %2, denied ids %3, "
             "bad answers %4"_s.arg(p.failures + h.failures)
                 .arg(skipped)
                 .arg(denied)
                 .arg(bad));
        const qint64 non2xx
            = p.requests - p.statuses.value(200) + h.requests - h.statuses.value(200);
        if (non2xx || p.failures || h.failures || denied || bad)
            result.ok = false;
    } else if (mode == Mode::Push) {
        // Pings are empty control frames (2 bytes); a pong echoes the empty payload, masked
        // (2 + 4 bytes).
        qint64 pings = 0;
        for (const auto &client : pushers)
            pings += client->pingsIn(window, std::chrono::milliseconds(frames.heartbeatMs));
        const qint64 framesOut = frames.bytesOut + pings * 6;
        const qint64 framesIn = frames.bytesIn + pings * 2;
        result.requestsOut = perClientMinute(double(frames.framesOut + pings), result);
        result.messagesIn = perClientMinute(double(frames.framesIn + pings), result);
        result.bytesOut = perClientMinute(double(framesOut), result);
        result.bytesIn = perClientMinute(double(framesIn), result);
        result.connections = 0;
        const quint64 segments = (atEnd->kernel.segmentsOut - atStart->kernel.segmentsOut)
            + (atEnd->kernel.segmentsIn - atStart->kernel.segmentsIn);
        result.segments = perClientMinute(double(segments), result);
        const quint64 kernelOut = atEnd->kernel.bytesSent - atStart->kernel.bytesSent;
        const quint64 kernelIn = atEnd->kernel.bytesReceived - atStart->kernel.bytesReceived;
        result.kernelBytes = perClientMinute(double(kernelOut + kernelIn), result);
        note(u"text frames in the window: %1 received (%2 pushes in all), %3 sent; pings and "
             "pongs (from the schedule, not observed): %4 each way (every %5 ms per connection, "
             "2 bytes in + 6 bytes out each)"_s.arg(frames.framesIn)
                 .arg(frames.pushes)
                 .arg(frames.framesOut)
                 .arg(pings)
                 .arg(frames.heartbeatMs));
        note(u"kernel (TCP_INFO, %1 sockets at the start, %2 at the end): %3 bytes out, %4 in, "
             "%5 segments out, %6 in, over the window; frame count: %7 out, %8 in"_s
                 .arg(atStart->kernel.sockets)
                 .arg(atEnd->kernel.sockets)
                 .arg(kernelOut)
                 .arg(kernelIn)
                 .arg(atEnd->kernel.segmentsOut - atStart->kernel.segmentsOut)
                 .arg(atEnd->kernel.segmentsIn - atStart->kernel.segmentsIn)
                 .arg(framesOut)
                 .arg(framesIn));
        note(u"checks: errors %1, disconnects %2"_s.arg(frames.errors).arg(frames.disconnects));
        if (frames.errors || frames.disconnects)
            result.ok = false;
    }
    if (mode != Mode::Baseline) {
        const qint64 seen = qint64(result.latencyMs.size());
        note(u"watchers: %1 (change, watcher) pairs expected; %2 known, %3 missed (changed again "
             "before the watcher looked), %4 not known by the end; observations %5 (%6 without "
             "news), wrong status %7, unexplained seq %8"_s.arg(result.expectedPairs)
                 .arg(seen)
                 .arg(result.missed)
                 .arg(result.expectedPairs - seen - result.missed)
                 .arg(tracker.observations())
                 .arg(tracker.noNews())
                 .arg(tracker.wrongStatus())
                 .arg(tracker.unknownSeq()));
        if (tracker.wrongStatus() || tracker.unknownSeq())
            result.ok = false;
    }
    // The gateway logs every sign-in (info); anything worse is shown.
    QStringList serious;
    const QList<QByteArray> logLines = gatewayErrors.trimmed().split('\n');
    for (const QByteArray &line : logLines) {
        const QByteArray lower = line.toLower();
        if (lower.contains("warning") || lower.contains("critical") || lower.contains("error")
            || lower.contains("fatal"))
            serious.append(QString::fromUtf8(line));
    }
    note(u"gateway log: %1 lines on stderr, %2 warnings or worse%3"_s
             .arg(gatewayErrors.trimmed().isEmpty() ? 0 : logLines.size())
             .arg(serious.size())
             .arg(serious.isEmpty() ? QString() : u": "_s + serious.mid(0, 5).join(u" | "_s)));
    for (const QString &line : std::as_const(result.notes))
        std::printf("  %s\n", qPrintable(line));
    std::printf("  gateway CPU %.2f %% of one core over %.1f s, RSS %.0f MiB; this process %.1f %% "
                "of one core; load %.2f -> %.2f\n",
        result.gatewayCpuPercent, result.windowSeconds, result.gatewayRssMiB,
        result.benchCpuPercent, result.loadBefore, result.loadAfter);
    std::fflush(stdout);
    return result;
}

QString ratio(double a, double b)
{
    if (b <= 0)
        return a > 0 ? u"-"_s : u""_s;
    const double r = a / b;
    return r >= 100 ? u"%1x"_s.arg(r, 0, 'f', 0)
        : r >= 10   ? u"%1x"_s.arg(r, 0, 'f', 1)
                    : u"%1x"_s.arg(r, 0, 'f', 2);
}

QString number(double value, int decimals = 0)
{
    return QString::number(value, 'f', decimals);
}

// The table: polling and push side by side, "-" for a mode that did not run.
void printComparison(const ModeResult *polling, const ModeResult *push, const ModeResult *baseline)
{
    using Value = std::function<std::optional<double>(const ModeResult &)>;
    const auto cell = [](const ModeResult *result, const Value &value, int decimals) {
        const auto v = result ? value(*result) : std::nullopt;
        return v ? number(*v, decimals) : u"-"_s;
    };
    const auto row = [&](const char *label, const Value &value, int decimals, bool withRatio) {
        const auto a = polling ? value(*polling) : std::nullopt;
        const auto b = push ? value(*push) : std::nullopt;
        std::printf("%-60s %14s %14s %10s\n", label, qPrintable(cell(polling, value, decimals)),
            qPrintable(cell(push, value, decimals)),
            qPrintable(withRatio && a && b ? ratio(*a, *b) : QString()));
    };
    const auto known = [](const ModeResult &r) { return double(r.latencyMs.size()); };
    const auto field = [](double ModeResult::*member) {
        return Value([member](const ModeResult &r) { return std::optional<double>(r.*member); });
    };
    const ModeResult *any = polling ? polling : push;
    std::printf("\nPer client, per minute of the measured window (%.0f s); latency over every "
                "(change, watcher) pair of the changes made in the window\n\n",
        any ? any->windowSeconds : 0.0);
    std::printf("%-60s %14s %14s %10s\n", "", "polling", "push", "poll/push");
    row("requests sent (HTTP requests; WebSocket frames, pongs incl.)",
        field(&ModeResult::requestsOut), 2, true);
    row("messages received (HTTP answers; frames, pings incl.)", field(&ModeResult::messagesIn), 2,
        true);
    row("bytes sent", field(&ModeResult::bytesOut), 0, true);
    row("bytes received", field(&ModeResult::bytesIn), 0, true);
    row(
        "bytes, both directions",
        [](const ModeResult &r) { return std::optional<double>(r.bytesOut + r.bytesIn); }, 0, true);
    row(
        "  the same, kernel's count (TCP_INFO payload bytes)",
        [](const ModeResult &r) { return r.kernelBytes; }, 0, false);
    row("TCP connections opened (push: 1 held from the setup)", field(&ModeResult::connections), 2,
        false);
    row("TCP segments, both directions (loopback)", field(&ModeResult::segments), 0, true);

    std::printf("\nGateway, over the window\n\n");
    row("CPU, % of one core", field(&ModeResult::gatewayCpuPercent), 2, true);
    if (baseline) {
        const double base = baseline->gatewayCpuPercent;
        std::printf("%-60s %14s\n", "  changes alone, no client (baseline run)",
            qPrintable(number(base, 2)));
        row(
            "  CPU for the clients (minus the baseline)",
            [base](
                const ModeResult &r) { return std::optional<double>(r.gatewayCpuPercent - base); },
            2, true);
    }
    row("RSS at the end of the window, MiB", field(&ModeResult::gatewayRssMiB), 0, false);

    std::printf("\nChange -> watcher knows it\n\n");
    const auto latency = [](double p) {
        return Value([p](const ModeResult &r) {
            return r.latencyMs.empty() ? std::nullopt
                                       : std::optional<double>(percentile(r.latencyMs, p));
        });
    };
    row("latency median, ms", latency(0.5), 1, true);
    row("latency p99, ms", latency(0.99), 1, true);
    row("latency max, ms", latency(1.0), 1, false);
    row(
        "(change, watcher) pairs expected",
        [](const ModeResult &r) { return std::optional<double>(double(r.expectedPairs)); }, 0,
        false);
    row(
        "  known", [&](const ModeResult &r) { return std::optional<double>(known(r)); }, 0, false);
    row(
        "  missed: changed again before the watcher looked",
        [](const ModeResult &r) { return std::optional<double>(double(r.missed)); }, 0, false);
    row(
        "  not known by the end",
        [&](const ModeResult &r) {
            return std::optional<double>(double(r.expectedPairs) - known(r) - double(r.missed));
        },
        0, false);
    row(
        "  share known, %",
        [&](const ModeResult &r) {
            return r.expectedPairs ? std::optional<double>(100 * known(r) / double(r.expectedPairs))
                                   : std::nullopt;
        },
        2, false);
    std::printf("\nbytes: polling counts every byte its sockets wrote and read (exact, HTTP heads "
                "included); push counts text frames (payload + header + client mask) and the "
                "gateway's pings and the pongs from their schedule; the kernel row is exact. TCP "
                "segments: polling from TCP_INFO up to each answer + 4 estimated for the close; "
                "push exact (TCP_INFO). Loopback: larger answers fit in fewer segments than on a "
                "1500-byte MTU network.\n");
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Polling the gateway's HTTP API against holding a WebSocket: the same clients, friends "
        "and presence changes against the real presence-mock-server; traffic, connections, "
        "gateway CPU, and the time from a change to each watcher knowing it."_s);
    parser.addHelpOption();
    const QCommandLineOption clientsOption(u"clients"_s, u"Clients (default 200)."_s, u"C"_s);
    const QCommandLineOption watchOption(
        u"watch"_s, u"Friends each client watches (default 50)."_s, u"W"_s);
    const QCommandLineOption usersOption(
        u"users"_s, u"Users the gateway generates (default 2000)."_s, u"N"_s);
    const QCommandLineOption friendsOption(
        u"friends"_s, u"Friends per generated user (default 300)."_s, u"F"_s);
    const QCommandLineOption pollOption(
        u"poll-ms"_s, u"Polling: GET /api/presence every P ms (default 5000)."_s, u"P"_s);
    const QCommandLineOption heartbeatOption(u"heartbeat-ms"_s,
        u"Polling: POST /api/heartbeat every H ms (default 15000; the gateway's TTL is "
        "35000)."_s,
        u"H"_s);
    const QCommandLineOption rateOption(u"changes-per-second"_s,
        u"Presence changes per second made through the admin API (default 20)."_s, u"R"_s);
    const QCommandLineOption secondsOption(
        u"seconds"_s, u"Measured window of each mode (default 60)."_s, u"D"_s);
    const QCommandLineOption warmupOption(
        u"warmup-seconds"_s, u"Changes before the window (default 10)."_s, u"S"_s);
    const QCommandLineOption baselineOption(u"baseline-seconds"_s,
        u"Window of the run with the changes and no client, for the gateway's CPU (default 20; "
        "0: skip it)."_s,
        u"B"_s);
    const QCommandLineOption seedOption(
        u"seed"_s, u"Seed of the population, the plan and the changes (default 7)."_s, u"X"_s);
    const QCommandLineOption modeOption(
        u"mode"_s, u"both, polling or push (default both)."_s, u"MODE"_s);
    const QCommandLineOption sameAddressOption(u"same-address"_s,
        u"Polling clients all connect from one address (127.77.0.1) instead of one each, as "
        "behind a NAT: the gateway limits requests per peer address."_s);
    const QCommandLineOption serverOption(u"mock-server"_s,
        u"The presence-mock-server binary (default: the one built with this benchmark)."_s,
        u"PATH"_s);
    parser.addOptions({ clientsOption, watchOption, usersOption, friendsOption, pollOption,
        heartbeatOption, rateOption, secondsOption, warmupOption, baselineOption, seedOption,
        modeOption, sameAddressOption, serverOption });
    parser.process(app);

    Options options;
    const auto intOption
        = [&parser](const QCommandLineOption &option, int low, int high, int fallback) {
              return integerOption(parser, option, low, high, fallback);
          };
    options.clients = intOption(clientsOption, 1, 60'000, options.clients);
    options.watch = intOption(watchOption, 1, 500, options.watch);
    options.users = intOption(usersOption, 2, 1'000'000, options.users);
    options.friends = intOption(friendsOption, 1, 10'000, options.friends);
    options.poll = std::chrono::milliseconds(intOption(pollOption, 100, 3'600'000, 5000));
    options.heartbeat = std::chrono::milliseconds(
        intOption(heartbeatOption, 100, int(options.heartbeatTtl.count()) - 1, 15000));
    options.changesPerSecond = intOption(rateOption, 1, 1000, 20);
    options.seconds = intOption(secondsOption, 1, 86'400, options.seconds);
    options.warmupSeconds = intOption(warmupOption, 0, 3600, options.warmupSeconds);
    options.baselineSeconds = intOption(baselineOption, 0, 86'400, options.baselineSeconds);
    if (parser.isSet(seedOption))
        options.seed = parser.value(seedOption).toULongLong();
    if (parser.isSet(modeOption)) {
        const QString mode = parser.value(modeOption);
        options.polling = mode == u"both" || mode == u"polling";
        options.push = mode == u"both" || mode == u"push";
        if (!options.polling && !options.push) {
            std::fprintf(stderr, "--mode must be both, polling or push\n");
            return 2;
        }
    }
    options.sameAddress = parser.isSet(sameAddressOption);
    if (parser.isSet(serverOption))
        options.mockServer = parser.value(serverOption);

    rlimit files {};
    getrlimit(RLIMIT_NOFILE, &files);
    std::printf("bench_push_vs_polling: %d clients watching %d friends each among %d users (%d "
                "friends each, seed %llu); %.0f changes/s; window %d s after %d s of warm-up\n",
        options.clients, options.watch, options.users, options.friends,
        static_cast<unsigned long long>(options.seed), options.changesPerSecond, options.seconds,
        options.warmupSeconds);
    std::printf("polling: GET /api/presence every %lld ms, POST /api/heartbeat every %lld ms "
                "(gateway --heartbeat-ttl-ms %lld), a new TCP connection per request, %s; push: "
                "one WebSocket per client\n",
        static_cast<long long>(options.poll.count()),
        static_cast<long long>(options.heartbeat.count()),
        static_cast<long long>(options.heartbeatTtl.count()),
        options.sameAddress ? "all clients from 127.77.0.1"
                            : "each client from its own 127.77.x.y");
    std::printf("gateway: %s, --grace-ms 0 (changes published when made)\n",
        qPrintable(options.mockServer));
    std::printf("open-file limit of this process: soft %llu, hard %llu (needs about %d: one socket "
                "per WebSocket client, a few HTTP connections at a time)\n",
        static_cast<unsigned long long>(files.rlim_cur),
        static_cast<unsigned long long>(files.rlim_max), options.clients + 64);
    std::fflush(stdout);

    std::optional<Population> population;
    std::optional<Plan> plan;
    std::vector<ModeResult> results;
    std::vector<Mode> modes;
    if (options.polling)
        modes.push_back(Mode::Polling);
    if (options.push)
        modes.push_back(Mode::Push);
    if (options.baselineSeconds > 0)
        modes.push_back(Mode::Baseline);
    for (const Mode mode : modes) {
        auto result = runMode(mode, options, population, plan);
        if (!result)
            return 1;
        if (mode == Mode::Polling) {
            qint64 watchSlots = 0;
            for (const auto &list : plan->watched)
                watchSlots += qint64(list.size());
            std::printf("  plan: %zu watched users (the targets), %lld watch slots, %.2f watchers "
                        "per target on average; %d clients with fewer than %d non-client friends\n",
                plan->targets.size(), static_cast<long long>(watchSlots),
                double(watchSlots) / double(plan->targets.size()), plan->shortLists, options.watch);
        }
        results.push_back(std::move(*result));
    }

    const ModeResult *polling = nullptr;
    const ModeResult *push = nullptr;
    const ModeResult *baseline = nullptr;
    for (const ModeResult &result : results) {
        if (result.mode == Mode::Polling)
            polling = &result;
        else if (result.mode == Mode::Push)
            push = &result;
        else
            baseline = &result;
    }
    printComparison(polling, push, baseline);

    bool ok = true;
    for (const ModeResult &result : results)
        ok = ok && result.ok;
    if (!ok)
        std::printf("SOME CHECKS FAILED (see the lines under each mode)\n");
    return ok ? 0 : 1;
}
