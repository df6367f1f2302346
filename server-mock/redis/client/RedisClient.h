#pragma once

// C++
#include <chrono>
#include <functional>

// Qt
#include <QByteArray>
#include <QList>
#include <QObject>

// Presence
#include "server-mock/redis/client/RedisAsyncConnection.h"
#include "server-mock/redis/client/RedisLink.h"
#include "server-mock/redis/client/RedisReply.h"
#include "server-mock/redis/client/RedisScript.h"

namespace Presence::Server {

// A Redis connection for commands, on the Qt event loop, that never blocks it (hiredis's
// asynchronous API, see RedisAsyncConnection). It reconnects by itself after any loss.
//
// Commands are argv lists, so binary data needs no escaping. Every callback runs exactly once,
// from the event loop, unless its context object is destroyed first; when the connection is
// lost, every outstanding one gets an Error reply "connection lost", which a store should take
// for an outage. Commands given while not Ready are not queued: they fail ("not connected").
// Its connection's state and failures are told through RedisLink's signals.
class RedisClient : public RedisLink {
    Q_OBJECT
public:
    using Options = RedisAsyncConnection::Options;
    using Command = QList<QByteArray>;

    explicit RedisClient(QObject *parent = nullptr);
    explicit RedisClient(const Options &options, QObject *parent = nullptr);
    ~RedisClient() override;

    void connectTo(const RedisUrl &url);
    // Stops for good, until the next connectTo(); outstanding callbacks get "closed".
    void close();

    [[nodiscard]] State state() const;
    // Batches sent to Redis: one per command() and one per pipeline() that went out. Refused
    // ones (not Ready, invalid) do not count.
    [[nodiscard]] quint64 roundTrips() const { return m_roundTrips; }

    // Sends one command. `done` is not called once `context` is destroyed; a null context
    // binds the callback to this client.
    void command(Command argv, QObject *context, std::function<void(const RedisReply &)> done);
    // Sends all the commands in one write, one round trip, and calls `done` once with one
    // reply per command, in order. After a loss mid-way the replies not received are
    // "connection lost" errors. An invalid command refuses the whole pipeline.
    void pipeline(QList<Command> commands, QObject *context,
        std::function<void(const QList<RedisReply> &)> done);

    // Runs a Lua script by its SHA1 (EVALSHA, no keys declared) and, when Redis does not hold
    // it (NOSCRIPT: it restarted, or never saw it), once more with its whole source. `script`
    // must outlive the call (the scripts are static).
    void evalScript(const RedisScript &script, QList<QByteArray> args, QObject *context,
        std::function<void(const RedisReply &)> done);
    // SCRIPT LOAD for each, in one round trip. Commands given after this find the scripts, so
    // nothing waits for a NOSCRIPT round trip (which would let later commands overtake).
    void loadScripts(const QList<const RedisScript *> &scripts);

private:
    // An error message if `command` may not run on this connection, else empty.
    [[nodiscard]] static QByteArray refusal(const Command &command);

    RedisAsyncConnection *m_connection;
    quint64 m_roundTrips = 0;
};

} // namespace Presence::Server
