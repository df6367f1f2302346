#include "server-mock/redis/client/RedisAsyncConnection.h"

// C++
#include <algorithm>
#include <utility>
#include <vector>
// System
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

// Qt
#include <QHostAddress>
#include <QHostInfo>
#include <QPointer>
#include <QSocketNotifier>

// Presence
#include "server-mock/redis/client/Logging.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

// hiredis carries one void* per command back to its callback. It carries a request id, not a
// pointer: an id outliving its request is merely unknown, never dangling.
void *toPrivdata(quint64 id)
{
    // NOLINTNEXTLINE(performance-no-int-to-ptr): never dereferenced, see above
    return reinterpret_cast<void *>(static_cast<quintptr>(id));
}

quint64 fromPrivdata(void *privdata)
{
    return quint64(reinterpret_cast<quintptr>(privdata));
}

constexpr char kNotSent[] = "command not sent";

} // namespace

// hiredis's C callbacks. They only record: replies into the queue, a freed context into a
// flag. Everything that may run the owner's code waits until hiredis has returned.
struct RedisAsyncConnection::Hooks {
    static RedisAsyncConnection *owner(void *data)
    {
        return static_cast<RedisAsyncConnection *>(data);
    }

    static void enable(QSocketNotifier *notifier, bool on)
    {
        if (notifier)
            notifier->setEnabled(on);
    }

    static void addRead(void *data) { enable(owner(data)->m_readNotifier, true); }
    static void delRead(void *data) { enable(owner(data)->m_readNotifier, false); }
    static void addWrite(void *data) { enable(owner(data)->m_writeNotifier, true); }
    static void delWrite(void *data) { enable(owner(data)->m_writeNotifier, false); }
    static void cleanup(void *data) { owner(data)->onContextFreed(); }

    static void connected(const redisAsyncContext *context, int status)
    {
        auto *self = owner(context->data);
        // On failure hiredis frees the context next, and cleanup() reports why.
        if (!self || status != REDIS_OK)
            return;
        // Keepalive probes find a peer that vanished without closing (a crashed host, a
        // dropped NAT entry), which a subscriber waiting for messages would never notice.
        redisEnableKeepAlive(&self->m_context->c);
        qCDebug(lcRedis).noquote()
            << u"%1: TCP connected to %2"_s.arg(self->m_role, self->m_url.toString());
    }

    static void reply(redisAsyncContext *context, void *reply, void *privdata)
    {
        auto *self = owner(context->data);
        // No reply: hiredis is freeing the context. onConnectionGone() fails what was pending.
        if (!self || !reply)
            return;
        self->onReplyArrived(fromPrivdata(privdata),
            RedisReply::fromHiredis(
                static_cast<const redisReply *>(reply), self->m_options.replyLimits));
    }

    static void push(redisAsyncContext *context, void *reply, void *)
    {
        auto *self = owner(context->data);
        if (!self || !reply)
            return;
        self->onPushArrived(RedisReply::fromHiredis(
            static_cast<const redisReply *>(reply), self->m_options.replyLimits));
    }
};

RedisAsyncConnection::RedisAsyncConnection(
    const QString &role, const Options &options, QObject *parent)
    : RedisLink(parent)
    , m_role(role)
    , m_options(options)
    , m_backoff(Protocol::BackoffPolicy { std::max(options.retryMin, std::chrono::milliseconds(1)),
          2.0, std::max(options.retryMin, options.retryMax),
          std::max(options.retryMin, std::chrono::milliseconds(1)) })
{
    m_retryTimer.setSingleShot(true);
    m_connectTimer.setSingleShot(true);
    m_replyTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &RedisAsyncConnection::startAttempt);
    connect(&m_connectTimer, &QTimer::timeout, this, &RedisAsyncConnection::onConnectTimeout);
    connect(&m_replyTimer, &QTimer::timeout, this, &RedisAsyncConnection::onReplyTimeout);
}

