#pragma once

// C++
#include <memory>

// Qt
#include <QByteArray>
#include <QString>

// Presence
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisUrl.h"
#include "tests/harness/RedisServer.h"

// One command, waited for with the event loop running (redisCall()); an error reply when none
// came in time.
Presence::Server::RedisReply runCommand(Presence::Server::RedisClient &client,
    const Presence::Server::RedisClient::Command &argv, int timeoutMs = 5000);

// The Redis a test program works in: the shared redis-server named by PRESENCE_TEST_REDIS_URL
// (tools/test.sh starts one for the whole suite) or, without it, a private one; a client of the
// test's own; and a key prefix per test function, so that test programs running at the same time
// on the shared server never see each other's keys or channels.
class RedisTestBed {
public:
    RedisTestBed() = default;
    RedisTestBed(const RedisTestBed &) = delete;
    RedisTestBed &operator=(const RedisTestBed &) = delete;

    // For initTestCase(): false and *error when neither Redis can be had (a shared URL that is
    // not one is an error rather than a reason to start a private server).
    [[nodiscard]] bool start(const QByteArray &programName, QString *error);

    [[nodiscard]] const Presence::Server::RedisUrl &url() const { return m_url; }
    [[nodiscard]] Presence::Server::RedisClient &client() { return *m_client; }
    // runCommand() on the test's own client.
    Presence::Server::RedisReply run(const Presence::Server::RedisClient::Command &argv)
    {
        return runCommand(*m_client, argv);
    }
    // "<program>:<pid>:<current test function>:".
    [[nodiscard]] QByteArray prefixForCurrentTest() const;
    // Deletes every key starting with prefix: the number deleted, or -1 and *error.
    qint64 deleteKeys(const QByteArray &prefix, QString *error = nullptr);

private:
    Presence::Server::RedisUrl m_url;
    std::unique_ptr<RedisServer> m_ownServer;
    std::unique_ptr<Presence::Server::RedisClient> m_client;
    QByteArray m_runPrefix;
};
