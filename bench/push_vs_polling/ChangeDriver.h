#pragma once

// C++
#include <algorithm>
#include <chrono>
#include <optional>

// Qt
#include <QByteArray>
#include <QObject>
#include <QTimer>

// Presence
#include "bench/RawHttpExchange.h"
#include "bench/push_vs_polling/ChangeSequence.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/HttpExchange.h"
#include "bench/push_vs_polling/Options.h"
#include "bench/push_vs_polling/Plan.h"
#include "bench/push_vs_polling/Tracker.h"
#include "bench/push_vs_polling/Window.h"
#include "protocol/PresenceStatus.h"

namespace PushPollingBench {

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

} // namespace PushPollingBench