RedisAsyncConnection::~RedisAsyncConnection()
{
    if (m_lookupId >= 0)
        QHostInfo::abortHostLookup(m_lookupId);
    // Outstanding handlers are dropped, not called: whoever owns this is going away too.
    if (m_context)
        redisAsyncFree(m_context);
}

void RedisAsyncConnection::connectTo(const RedisUrl &url)
{
    if (m_state != State::Disconnected)
        close();
    m_url = url;
    m_backoff.reset();
    m_everReady = false;
    qCInfo(lcRedis).noquote() << u"%1: connecting to %2"_s.arg(m_role, m_url.toString());
    startAttempt();
}

void RedisAsyncConnection::close()
{
    ++m_generation;
    m_retryTimer.stop();
    m_connectTimer.stop();
    m_replyTimer.stop();
    if (m_lookupId >= 0) {
        QHostInfo::abortHostLookup(m_lookupId);
        m_lookupId = -1;
    }
    if (m_context) {
        qCInfo(lcRedis).noquote() << u"%1: closing the connection to %2"_s.arg(
            m_role, m_url.toString());
        redisAsyncFree(m_context);
    }
    m_contextFreed = false;
    m_dropReason.clear();
    failPending(RedisReply::kClosed);
    m_backoff.reset();
    setState(State::Disconnected);
    // Handlers run from the event loop, never inside close().
    scheduleDispatch();
}

bool RedisAsyncConnection::send(const QList<Command> &commands, BatchHandler handler)
{
    if (m_state != State::Ready || !m_context) {
        refuse(commands.size(), RedisReply::kNotConnected, std::move(handler));
        return false;
    }
    if (lcRedis().isDebugEnabled() && !commands.isEmpty() && !commands.constFirst().isEmpty()) {
        // The command's name only: arguments hold user ids.
        qCDebug(lcRedis).noquote()
            << u"%1: sending %2 command(s), starting with %3"_s.arg(m_role)
                   .arg(commands.size())
                   .arg(QString::fromUtf8(commands.constFirst().constFirst()));
    }
    write(commands, std::move(handler));
    if (!m_replyTimer.isActive())
        armReplyTimer();
    return true;
}

void RedisAsyncConnection::refuse(qsizetype count, const QByteArray &message, BatchHandler handler)
{
    const QList<RedisReply> replies(count, RedisReply::error(message));
    m_deliveries.push_back([handler = std::move(handler), replies] { handler(replies); });
    scheduleDispatch();
}

bool RedisAsyncConnection::sendSubscription(const Command &command)
{
    if (m_state != State::Ready || !m_context || command.isEmpty())
        return false;
    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (const QByteArray &argument : command) {
        argv.push_back(argument.constData());
        lengths.push_back(size_t(argument.size()));
    }
    return redisAsyncCommandArgv(
               m_context, &Hooks::push, nullptr, int(argv.size()), argv.data(), lengths.data())
        == REDIS_OK;
}

void RedisAsyncConnection::setPushHandler(PushHandler handler)
{
    m_pushHandler = std::move(handler);
}

void RedisAsyncConnection::startAttempt()
{
    ++m_generation;
    m_retryTimer.stop();
    QPointer<RedisAsyncConnection> guard(this);
    setState(State::Connecting);
    if (!guard)
        return;
    if (m_options.connectTimeout > 0ms)
        m_connectTimer.start(m_options.connectTimeout);
    if (QHostAddress address; address.setAddress(m_url.host)) {
        connectToAddress(m_url.host);
        return;
    }
    // hiredis would resolve the name with a blocking getaddrinfo() on this thread.
    m_lookupId = QHostInfo::lookupHost(m_url.host, this, &RedisAsyncConnection::onHostLookedUp);
}

