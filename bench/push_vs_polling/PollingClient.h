#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QByteArray>
#include <QByteArrayList>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

// Presence
#include "bench/RawHttpExchange.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/HttpExchange.h"
#include "bench/push_vs_polling/Plan.h"
#include "bench/push_vs_polling/Tracker.h"
#include "bench/push_vs_polling/Window.h"
#include "protocol/PresenceStatus.h"

namespace PushPollingBench {

using namespace Qt::StringLiterals;

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

} // namespace PushPollingBench
