#include "server-mock/redis/client/RedisClient.h"

// C++
#include <algorithm>
#include <initializer_list>
#include <utility>

// Qt
#include <QPointer>

using namespace Qt::StringLiterals;

namespace Presence::Server {

RedisClient::RedisClient(QObject *parent)
    : RedisClient(Options {}, parent)
{
}

RedisClient::RedisClient(const Options &options, QObject *parent)
    : RedisLink(parent)
    , m_connection(new RedisAsyncConnection(u"client"_s, options, this))
{
    relay(m_connection, Ready::Relayed);
}

RedisClient::~RedisClient() = default;

void RedisClient::connectTo(const RedisUrl &url)
{
    m_connection->connectTo(url);
}

void RedisClient::close()
{
    m_connection->close();
}

RedisClient::State RedisClient::state() const
{
    return m_connection->state();
}

void RedisClient::command(
    Command argv, QObject *context, std::function<void(const RedisReply &)> done)
{
    QPointer<QObject> guard(context ? context : this);
    auto handler = [guard, done = std::move(done)](const QList<RedisReply> &replies) {
        if (guard && done)
            done(replies.constFirst());
    };
    if (const QByteArray refused = refusal(argv); !refused.isEmpty()) {
        m_connection->refuse(1, refused, std::move(handler));
        return;
    }
    if (m_connection->send({ std::move(argv) }, std::move(handler)))
        ++m_roundTrips;
}

void RedisClient::pipeline(
    QList<Command> commands, QObject *context, std::function<void(const QList<RedisReply> &)> done)
{
    QPointer<QObject> guard(context ? context : this);
    auto handler = [guard, done = std::move(done)](const QList<RedisReply> &replies) {
        if (guard && done)
            done(replies);
    };
    for (const Command &command : std::as_const(commands)) {
        if (const QByteArray refused = refusal(command); !refused.isEmpty()) {
            m_connection->refuse(commands.size(), refused, std::move(handler));
            return;
        }
    }
    // Nothing to send is no round trip.
    if (commands.isEmpty()) {
        m_connection->refuse(0, {}, std::move(handler));
        return;
    }
    if (m_connection->send(commands, std::move(handler)))
        ++m_roundTrips;
}

void RedisClient::evalScript(const RedisScript &script, QList<QByteArray> args, QObject *context,
    std::function<void(const RedisReply &)> done)
{
    QList<QByteArray> evalsha { QByteArrayLiteral("EVALSHA"), script.sha1, "0" };
    evalsha += args;
    QPointer<QObject> guard(context ? context : this);
    command(std::move(evalsha), context,
        [this, &script, guard, args = std::move(args), done = std::move(done)](
            const RedisReply &reply) {
            if (!reply.isError() || !reply.bytes.startsWith("NOSCRIPT")) {
                done(reply);
                return;
            }
            QList<QByteArray> eval { QByteArrayLiteral("EVAL"), script.source, "0" };
            eval += args;
            command(std::move(eval), guard, done);
        });
}

void RedisClient::loadScripts(const QList<const RedisScript *> &scripts)
{
    QList<Command> load;
    for (const RedisScript *script : scripts)
        load.append({ QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), script->source });
    pipeline(std::move(load), this, {}); // a failure shows up as NOSCRIPT later
}

QByteArray RedisClient::refusal(const Command &command)
{
    if (command.isEmpty())
        return QByteArrayLiteral("refused: empty command");
    const QByteArray name = command.constFirst().toUpper();
    const auto isOneOf = [&name](std::initializer_list<const char *> names) {
        return std::any_of(
            names.begin(), names.end(), [&name](const char *n) { return name == n; });
    };
    // Their replies do not come one per command: every later reply would reach the wrong
    // callback.
    if (isOneOf({ "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE",
            "SUNSUBSCRIBE", "MONITOR" }))
        return QByteArrayLiteral("refused: ") + name
            + QByteArrayLiteral(" needs a connection of its own (RedisSubscriber)");
    if (name == "CLIENT" && command.size() > 1 && command.at(1).toUpper() == "REPLY")
        return QByteArrayLiteral(
            "refused: CLIENT REPLY would pair replies with the wrong commands");
    // The database and the protocol come from the URL and are set again on every reconnect;
    // changing them here would hold only until the next one.
    if (isOneOf({ "SELECT", "RESET", "HELLO" }))
        return QByteArrayLiteral("refused: ") + name
            + QByteArrayLiteral(" would change the connection behind the client's back");
    return {};
}

} // namespace Presence::Server