void RedisAsyncConnection::onHostLookedUp(const QHostInfo &info)
{
    if (info.lookupId() != m_lookupId)
        return;
    m_lookupId = -1;
    if (m_state != State::Connecting)
        return;
    const QList<QHostAddress> addresses = info.addresses();
    if (info.error() != QHostInfo::NoError || addresses.isEmpty()) {
        onConnectionGone(u"cannot resolve %1: %2"_s.arg(m_url.host, info.errorString()));
        return;
    }
    // IPv4 first, as hiredis does itself: a name with both kinds is usually one machine.
    const auto ipv4 = std::find_if(addresses.begin(), addresses.end(),
        [](const QHostAddress &a) { return a.protocol() == QAbstractSocket::IPv4Protocol; });
    connectToAddress((ipv4 != addresses.end() ? *ipv4 : addresses.constFirst()).toString());
}

void RedisAsyncConnection::connectToAddress(const QString &address)
{
    const QByteArray ip = address.toLatin1();
    redisAsyncContext *context = redisAsyncConnect(ip.constData(), int(m_url.port));
    if (!context) {
        failAttemptLater(u"out of memory"_s);
        return;
    }
    if (context->err) {
        const QString reason = QString::fromLocal8Bit(context->errstr);
        redisAsyncFree(context);
        failAttemptLater(reason);
        return;
    }

    m_context = context;
    context->data = this;
    RedisReply::refuseHugeArrays(context->c.reader);
    m_readNotifier = new QSocketNotifier(context->c.fd, QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(context->c.fd, QSocketNotifier::Write, this);
    m_readNotifier->setEnabled(false);
    m_writeNotifier->setEnabled(false);
    connect(m_readNotifier, &QSocketNotifier::activated, this, [this] { onSocketActivated(true); });
    connect(
        m_writeNotifier, &QSocketNotifier::activated, this, [this] { onSocketActivated(false); });
    context->ev.data = this;
    context->ev.addRead = &Hooks::addRead;
    context->ev.delRead = &Hooks::delRead;
    context->ev.addWrite = &Hooks::addWrite;
    context->ev.delWrite = &Hooks::delWrite;
    context->ev.cleanup = &Hooks::cleanup;
    // Asks for the first write event, which tells that the non-blocking connect finished.
    redisAsyncSetConnectCallback(context, &Hooks::connected);

    // SELECT goes first on every connection: its answer proves the peer speaks Redis and
    // accepts us (not LOADING, not NOAUTH) before anyone is told the connection is Ready.
    write({ { QByteArrayLiteral("SELECT"), QByteArray::number(m_url.db) } },
        [this, generation = m_generation](const QList<RedisReply> &replies) {
            onHandshakeReplied(generation, replies.constFirst());
        });
}

quint64 RedisAsyncConnection::write(const QList<Command> &commands, BatchHandler handler)
{
    const quint64 id = m_nextId++;
    Pending pending;
    pending.handler = std::move(handler);
    pending.total = commands.size();
    pending.sentAt = std::chrono::steady_clock::now();

    std::vector<const char *> argv;
    std::vector<size_t> lengths;
    for (const Command &command : commands) {
        // hiredis asserts on an empty command; callers are expected to have refused it.
        if (command.isEmpty())
            break;
        argv.clear();
        lengths.clear();
        for (const QByteArray &argument : command) {
            argv.push_back(argument.constData());
            lengths.push_back(size_t(argument.size()));
        }
        if (redisAsyncCommandArgv(m_context, &Hooks::reply, toPrivdata(id), int(argv.size()),
                argv.data(), lengths.data())
            != REDIS_OK)
            break;
        ++pending.awaited;
    }

    if (pending.awaited > 0) {
        m_pending.emplace(id, std::move(pending));
        return id;
    }
    QList<RedisReply> replies(pending.total, RedisReply::error(kNotSent));
    m_deliveries.push_back([handler = std::move(pending.handler), replies] { handler(replies); });
    scheduleDispatch();
    return id;
}

void RedisAsyncConnection::onHandshakeReplied(quint64 generation, const RedisReply &reply)
{
    // A connection lost before answering was already dealt with by onConnectionGone().
    if (generation != m_generation || m_state != State::Connecting)
        return;
    if (reply.isError()) {
        // LOADING while Redis reads its data set, NOAUTH, a database out of range: all are
        // worth retrying, and all are worth saying.
        dropContext(u"SELECT %1 failed: %2"_s.arg(m_url.db).arg(reply.errorMessage()));
        return;
    }
    m_connectTimer.stop();
    if (m_everReady)
        qCInfo(lcRedis).noquote() << u"%1: connected again to %2"_s.arg(m_role, m_url.toString());
    else if (m_backoff.attempts() > 0)
        qCInfo(lcRedis).noquote() << u"%1: connected to %2 after %3 failed attempt(s)"_s
                                         .arg(m_role, m_url.toString())
                                         .arg(m_backoff.attempts());
    else
        qCInfo(lcRedis).noquote() << u"%1: connected to %2"_s.arg(m_role, m_url.toString());
    m_backoff.reset();
    m_everReady = true;
    QPointer<RedisAsyncConnection> guard(this);
    setState(State::Ready);
    if (!guard)
        return;
    Q_EMIT ready();
}

void RedisAsyncConnection::onReplyArrived(quint64 id, const RedisReply &reply)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending &pending = it->second;
    pending.replies.append(reply);
    if (pending.replies.size() < pending.awaited)
        return;
    QList<RedisReply> replies = std::move(pending.replies);
    while (replies.size() < pending.total)
        replies.append(RedisReply::error(kNotSent));
    m_deliveries.push_back([handler = std::move(pending.handler), replies] { handler(replies); });
    m_pending.erase(it);
}

