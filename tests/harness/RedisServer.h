#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

// Presence
#include "server-mock/redis/client/RedisUrl.h"

// A private redis-server for a test or a benchmark: loopback only, no persistence (--save ""
// --appendonly no), its files in a temporary directory of its own. The destructor kills it, so a
// failing test never leaves one behind. No test assumes a Redis on 6379.
class RedisServer {
public:
    RedisServer();
    ~RedisServer();
    RedisServer(const RedisServer &) = delete;
    RedisServer &operator=(const RedisServer &) = delete;

    // Starts on a free 127.0.0.1 port and returns once it answers PING; else false with
    // error() saying why. The event loop runs while it waits.
    [[nodiscard]] bool start(std::chrono::milliseconds deadline = std::chrono::seconds(5));
    // Starts again on the port of the last start(), empty (nothing was saved); the same
    // waiting and errors as start(). Stops it first if it still runs.
    [[nodiscard]] bool restart(std::chrono::milliseconds deadline = std::chrono::seconds(5));
    // SIGTERM, and waits until it has gone.
    void stop();
    // SIGKILL: a crash, as far as its clients can tell.
    void kill();

    [[nodiscard]] bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    [[nodiscard]] quint16 port() const { return m_port; }
    [[nodiscard]] qint64 pid() const { return m_process.processId(); }
    // redis://127.0.0.1:PORT/DB
    [[nodiscard]] Presence::Server::RedisUrl url(int db = 0) const;
    [[nodiscard]] QString error() const { return m_error; }

    // The shared Redis named by PRESENCE_TEST_REDIS_URL (set by tools/test.sh), or nullopt
    // when it is not set. When it is set but is not a Redis URL: nullopt and *error says why
    // (a test should fail then rather than quietly start its own).
    [[nodiscard]] static std::optional<Presence::Server::RedisUrl> sharedFromEnvironment(
        QString *error = nullptr);

private:
    // One attempt on `port`; false if it did not answer PING by the deadline.
    bool launch(quint16 port, std::chrono::milliseconds deadline);

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_error;
};
