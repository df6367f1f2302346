#include "GatewayFixture.h"

// Qt
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtDebug>

// Presence
#include "server-mock/chat/MemoryChatStore.h"
#include "server-mock/directory/UsersFile.h"
#include "server-mock/presence/MemoryPresenceStore.h"
#include "server-mock/redis/RedisChatStore.h"
#include "server-mock/redis/RedisPresenceStore.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;

QString tokenOf(const QString &id)
{
    return id + u"-secret"_s;
}

UserDirectory makeDirectory(const QList<TestUser> &users)
{
    QJsonArray entries;
    for (const TestUser &user : users) {
        QString name = user.name;
        if (name.isEmpty())
            name = user.id.left(1).toUpper() + user.id.mid(1);
        entries.append(QJsonObject { { "id"_L1, user.id }, { "name"_L1, name },
            { "token"_L1, user.token.isEmpty() ? tokenOf(user.id) : user.token },
            { "friends"_L1, QJsonArray::fromStringList(user.friends) } });
    }
    const QByteArray json = QJsonDocument(QJsonObject { { "users"_L1, entries } }).toJson();
    QString error;
    auto directory = UsersFile::parse(json, u"<test users>"_s, &error);
    if (!directory)
        qFatal("bad test population: %s", qPrintable(error));
    return std::move(*directory);
}

GatewayConfig testConfig()
{
    using namespace std::chrono_literals;
    GatewayConfig config;
    config.address = QHostAddress::LocalHost;
    config.port = 0;
    config.grace = 300ms;
    config.helloTimeout = 1s;
    config.shutdownTimeout = 1s;
    config.drain = 0s; // all at once, as the tests of shutdown expect; drains set their own
    // The *_qt_transport twins (tests/CMakeLists.txt) run the same tests on Qt's QWebSocket.
    if (qEnvironmentVariable("PRESENCE_TRANSPORT") == u"qt")
        config.transport = GatewayConfig::Transport::Qt;
    return config;
}

namespace {

template <typename G>
std::unique_ptr<G> started(
    const QList<TestUser> &users, GatewayConfig config, PresenceStore *store, ChatStore *chats)
{
    // In memory unless given: the test is the composition root.
    if (!store)
        store = new MemoryPresenceStore(config.grace);
    if (!chats)
        chats = new MemoryChatStore;
    auto gateway = std::make_unique<G>(std::move(config), makeDirectory(users), store, chats);
    QString error;
    if (!gateway->listen(&error)) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    return gateway;
}

template <typename G>
std::unique_ptr<G> startedOnRedis(const QList<TestUser> &users, const RedisUrl &url,
    const QByteArray &prefix, GatewayConfig config)
{
    RedisStoreOptions options;
    options.url = url;
    options.prefix = prefix;
    options.grace = config.grace;
    auto gateway = started<G>(users, std::move(config), new RedisPresenceStore(options),
        new RedisChatStore({ url, prefix }));
    if (!gateway)
        return nullptr;
    const PresenceStore *store = gateway->store();
    if (!QTest::qWaitFor([store] { return store->isAvailable(); }, 10000)) {
        qWarning("the gateway's store did not reach Redis at %s", qPrintable(url.toString()));
        return nullptr;
    }
    return gateway;
}

} // namespace

std::unique_ptr<Gateway> startGateway(
    const QList<TestUser> &users, GatewayConfig config, PresenceStore *store, ChatStore *chats)
{
    return started<Gateway>(users, std::move(config), store, chats);
}

std::unique_ptr<QaGateway> startQaGateway(
    const QList<TestUser> &users, GatewayConfig config, PresenceStore *store, ChatStore *chats)
{
    return started<QaGateway>(users, std::move(config), store, chats);
}

std::unique_ptr<Gateway> startRedisGateway(const QList<TestUser> &users, const RedisUrl &url,
    const QByteArray &prefix, GatewayConfig config)
{
    return startedOnRedis<Gateway>(users, url, prefix, std::move(config));
}

std::unique_ptr<QaGateway> startRedisQaGateway(const QList<TestUser> &users, const RedisUrl &url,
    const QByteArray &prefix, GatewayConfig config)
{
    return startedOnRedis<QaGateway>(users, url, prefix, std::move(config));
}