void RedisAsyncConnection::onPushArrived(const RedisReply &reply)
{
    m_deliveries.push_back([this, reply] {
        if (m_pushHandler)
            m_pushHandler(reply);
    });
}

void RedisAsyncConnection::onSocketActivated(bool readable)
{
    if (!m_context)
        return;
    if (readable)
        redisAsyncHandleRead(m_context);
    else
        redisAsyncHandleWrite(m_context);
    afterHiredis();
}

void RedisAsyncConnection::onContextFreed()
{
    if (!m_context)
        return;
    m_freedReason
        = m_context->err ? QString::fromLocal8Bit(m_context->errstr) : u"connection closed"_s;
    // hiredis may still call back for this context (null replies, the disconnect callback):
    // they find no owner and do nothing.
    m_context->data = nullptr;
    m_context = nullptr;
    // The notifiers' file descriptor is about to be closed and reused: disable them now,
    // delete them once no activation of theirs can be on the stack.
    for (QSocketNotifier *notifier : { m_readNotifier, m_writeNotifier }) {
        if (notifier) {
            notifier->setEnabled(false);
            notifier->deleteLater();
        }
    }
    m_readNotifier = nullptr;
    m_writeNotifier = nullptr;
    m_contextFreed = true;
}

void RedisAsyncConnection::afterHiredis()
{
    if (std::exchange(m_contextFreed, false)) {
        const QString dropReason = std::exchange(m_dropReason, {});
        onConnectionGone(dropReason.isEmpty() ? m_freedReason : dropReason);
        return;
    }
    armReplyTimer();
    dispatch();
}

void RedisAsyncConnection::dropContext(const QString &reason)
{
    if (!m_context)
        return;
    m_dropReason = reason;
    redisAsyncFree(m_context);
    afterHiredis();
}

void RedisAsyncConnection::failAttemptLater(const QString &reason)
{
    // Attempts start inside connectTo(); their failures are reported from the event loop.
    QMetaObject::invokeMethod(
        this,
        [this, generation = m_generation, reason] {
            if (generation == m_generation && m_state == State::Connecting)
                onConnectionGone(reason);
        },
        Qt::QueuedConnection);
}

