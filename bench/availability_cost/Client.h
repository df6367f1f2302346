#pragma once

// C++
#include <optional>

// Qt
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWebSocket>

// Presence
#include "bench/availability_cost/Options.h"
#include "bench/availability_cost/Traffic.h"
#include "bench/push_vs_polling/Clock.h"
#include "bench/push_vs_polling/Window.h"

namespace AvailabilityCostBench {

using PushPollingBench::Clock;
using PushPollingBench::Window;

// One client: a QWebSocket; hello, subscribe to its rows, maybe watch_availability, then it
// only receives (Qt answers the gateway's pings by itself). What it receives in the window
// goes into the run's counters.
class Client {
public:
    Client(QString token, QStringList rows, int friendCount, bool watchAvailability,
        const Options &options, const Window &window, RunCounters &counters);

    void open(const QUrl &url) { m_socket.open(url); }
    void close();

private:
    void send(const QJsonObject &object);
    void onText(Clock::time_point at, const QString &text);

    QString m_token;
    QStringList m_rows;
    int m_friendCount;
    bool m_watchAvailability;
    const Options &m_options;
    const Window &m_window;
    RunCounters &m_counters;
    QWebSocket m_socket;
    std::optional<Clock::time_point> m_lastChange;
    bool m_closing = false;
};

} // namespace AvailabilityCostBench
