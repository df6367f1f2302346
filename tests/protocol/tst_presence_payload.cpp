// Tests for the presence payload of the protocol library (protocol/PresencePayload.h): one user's
// presence as JSON, the payload a Redis store publishes on a user's channel. What arrives there
// is outside input, so every malformed payload must be refused with a reason, never half read.

// C++
#include <optional>

// Qt
#include <QTest>

// Presence
#include "protocol/ErrorCode.h"
#include "protocol/PresencePayload.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;

// QCOMPARE prints these through ADL when they differ: show them as their JSON.
namespace Presence::Protocol {

char *toString(const UserPresence &presence)
{
    return QTest::toString(encodePresencePayload(presence));
}

} // namespace Presence::Protocol

class TestPresencePayload : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decodesWhatRedisPublishes_data();
    void decodesWhatRedisPublishes();
    void encodesCompactJson_data();
    void encodesCompactJson();
    void roundTrips_data();
    void roundTrips();
    void refusesMalformedPayloads_data();
    void refusesMalformedPayloads();
};

void TestPresencePayload::decodesWhatRedisPublishes_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<UserPresence>("expected");

    // The Lua scripts publish cjson.encode() of a table: any key order.
    QTest::addRow("online") << R"({"id":"bob","status":"online","seq":1})"_ba
                            << UserPresence { u"bob"_s, PresenceStatus::Online, 1, std::nullopt };
    QTest::addRow("away, keys in another order")
        << R"({"seq":7,"status":"away","id":"carol"})"_ba
        << UserPresence { u"carol"_s, PresenceStatus::Away, 7, std::nullopt };
    QTest::addRow("offline with last_seen")
        << R"({"status":"offline","seq":3,"id":"bob","last_seen":1733145600123})"_ba
        << UserPresence { u"bob"_s, PresenceStatus::Offline, 3, 1733145600123 };
    QTest::addRow("offline never seen")
        << R"({"id":"bob","status":"offline","seq":2})"_ba
        << UserPresence { u"bob"_s, PresenceStatus::Offline, 2, std::nullopt };
    QTest::addRow("seq 0") << R"({"id":"u.1-_x","status":"online","seq":0})"_ba
                           << UserPresence { u"u.1-_x"_s, PresenceStatus::Online, 0, std::nullopt };
    QTest::addRow("largest exact seq")
        << R"({"id":"bob","status":"online","seq":9007199254740991})"_ba
        << UserPresence { u"bob"_s, PresenceStatus::Online, 9007199254740991, std::nullopt };
    QTest::addRow("unknown fields ignored")
        << R"({"id":"bob","status":"away","seq":4,"device":{"kind":"phone"}})"_ba
        << UserPresence { u"bob"_s, PresenceStatus::Away, 4, std::nullopt };
    // last_seen is only ever sent with offline: with another status it means nothing.
    QTest::addRow("last_seen with online dropped")
        << R"({"id":"bob","status":"online","seq":5,"last_seen":1733145600123})"_ba
        << UserPresence { u"bob"_s, PresenceStatus::Online, 5, std::nullopt };
}

void TestPresencePayload::decodesWhatRedisPublishes()
{
    QFETCH(QByteArray, payload);
    QFETCH(UserPresence, expected);
    const auto decoded = decodePresencePayload(payload);
    QVERIFY2(decoded.ok(), qPrintable(decoded.ok() ? QString() : decoded.error().message));
    QCOMPARE(decoded.value(), expected);
}

void TestPresencePayload::encodesCompactJson_data()
{
    QTest::addColumn<UserPresence>("presence");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("online") << UserPresence { u"bob"_s, PresenceStatus::Online, 1, std::nullopt }
                            << R"({"id":"bob","seq":1,"status":"online"})"_ba;
    QTest::addRow("offline with last_seen")
        << UserPresence { u"bob"_s, PresenceStatus::Offline, 3, 1733145600123 }
        << R"({"id":"bob","last_seen":1733145600123,"seq":3,"status":"offline"})"_ba;
    QTest::addRow("offline never seen") << UserPresence { u"bob"_s, PresenceStatus::Offline, 0,
        std::nullopt } << R"({"id":"bob","seq":0,"status":"offline"})"_ba;
}

void TestPresencePayload::encodesCompactJson()
{
    QFETCH(UserPresence, presence);
    QFETCH(QByteArray, expected);
    QCOMPARE(encodePresencePayload(presence), expected);
}

