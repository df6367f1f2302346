#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QStringList>
#include <QUrl>
#include <QWebSocket>

// Presence
#include "bench/FrameHeader.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/Plan.h"
#include "bench/push_vs_polling/Tracker.h"
#include "bench/push_vs_polling/Window.h"
#include "protocol/PresenceStatus.h"

namespace PushPollingBench {

using BenchSupport::frameHeader;
using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

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

} // namespace PushPollingBench
