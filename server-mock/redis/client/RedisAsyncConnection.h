#pragma once

// C++
#include <chrono>
#include <deque>
#include <functional>
#include <map>

// Qt
#include <QByteArray>
#include <QList>
#include <QTimer>

// Presence
#include "protocol/Backoff.h"
#include "server-mock/redis/client/RedisLink.h"
#include "server-mock/redis/client/RedisReply.h"
#include "server-mock/redis/client/RedisUrl.h"

struct redisAsyncContext;
class QHostInfo;
class QSocketNotifier;

namespace Presence::Server {

using namespace std::chrono_literals;

// One hiredis asynchronous connection driven by the Qt event loop: the part RedisClient and
// RedisSubscriber share. Nothing in it blocks the loop: the host name is resolved with
// QHostInfo (hiredis would call getaddrinfo() right here), the TCP connect is non-blocking,
// and hiredis reads and writes only when a QSocketNotifier says the socket is ready.
//
// Nothing reaches the owner from inside hiredis: hiredis's callbacks only copy replies into a
// queue, and handlers and signals run once hiredis has returned. So a handler may send, close,
// or delete its owner without pulling hiredis's context from under its feet.
//
// After a lost connection or a failed attempt it retries by itself with jittered exponential
// backoff, until close().
//
// Its state and how it fails and recovers are told through RedisLink's signals; ready() means
// connected with the database selected.
class RedisAsyncConnection : public RedisLink {
    Q_OBJECT
public:
    struct Options {
        // Attempt n (from 0) after a failure waits a random time in
        // [retryMin, min(retryMax, retryMin * 2^n)], so that gateways which lost the same
        // Redis do not come back in lockstep.
        std::chrono::milliseconds retryMin = 100ms;
        std::chrono::milliseconds retryMax = 5s;
        // Resolving, connecting and the SELECT answer, together. hiredis 0.14 has no connect
        // timeout: a SYN into a black hole would otherwise wait for the kernel's minutes.
        std::chrono::milliseconds connectTimeout = 5s;
        // A command unanswered this long means a stuck server or a dead link: the connection
        // is dropped (outstanding commands fail) and rebuilt. Zero waits forever.
        std::chrono::milliseconds replyTimeout = 10s;
        RedisReply::Limits replyLimits;
    };

    using Command = QList<QByteArray>;
    using BatchHandler = std::function<void(QList<RedisReply>)>;
    using PushHandler = std::function<void(const RedisReply &)>;

    // `role` names the connection in logs ("client", "subscriber").
    RedisAsyncConnection(const QString &role, const Options &options, QObject *parent = nullptr);
    ~RedisAsyncConnection() override;

    // Starts connecting (dropping any previous connection) and keeps trying until close().
    void connectTo(const RedisUrl &url);
    // Stops for good, until the next connectTo(): outstanding handlers get kClosed.
    void close();

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] const RedisUrl &url() const { return m_url; }
    [[nodiscard]] const Options &options() const { return m_options; }

    // When Ready, hands the commands to hiredis at once: they leave together in one write when
    // the event loop next runs. Every command must be non-empty. `handler` then runs exactly
    // once, from the event loop and never inside this call, with one reply per command in
    // order; those the connection lost before answering are kConnectionLost errors. When not
    // Ready nothing is sent and every reply is kNotConnected. Returns whether it was sent.
    bool send(const QList<Command> &commands, BatchHandler handler);
    // Runs `handler` like send() would, with `count` copies of the error `message`.
    void refuse(qsizetype count, const QByteArray &message, BatchHandler handler);

    // Pub/sub: SUBSCRIBE and UNSUBSCRIBE, whose confirmations and messages all go to the push
    // handler, from the event loop. Returns false, sending nothing, when not Ready.
    bool sendSubscription(const Command &command);
    void setPushHandler(PushHandler handler);

private:
    struct Hooks; // hiredis's C callbacks
    struct Pending {
        BatchHandler handler;
        QList<RedisReply> replies;
        qsizetype awaited = 0; // replies Redis will send
        qsizetype total = 0; // commands in the batch
        std::chrono::steady_clock::time_point sentAt;
    };

    void startAttempt();
    void onHostLookedUp(const QHostInfo &info);
    void connectToAddress(const QString &address);
    quint64 write(const QList<Command> &commands, BatchHandler handler);
    void onHandshakeReplied(quint64 generation, const RedisReply &reply);
    void onReplyArrived(quint64 id, const RedisReply &reply);
    void onPushArrived(const RedisReply &reply);
    void onSocketActivated(bool readable);
    void onContextFreed();
    void afterHiredis();
    void dropContext(const QString &reason);
    void failAttemptLater(const QString &reason);
    void onConnectionGone(const QString &reason);
    void onConnectTimeout();
    void onReplyTimeout();
    void armReplyTimer();
    void scheduleRetry();
    void failPending(const QByteArray &message);
    void setState(State state);
    void scheduleDispatch();
    void dispatch();

    QString m_role;
    Options m_options;
    RedisUrl m_url;
    State m_state = State::Disconnected;

    redisAsyncContext *m_context = nullptr;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    int m_lookupId = -1;
    // Bumped by every attempt, so that an answer meant for an older one is recognised.
    quint64 m_generation = 0;
    // Set while hiredis frees the context, acted upon once it has returned.
    bool m_contextFreed = false;
    QString m_freedReason;
    QString m_dropReason;

    QTimer m_retryTimer;
    QTimer m_connectTimer;
    QTimer m_replyTimer;
    Protocol::Backoff m_backoff; // counts the failed attempts since the last Ready
    bool m_everReady = false;

    quint64 m_nextId = 1;
    // By id, which is send order: begin() is the oldest, for the reply timeout.
    std::map<quint64, Pending> m_pending;
    PushHandler m_pushHandler;
    std::deque<std::function<void()>> m_deliveries;
    bool m_dispatchScheduled = false;
    bool m_dispatching = false;
};

} // namespace Presence::Server