void TestPresencePayload::roundTrips_data()
{
    QTest::addColumn<UserPresence>("presence");
    for (const PresenceStatus status : kAvailabilityOrder) {
        const QByteArray name = toString(status).toLatin1();
        QTest::addRow("%s", name.constData())
            << UserPresence { u"bob"_s, status, 12, std::nullopt };
    }
    QTest::addRow("offline with last_seen")
        << UserPresence { u"bob"_s, PresenceStatus::Offline, 9, 1733145600123 };
}

void TestPresencePayload::roundTrips()
{
    QFETCH(UserPresence, presence);
    const auto decoded = decodePresencePayload(encodePresencePayload(presence));
    QVERIFY(decoded.ok());
    QCOMPARE(decoded.value(), presence);
}

void TestPresencePayload::refusesMalformedPayloads_data()
{
    QTest::addColumn<QByteArray>("payload");
    QTest::addColumn<QString>("mentions"); // a part of the error message that says why

    QTest::addRow("not json") << "not json"_ba << u"not valid JSON"_s;
    QTest::addRow("empty") << QByteArray() << u"not valid JSON"_s;
    QTest::addRow("truncated") << R"({"id":"bob","status":"onl)"_ba << u"not valid JSON"_s;
    QTest::addRow("array") << R"([{"id":"bob","status":"online","seq":1}])"_ba
                           << u"must be a JSON object"_s;
    QTest::addRow("empty object") << "{}"_ba << u"'id'"_s;
    QTest::addRow("id missing") << R"({"status":"online","seq":1})"_ba << u"'id'"_s;
    QTest::addRow("id empty") << R"({"id":"","status":"online","seq":1})"_ba << u"'id'"_s;
    QTest::addRow("id with a space") << R"({"id":"a b","status":"online","seq":1})"_ba << u"'id'"_s;
    QTest::addRow("id a number") << R"({"id":7,"status":"online","seq":1})"_ba << u"'id'"_s;
    QTest::addRow("status missing") << R"({"id":"bob","seq":1})"_ba << u"'status'"_s;
    QTest::addRow("status busy") << R"({"id":"bob","status":"busy","seq":1})"_ba << u"'status'"_s;
    // Invisible is what a device chooses, never what others are told.
    QTest::addRow("status invisible")
        << R"({"id":"bob","status":"invisible","seq":1})"_ba << u"'status'"_s;
    QTest::addRow("status a number") << R"({"id":"bob","status":2,"seq":1})"_ba << u"'status'"_s;
    QTest::addRow("status in capitals")
        << R"({"id":"bob","status":"ONLINE","seq":1})"_ba << u"'status'"_s;
    QTest::addRow("seq missing") << R"({"id":"bob","status":"online"})"_ba << u"'seq'"_s;
    QTest::addRow("seq negative") << R"({"id":"bob","status":"online","seq":-1})"_ba << u"'seq'"_s;
    QTest::addRow("seq a fraction")
        << R"({"id":"bob","status":"online","seq":1.5})"_ba << u"'seq'"_s;
    QTest::addRow("seq a string") << R"({"id":"bob","status":"online","seq":"1"})"_ba << u"'seq'"_s;
    QTest::addRow("seq null") << R"({"id":"bob","status":"online","seq":null})"_ba << u"'seq'"_s;
    QTest::addRow("seq over 2^53")
        << R"({"id":"bob","status":"online","seq":9007199254740992})"_ba << u"'seq'"_s;
    QTest::addRow("last_seen negative")
        << R"({"id":"bob","status":"offline","seq":1,"last_seen":-5})"_ba << u"'last_seen'"_s;
    QTest::addRow("last_seen a string")
        << R"({"id":"bob","status":"offline","seq":1,"last_seen":"1"})"_ba << u"'last_seen'"_s;
    QTest::addRow("last_seen null")
        << R"({"id":"bob","status":"offline","seq":1,"last_seen":null})"_ba << u"'last_seen'"_s;
    QTest::addRow("last_seen a fraction")
        << R"({"id":"bob","status":"offline","seq":1,"last_seen":1.25})"_ba << u"'last_seen'"_s;
}

void TestPresencePayload::refusesMalformedPayloads()
{
    QFETCH(QByteArray, payload);
    QFETCH(QString, mentions);
    const auto decoded = decodePresencePayload(payload);
    QVERIFY2(!decoded.ok(), qPrintable(u"accepted: "_s + QString::fromUtf8(payload)));
    QVERIFY(decoded.error().code == ErrorCode::BadRequest);
    QVERIFY2(decoded.error().message.startsWith(u"presence payload: "_s),
        qPrintable(decoded.error().message));
    QVERIFY2(decoded.error().message.contains(mentions), qPrintable(decoded.error().message));
}

QTEST_GUILESS_MAIN(TestPresencePayload)

#include "tst_presence_payload.moc"
