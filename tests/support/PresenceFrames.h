#pragma once

// Presence frames as docs/protocol.md spells them, for tests that compare what a client
// received with what it should have; header-only.

// C++
#include <optional>

// Qt
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// Presence
#include "GatewayFixture.h"

namespace PresenceFrames {

using namespace Qt::StringLiterals;
using namespace Qt::Literals::StringLiterals;

// alice: bob, carol, erin. bob: alice, carol. carol: everybody but erin. dave: carol only.
// erin: alice only, and never signs in unless a test says so.
inline QList<TestUser> fivePeople()
{
    return { { u"alice"_s, { u"bob"_s, u"carol"_s, u"erin"_s } }, { u"bob"_s, { u"carol"_s } },
        { u"carol"_s, { u"dave"_s } }, { u"dave"_s, {} }, { u"erin"_s, {} } };
}

// One frame as compact JSON, for QVERIFY2's message: QTest's toString() allocates a string that
// only QCOMPARE frees.
inline QByteArray compact(const QJsonObject &frame)
{
    return QJsonDocument(frame).toJson(QJsonDocument::Compact);
}

inline QByteArray dump(const QList<QJsonObject> &frames)
{
    QJsonArray array;
    for (const QJsonObject &frame : frames)
        array.append(frame);
    return QJsonDocument(array).toJson(QJsonDocument::Compact);
}

// A presence push exactly as documented: nothing more, nothing less.
inline QJsonObject push(const QString &id, const QString &status, qint64 seq,
    std::optional<qint64> lastSeen = std::nullopt)
{
    QJsonObject frame { { "type"_L1, "presence"_L1 }, { "id"_L1, id }, { "status"_L1, status },
        { "seq"_L1, seq } };
    if (lastSeen)
        frame.insert("last_seen"_L1, *lastSeen);
    return frame;
}

// A snapshot entry: a push without its type.
inline QJsonObject entry(const QString &id, const QString &status, qint64 seq,
    std::optional<qint64> lastSeen = std::nullopt)
{
    QJsonObject object = push(id, status, seq, lastSeen);
    object.remove("type"_L1);
    return object;
}

inline qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace PresenceFrames
