#include "RedisTestBed.h"

// C++
#include <chrono>

// Qt
#include <QCoreApplication>
#include <QTest>

// Presence
#include "tests/harness/RedisCall.h"

using namespace Presence::Server;

RedisReply runCommand(RedisClient &client, const RedisClient::Command &argv, int timeoutMs)
{
    return redisCall(client, argv, std::chrono::milliseconds(timeoutMs))
        .value_or(RedisReply::error("test: no reply in time"));
}

bool RedisTestBed::start(const QByteArray &programName, QString *error)
{
    QString problem;
    if (const auto shared = RedisServer::sharedFromEnvironment(&problem)) {
        m_url = *shared;
    } else if (!problem.isEmpty()) {
        *error = problem;
        return false;
    } else {
        m_ownServer = std::make_unique<RedisServer>();
        if (!m_ownServer->start()) {
            *error = m_ownServer->error();
            return false;
        }
        m_url = m_ownServer->url();
    }
    m_client = std::make_unique<RedisClient>();
    m_client->connectTo(m_url);
    if (!QTest::qWaitFor([&] { return m_client->state() == RedisClient::State::Ready; }, 10000)) {
        *error = QStringLiteral("cannot connect to %1").arg(m_url.toString());
        return false;
    }
    m_runPrefix = programName + ':' + QByteArray::number(QCoreApplication::applicationPid()) + ':';
    return true;
}

QByteArray RedisTestBed::prefixForCurrentTest() const
{
    return m_runPrefix + QTest::currentTestFunction() + ':';
}

qint64 RedisTestBed::deleteKeys(const QByteArray &prefix, QString *error)
{
    const RedisReply deleted = runCommand(*m_client,
        { "EVAL",
            "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do "
            "redis.call('DEL', k) n = n + 1 end return n",
            "0", prefix + '*' });
    const qint64 count = deleted.toInteger().value_or(-1);
    if (count < 0 && error)
        *error = deleted.errorMessage();
    return count;
}