void RedisAsyncConnection::onConnectionGone(const QString &reason)
{
    m_connectTimer.stop();
    m_replyTimer.stop();
    if (m_lookupId >= 0) {
        QHostInfo::abortHostLookup(m_lookupId);
        m_lookupId = -1;
    }
    failPending(RedisReply::kConnectionLost);
    if (m_state == State::Disconnected) {
        dispatch();
        return;
    }

    const bool wasReady = m_state == State::Ready;
    if (wasReady)
        qCWarning(lcRedis).noquote() << u"%1: connection to %2 lost (%3); reconnecting"_s.arg(
            m_role, m_url.toString(), reason);
    else if (m_backoff.attempts() == 0)
        qCWarning(lcRedis).noquote()
            << u"%1: cannot connect to %2 (%3); retrying"_s.arg(m_role, m_url.toString(), reason);
    else // one warning per outage is enough; each retry is there for debugging
        qCDebug(lcRedis).noquote() << u"%1: attempt %2 to connect to %3 failed (%4)"_s.arg(m_role)
                                          .arg(m_backoff.attempts() + 1)
                                          .arg(m_url.toString(), reason);

    const std::chrono::milliseconds delay = m_backoff.next();
    const int attempt = m_backoff.attempts();
    m_retryTimer.start(delay);

    QPointer<RedisAsyncConnection> guard(this);
    setState(State::Backoff);
    if (!guard)
        return;
    if (wasReady)
        Q_EMIT connectionLost(reason);
    else
        Q_EMIT connectFailed(reason);
    if (!guard)
        return;
    Q_EMIT retryScheduled(attempt, delay);
    if (!guard)
        return;
    dispatch();
}

void RedisAsyncConnection::onConnectTimeout()
{
    if (m_state != State::Connecting)
        return;
    const QString reason = u"no answer within %1 ms"_s.arg(m_options.connectTimeout.count());
    if (m_context)
        dropContext(reason);
    else
        onConnectionGone(reason);
}

void RedisAsyncConnection::onReplyTimeout()
{
    if (m_state != State::Ready || m_pending.empty())
        return;
    const auto age = std::chrono::steady_clock::now() - m_pending.begin()->second.sentAt;
    if (age < m_options.replyTimeout) {
        armReplyTimer();
        return;
    }
    dropContext(u"no reply within %1 ms"_s.arg(m_options.replyTimeout.count()));
}

void RedisAsyncConnection::armReplyTimer()
{
    if (m_options.replyTimeout <= 0ms || m_state != State::Ready || m_pending.empty()) {
        m_replyTimer.stop();
        return;
    }
    const auto deadline = m_pending.begin()->second.sentAt + m_options.replyTimeout;
    const auto remaining
        = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    m_replyTimer.start(std::max(remaining, 0ms));
}

void RedisAsyncConnection::failPending(const QByteArray &message)
{
    std::map<quint64, Pending> pending = std::exchange(m_pending, {});
    for (auto &[id, request] : pending) {
        QList<RedisReply> replies = std::move(request.replies);
        while (replies.size() < request.total)
            replies.append(RedisReply::error(message));
        m_deliveries.push_back(
            [handler = std::move(request.handler), replies] { handler(replies); });
    }
}

void RedisAsyncConnection::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void RedisAsyncConnection::scheduleDispatch()
{
    if (m_dispatchScheduled)
        return;
    m_dispatchScheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_dispatchScheduled = false;
            dispatch();
        },
        Qt::QueuedConnection);
}

void RedisAsyncConnection::dispatch()
{
    // A handler that sends or closes adds deliveries; the loop below picks them up in order.
    if (m_dispatching)
        return;
    m_dispatching = true;
    QPointer<RedisAsyncConnection> guard(this);
    while (!m_deliveries.empty()) {
        const std::function<void()> delivery = std::move(m_deliveries.front());
        m_deliveries.pop_front();
        delivery();
        // A handler may delete the owner, and this with it.
        if (!guard)
            return;
    }
    m_dispatching = false;
}

} // namespace Presence::Server
