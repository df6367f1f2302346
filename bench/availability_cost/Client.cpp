#include "bench/availability_cost/Client.h"

// C++
#include <algorithm>
#include <chrono>
#include <utility>

// Qt
#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>

// Presence
#include "bench/FrameHeader.h"

using namespace Qt::StringLiterals;

namespace AvailabilityCostBench {

Client::Client(QString token, QStringList rows, int friendCount, bool watchAvailability,
    const Options &options, const Window &window, RunCounters &counters)
    : m_token(std::move(token))
    , m_rows(std::move(rows))
    , m_friendCount(friendCount)
    , m_watchAvailability(watchAvailability)
    , m_options(options)
    , m_window(window)
    , m_counters(counters)
{
    QObject::connect(&m_socket, &QWebSocket::connected, &m_socket, [this] {
        send(QJsonObject { { u"type"_s, u"hello"_s }, { u"token"_s, m_token }, { u"protocol"_s, 1 },
            { u"client"_s, u"bench_availability_cost/1"_s }, { u"ref"_s, u"h"_s } });
    });
    QObject::connect(&m_socket, &QWebSocket::textMessageReceived, &m_socket,
        [this](const QString &text) { onText(Clock::now(), text); });
    QObject::connect(&m_socket, &QWebSocket::disconnected, &m_socket, [this] {
        if (!m_closing)
            ++m_counters.disconnects;
    });
}

void Client::close()
{
    m_closing = true;
    m_socket.abort();
}

void Client::send(const QJsonObject &object)
{
    m_socket.sendTextMessage(
        QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

void Client::onText(Clock::time_point at, const QString &text)
{
    const QByteArray payload = text.toUtf8();
    const qint64 bytes = payload.size() + BenchSupport::frameHeader(payload.size(), false);
    const QJsonObject frame = QJsonDocument::fromJson(payload).object();
    const QString type = frame.value(u"type"_s).toString();
    const Kind kind = kindOf(type);
    qint64 ids = 0;
    if (kind == Presence)
        ids = 1;
    else if (kind == AvailabilityChanged || kind == Availability) {
        for (const QString &list : { u"online"_s, u"away"_s, u"offline"_s })
            ids += frame.value(list).toArray().size();
    }
    if (m_window.contains(at)) {
        Traffic &traffic = m_counters.window;
        ++traffic.frames[kind];
        traffic.bytes[kind] += bytes;
        traffic.ids[kind] += ids;
    }
    const QString ref = frame.value(u"ref"_s).toString();
    if (type == u"welcome") {
        const int interval
            = frame.value(u"limits"_s).toObject().value(u"availability_interval_ms"_s).toInt();
        if (interval != m_options.intervalMs)
            ++m_counters.wrongInterval;
        send(QJsonObject { { u"type"_s, u"subscribe"_s },
            { u"ids"_s, QJsonArray::fromStringList(m_rows) }, { u"ref"_s, u"s"_s } });
    } else if (type == u"snapshot" && ref == u"s") {
        m_counters.snapshotBytes += bytes;
        m_counters.denied += frame.value(u"denied"_s).toArray().size();
        if (m_watchAvailability)
            send(QJsonObject { { u"type"_s, u"watch_availability"_s }, { u"ref"_s, u"a"_s } });
        else
            ++m_counters.ready;
    } else if (type == u"availability" && ref == u"a") {
        m_counters.availabilityBytes += bytes;
        if (frame.value(u"covered"_s).toInt() != m_friendCount
            || frame.value(u"total"_s).toInt() != m_friendCount)
            ++m_counters.badAvailability;
        ++m_counters.ready;
    } else if (kind == AvailabilityChanged) {
        if (ids == 0)
            ++m_counters.emptyChanges;
        if (m_lastChange && m_window.contains(at)) {
            const double gap
                = std::chrono::duration<double, std::milli>(at - *m_lastChange).count();
            m_counters.minGapMs = std::min(m_counters.minGapMs, gap);
            if (gap < 0.9 * m_options.intervalMs)
                ++m_counters.shortGaps;
        }
        m_lastChange = at;
    } else if (type == u"error") {
        ++m_counters.errors;
    }
}

} // namespace AvailabilityCostBench
