#pragma once

// C++
#include <memory>

// Qt
#include <QStringList>

// Presence
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/qa/QaGateway.h"
#include "server-mock/redis/client/RedisUrl.h"
#include "server-mock/server/Gateway.h"
#include "server-mock/server/GatewayConfig.h"

// Test scenery: a small population written as a users file and an in-process gateway
// listening on a free loopback port.
struct TestUser {
    QString id;
    QStringList friends;
    QString name = {}; // defaults to the id capitalised
    QString token = {}; // defaults to "<id>-secret"
};

// Builds the directory through the real users-file parser; aborts the test on a bad file.
Presence::Server::UserDirectory makeDirectory(const QList<TestUser> &users);

// A config with short timers suited to tests (grace 300 ms, hello 1 s); bind 127.0.0.1:0.
Presence::Server::GatewayConfig testConfig();

// Starts a gateway on 127.0.0.1 with a free port; nullptr (with a qWarning) if it cannot listen.
// The gateway takes ownership of the stores (in memory when null), even when it cannot listen.
std::unique_ptr<Presence::Server::Gateway> startGateway(const QList<TestUser> &users,
    Presence::Server::GatewayConfig config = testConfig(),
    Presence::Server::PresenceStore *store = nullptr, Presence::Server::ChatStore *chats = nullptr);
// The same with faults and simulated users (QaGateway), as presence-mock-server runs it.
std::unique_ptr<Presence::Server::QaGateway> startQaGateway(const QList<TestUser> &users,
    Presence::Server::GatewayConfig config = testConfig(),
    Presence::Server::PresenceStore *store = nullptr, Presence::Server::ChatStore *chats = nullptr);

// A gateway whose presence and chats live in the Redis at `url`, under `prefix` (the store's
// grace is config's), once its store has reached Redis; nullptr (with a qWarning) otherwise.
std::unique_ptr<Presence::Server::Gateway> startRedisGateway(const QList<TestUser> &users,
    const Presence::Server::RedisUrl &url, const QByteArray &prefix,
    Presence::Server::GatewayConfig config = testConfig());
std::unique_ptr<Presence::Server::QaGateway> startRedisQaGateway(const QList<TestUser> &users,
    const Presence::Server::RedisUrl &url, const QByteArray &prefix,
    Presence::Server::GatewayConfig config = testConfig());

// "alice" -> "alice-secret": the token makeDirectory gives a user by default.
QString tokenOf(const QString &id);
