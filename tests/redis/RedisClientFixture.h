#pragma once

// C++
#include <algorithm>
#include <chrono>
#include <limits>

// Qt
#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QTest>

// Presence
#include "server-mock/redis/client/RedisClient.h"
#include "server-mock/redis/client/RedisReply.h"

// What the tests of RedisClient and RedisSubscriber share: quick retries, the warnings an
// outage leaves, replies read as an integer or as sorted strings; header-only.
namespace RedisClientFixture {

// Quick retries, so that reconnect tests take milliseconds.
inline Presence::Server::RedisClient::Options fastOptions()
{
    using namespace std::chrono_literals;
    Presence::Server::RedisClient::Options options;
    options.retryMin = 10ms;
    options.retryMax = 100ms;
    options.connectTimeout = 2s;
    return options;
}

// The warning an outage must leave in the log, once.
inline void expectWarning(const QString &pattern)
{
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(pattern));
}

inline qint64 integerOf(const Presence::Server::RedisReply &reply)
{
    return reply.toInteger().value_or(std::numeric_limits<qint64>::min());
}

inline QList<QByteArray> sorted(QList<QByteArray> list)
{
    std::sort(list.begin(), list.end());
    return list;
}

inline QList<QByteArray> stringsOf(const Presence::Server::RedisReply &reply)
{
    QList<QByteArray> strings;
    for (const Presence::Server::RedisReply &element : reply.elements)
        strings.append(element.bytes);
    return sorted(strings);
}

} // namespace RedisClientFixture
