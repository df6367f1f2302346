#pragma once

// C++
#include <chrono>
#include <functional>

// Qt
#include <QObject>
#include <QTimer>

namespace Presence::Session {

// Pings the gateway every interval and reports a pong that did not come in time: a half-open
// TCP connection looks exactly like a quiet one, with no error, only silence. One ping is in
// flight at a time: a slow pong delays the next ping rather than stacking them.
class Heartbeat : public QObject {
    Q_OBJECT
public:
    // Sends one ping (a WebSocket ping frame, answered by a pong).
    using Ping = std::function<void()>;

    explicit Heartbeat(Ping ping, QObject *parent = nullptr);

    void start(std::chrono::milliseconds interval, std::chrono::milliseconds pongTimeout);
    void stop();
    [[nodiscard]] bool isActive() const { return m_pingTimer.isActive(); }
    [[nodiscard]] bool awaitsPong() const { return m_pongTimer.isActive(); }

    void onPong();

Q_SIGNALS:
    // No pong within the timeout of a ping: the connection is dead. The heartbeat stops.
    void pongMissed();

private:
    void ping();

    Ping m_ping;
    std::chrono::milliseconds m_pongTimeout { 0 };
    QTimer m_pingTimer;
    QTimer m_pongTimer; // running while a ping awaits its pong
};

} // namespace Presence::Session
