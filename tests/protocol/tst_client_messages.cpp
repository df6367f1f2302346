// ClientMessages: every client message through the wire and back, literal frames, the
// rejections with their codes and refs, and forward compatibility (unknown fields ignored).

// Qt
#include <QTest>

// Presence
#include "protocol/FrameTypes.h"
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestClientMessages : public QObject {
    Q_OBJECT

private slots:
    void clientRoundTrip_data();
    void clientRoundTrip();
    void clientWireFormat_data();
    void clientWireFormat();
    void clientRejections_data();
    void clientRejections();
    void errorsCarryValidRef_data();
    void errorsCarryValidRef();
    void invalidRefRejected_data();
    void invalidRefRejected();
    void hugeTypeNameIsNotEchoedWhole();
    void clientIgnoresUnknownFields_data();
    void clientIgnoresUnknownFields();
    void chatRequestsAreTheFourChatTypes();
};

void TestClientMessages::clientRoundTrip_data()
{
    QTest::addColumn<ClientMessage>("message");
    QTest::addColumn<QString>("type");
    QTest::addColumn<std::optional<QString>>("ref");

    for (const NamedClient &sample : sampleClientMessages()) {
        for (const auto &[refName, ref] : kRefs)
            QTest::addRow("%s/%s", sample.name, refName)
                << sample.message << QString::fromLatin1(sample.type) << ref;
    }
}

void TestClientMessages::clientRoundTrip()
{
    QFETCH(ClientMessage, message);
    QFETCH(QString, type);
    QFETCH(std::optional<QString>, ref);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);

    const QByteArray frame = serializeFrame(json, ref);
    QVERIFY(!frame.contains('\n'));
    QCOMPARE(frame.contains("\"ref\""_ba), ref.has_value());

    const Decoded<Envelope> envelope = parseFrame(frame);
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().type, type);
    QCOMPARE(envelope.value().ref.has_value(), ref.has_value());
    if (ref)
        QCOMPARE(*envelope.value().ref, *ref);

    // The QString overload of parseFrame sees the same frame.
    const Decoded<Envelope> fromText = parseFrame(QString::fromUtf8(frame));
    QVERIFY2(fromText.ok(), outcome(fromText).constData());
    QCOMPARE(fromText.value().body, envelope.value().body);

    const Decoded<ClientMessage> decoded = decodeClientMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), message);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(toJson(decoded.value()), json);
}

void TestClientMessages::clientWireFormat_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ClientMessage>("expected");

    QTest::addRow("hello/minimal") << R"({"type":"hello","token":"abc","protocol":1})"_ba
                                   << ClientMessage(Hello { u"abc"_s, 1, QString(), std::nullopt });
    QTest::addRow("hello/full")
        << R"({"type":"hello","token":"abc","protocol":1,"client":"desk/2.0","status":"invisible"})"_ba
        << ClientMessage(Hello { u"abc"_s, 1, u"desk/2.0"_s, ChosenStatus::Invisible });
    // The decoder passes any version through: refusing it is the gateway's decision.
    QTest::addRow("hello/other-protocol")
        << R"({"type":"hello","token":"abc","protocol":2})"_ba
        << ClientMessage(Hello { u"abc"_s, 2, QString(), std::nullopt });
    QTest::addRow("hello/longest-token")
        << frameOf({ { "type"_L1, "hello"_L1 }, { "token"_L1, QString(kMaxTokenLength, u't') },
               { "protocol"_L1, 1 }, { "client"_L1, QString(kMaxClientNameLength, u'c') } })
        << ClientMessage(Hello { QString(kMaxTokenLength, u't'), 1,
               QString(kMaxClientNameLength, u'c'), std::nullopt });
    QTest::addRow("friends/defaults")
        << R"({"type":"friends"})"_ba << ClientMessage(FriendsRequest { 0, kDefaultFriendsLimit });
    QTest::addRow("friends/limit-1") << R"({"type":"friends","offset":0,"limit":1})"_ba
                                     << ClientMessage(FriendsRequest { 0, 1 });
    QTest::addRow("friends/limit-1000") << R"({"type":"friends","offset":2000,"limit":1000})"_ba
                                        << ClientMessage(FriendsRequest { 2000, 1000 });
    QTest::addRow("friends/offset-only")
        << R"({"type":"friends","offset":10})"_ba
        << ClientMessage(FriendsRequest { 10, kDefaultFriendsLimit });
    QTest::addRow("subscribe/empty")
        << R"({"type":"subscribe","ids":[]})"_ba << ClientMessage(SubscribeRequest {});
    QTest::addRow("subscribe/duplicates-kept")
        << R"({"type":"subscribe","ids":["a","b","a"]})"_ba
        << ClientMessage(SubscribeRequest { { u"a"_s, u"b"_s, u"a"_s } });
    QTest::addRow("unsubscribe") << R"({"type":"unsubscribe","ids":["x.y"]})"_ba
                                 << ClientMessage(UnsubscribeRequest { { u"x.y"_s } });
    QTest::addRow("set_status/away") << R"({"type":"set_status","status":"away"})"_ba
                                     << ClientMessage(SetStatusRequest { ChosenStatus::Away });
    QTest::addRow("set_status/invisible")
        << R"({"type":"set_status","status":"invisible"})"_ba
        << ClientMessage(SetStatusRequest { ChosenStatus::Invisible });
    QTest::addRow("set_status/online") << R"({"type":"set_status","status":"online"})"_ba
                                       << ClientMessage(SetStatusRequest { ChosenStatus::Online });
    QTest::addRow("ping") << R"({"type":"ping"})"_ba << ClientMessage(PingRequest {});
    QTest::addRow("refresh") << R"({"type":"refresh","token":"a.b.c"})"_ba
                             << ClientMessage(RefreshRequest { u"a.b.c"_s });
    QTest::addRow("conversations/defaults")
        << R"({"type":"conversations"})"_ba << ClientMessage(ConversationsRequest { 50 });
    QTest::addRow("conversations/limit-200") << R"({"type":"conversations","limit":200.0})"_ba
                                             << ClientMessage(ConversationsRequest { 200 });
    QTest::addRow("read") << R"({"type":"read","with":"bob","up_to":"m1.2","ref":"r1"})"_ba
                          << ClientMessage(ReadRequest { u"bob"_s, u"m1.2"_s });
    QTest::addRow("ping/whitespace")
        << " \n{ \"type\" : \"ping\" }\n "_ba << ClientMessage(PingRequest {});
}

void TestClientMessages::clientWireFormat()
{
    QFETCH(QByteArray, frame);
    QFETCH(ClientMessage, expected);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), expected);
}

void TestClientMessages::clientRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("mention"); // what the message must name

    const auto bad = [](const char *name, const QByteArray &frame, const QString &mention) {
        QTest::addRow("%s", name) << frame << ErrorCode::BadRequest << mention;
    };
    const auto hello = [](const QString &token, const QJsonValue &protocol) {
        QJsonObject object { { "type"_L1, "hello"_L1 }, { "token"_L1, token } };
        object.insert("protocol"_L1, protocol);
        return object;
    };
    const auto withField = [](QJsonObject object, QLatin1StringView key, const QJsonValue &value) {
        object.insert(key, value);
        return frameOf(object);
    };
    const QByteArray deepArrays = QByteArray(2000, '[') + QByteArray(2000, ']');

    // Not a JSON object.
    bad("not-json", "hello"_ba, u"JSON"_s);
    bad("empty-frame", ""_ba, u"JSON"_s);
    bad("truncated", R"({"type":"ping")"_ba, u"JSON"_s);
    bad("truncated-string", R"({"type":"pi)"_ba, u"JSON"_s);
    bad("trailing-garbage", R"({"type":"ping"} x)"_ba, u"JSON"_s);
    bad("two-objects", R"({"type":"ping"}{"type":"ping"})"_ba, u"JSON"_s);
    bad("invalid-utf8", "{\"type\":\"ping\",\"x\":\"\xff\xfe\"}"_ba, u"JSON"_s);
    bad("single-quotes", "{'type':'ping'}"_ba, u"JSON"_s);
    bad("array", R"([{"type":"ping"}])"_ba, u"object"_s);
    bad("empty-array", "[]"_ba, u"object"_s);
    bad("number", "42"_ba, u"JSON"_s);
    bad("string", R"("ping")"_ba, u"JSON"_s);
    bad("null", "null"_ba, u"JSON"_s);
    bad("true", "true"_ba, u"JSON"_s);
    bad("deeply-nested-arrays", deepArrays, u"JSON"_s);
    QByteArray deepObjects;
    for (int i = 0; i < 2000; ++i)
        deepObjects += R"({"a":)"_ba;
    deepObjects += "1"_ba + QByteArray(2000, '}');
    bad("deeply-nested-objects", deepObjects, u"JSON"_s);
    bad("deeply-nested-in-field", R"({"type":"ping","x":)"_ba + deepArrays + "}"_ba, u"JSON"_s);
    bad("number-too-large", R"({"type":"friends","limit":1e400})"_ba, u"JSON"_s);

    // The type.
    bad("empty-object", "{}"_ba, u"'type'"_s);
    bad("missing-type", R"({"token":"t","protocol":1})"_ba, u"'type'"_s);
    bad("type-number", R"({"type":1})"_ba, u"'type'"_s);
    bad("type-null", R"({"type":null})"_ba, u"'type'"_s);
    bad("type-array", R"({"type":["ping"]})"_ba, u"'type'"_s);
    bad("type-object", R"({"type":{"name":"ping"}})"_ba, u"'type'"_s);
    bad("type-empty", R"({"type":""})"_ba, u"'type'"_s);
    QTest::addRow("unknown-type") << R"({"type":"unknown_type"})"_ba << ErrorCode::UnknownType
                                  << u"unknown_type"_s;
    QTest::addRow("type-wrong-case")
        << R"({"type":"Ping"})"_ba << ErrorCode::UnknownType << u"Ping"_s;
    QTest::addRow("type-padded") << R"({"type":" ping"})"_ba << ErrorCode::UnknownType << u"ping"_s;
    QTest::addRow("server-type-welcome")
        << R"({"type":"welcome"})"_ba << ErrorCode::UnknownType << u"welcome"_s;
    QTest::addRow("server-type-pong")
        << R"({"type":"pong"})"_ba << ErrorCode::UnknownType << u"pong"_s;

    // hello.
    bad("hello/no-token", R"({"type":"hello","protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-number", R"({"type":"hello","token":5,"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-null", R"({"type":"hello","token":null,"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-array", R"({"type":"hello","token":["t"],"protocol":1})"_ba, u"'token'"_s);
    bad("hello/token-empty", R"({"type":"hello","token":"","protocol":1})"_ba, u"'token'"_s);
    bad("refresh/no-token", frameOf({ { "type"_L1, "refresh"_L1 } }), u"'token'"_s);
    bad("refresh/empty-token", frameOf({ { "type"_L1, "refresh"_L1 }, { "token"_L1, ""_L1 } }),
        u"'token'"_s);
    bad("refresh/token-4097",
        frameOf(
            { { "type"_L1, "refresh"_L1 }, { "token"_L1, QString(kMaxTokenLength + 1, u't') } }),
        u"'token'"_s);
    bad("hello/token-4097", frameOf(hello(QString(kMaxTokenLength + 1, u't'), 1)), u"'token'"_s);
    bad("hello/no-protocol", R"({"type":"hello","token":"t"})"_ba, u"'protocol'"_s);
    bad("hello/protocol-string", R"({"type":"hello","token":"t","protocol":"1"})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-1.5", R"({"type":"hello","token":"t","protocol":1.5})"_ba, u"'protocol'"_s);
    bad("hello/protocol-negative", R"({"type":"hello","token":"t","protocol":-1})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-bool", R"({"type":"hello","token":"t","protocol":true})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-null", R"({"type":"hello","token":"t","protocol":null})"_ba,
        u"'protocol'"_s);
    bad("hello/protocol-over-int", R"({"type":"hello","token":"t","protocol":2147483648})"_ba,
        u"'protocol'"_s);
    bad("hello/client-number", withField(hello(u"t"_s, 1), "client"_L1, 3), u"'client'"_s);
    bad("hello/client-129",
        withField(hello(u"t"_s, 1), "client"_L1, QString(kMaxClientNameLength + 1, u'c')),
        u"'client'"_s);
    bad("hello/status-busy", withField(hello(u"t"_s, 1), "status"_L1, u"busy"_s), u"'status'"_s);
    bad("hello/status-offline", withField(hello(u"t"_s, 1), "status"_L1, u"offline"_s),
        u"'status'"_s);
    bad("hello/status-empty", withField(hello(u"t"_s, 1), "status"_L1, u""_s), u"'status'"_s);
    bad("hello/status-uppercase", withField(hello(u"t"_s, 1), "status"_L1, u"ONLINE"_s),
        u"'status'"_s);
    bad("hello/status-number", withField(hello(u"t"_s, 1), "status"_L1, 1), u"'status'"_s);
    bad("hello/status-null", withField(hello(u"t"_s, 1), "status"_L1, QJsonValue()), u"'status'"_s);
    for (const auto &[name, window] : { std::pair { "hello/batch-9", QJsonValue(9) },
             std::pair { "hello/batch-1001", QJsonValue(1001) },
             std::pair { "hello/batch-0", QJsonValue(0) },
             std::pair { "hello/batch-fraction", QJsonValue(50.5) },
             std::pair { "hello/batch-string", QJsonValue(u"50"_s) },
             std::pair { "hello/batch-null", QJsonValue() } })
        bad(name, withField(hello(u"t"_s, 1), "presence_batch_ms"_L1, window),
            u"'presence_batch_ms'"_s);

    // friends.
    bad("friends/limit-0", R"({"type":"friends","limit":0})"_ba, u"'limit'"_s);
    bad("friends/limit-1001", R"({"type":"friends","limit":1001})"_ba, u"'limit'"_s);
    bad("friends/limit-negative", R"({"type":"friends","limit":-5})"_ba, u"'limit'"_s);
    bad("friends/limit-string", R"({"type":"friends","limit":"10"})"_ba, u"'limit'"_s);
    bad("friends/limit-fraction", R"({"type":"friends","limit":10.5})"_ba, u"'limit'"_s);
    bad("friends/limit-null", R"({"type":"friends","limit":null})"_ba, u"'limit'"_s);
    bad("friends/offset-negative", R"({"type":"friends","offset":-1})"_ba, u"'offset'"_s);
    bad("friends/offset-string", R"({"type":"friends","offset":"3"})"_ba, u"'offset'"_s);
    bad("friends/offset-over-int", R"({"type":"friends","offset":2147483648})"_ba, u"'offset'"_s);

    // subscribe / unsubscribe.
    bad("subscribe/no-ids", R"({"type":"subscribe"})"_ba, u"'ids'"_s);
    bad("subscribe/ids-string", R"({"type":"subscribe","ids":"alice"})"_ba, u"'ids'"_s);
    bad("subscribe/ids-null", R"({"type":"subscribe","ids":null})"_ba, u"'ids'"_s);
    bad("subscribe/ids-object", R"({"type":"subscribe","ids":{"a":1}})"_ba, u"'ids'"_s);
    bad("subscribe/ids-number", R"({"type":"subscribe","ids":[1]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/ids-second-number", R"({"type":"subscribe","ids":["alice",2]})"_ba,
        u"'ids' item 1"_s);
    bad("subscribe/ids-null-item", R"({"type":"subscribe","ids":["a","b",null]})"_ba,
        u"'ids' item 2"_s);
    bad("subscribe/ids-nested", R"({"type":"subscribe","ids":[[["a"]]]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/ids-object-item", R"({"type":"subscribe","ids":[{"id":"a"}]})"_ba,
        u"'ids' item 0"_s);
    bad("subscribe/id-65",
        frameOf({ { "type"_L1, "subscribe"_L1 },
            { "ids"_L1, QJsonArray { u"ok"_s, QString(kMaxIdLength + 1, u'a') } } }),
        u"'ids' item 1"_s);
    bad("subscribe/id-empty", R"({"type":"subscribe","ids":[""]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-space", R"({"type":"subscribe","ids":["a b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-slash", R"({"type":"subscribe","ids":["a/b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-unicode", R"({"type":"subscribe","ids":["caf\u00e9"]})"_ba,
        u"'ids' item 0"_s);
    bad("subscribe/id-at", R"({"type":"subscribe","ids":["a@b"]})"_ba, u"'ids' item 0"_s);
    bad("subscribe/id-nul", R"({"type":"subscribe","ids":["a\u0000b"]})"_ba, u"'ids' item 0"_s);
    bad("unsubscribe/no-ids", R"({"type":"unsubscribe"})"_ba, u"'ids'"_s);
    bad("unsubscribe/id-bad", R"({"type":"unsubscribe","ids":["ok","no!"]})"_ba, u"'ids' item 1"_s);

    // conversations.
    bad("conversations/limit-0", R"({"type":"conversations","limit":0})"_ba, u"'limit'"_s);
    bad("conversations/limit-201", R"({"type":"conversations","limit":201})"_ba, u"'limit'"_s);
    bad("conversations/limit-string", R"({"type":"conversations","limit":"5"})"_ba, u"'limit'"_s);
    bad("conversations/limit-fraction", R"({"type":"conversations","limit":2.5})"_ba, u"'limit'"_s);
    bad("conversations/limit-null", R"({"type":"conversations","limit":null})"_ba, u"'limit'"_s);

    // read.
    bad("read/no-with", R"({"type":"read","up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/with-number", R"({"type":"read","with":7,"up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/with-bad", R"({"type":"read","with":"b b","up_to":"m1.1"})"_ba, u"'with'"_s);
    bad("read/no-up-to", R"({"type":"read","with":"bob"})"_ba, u"'up_to'"_s);
    bad("read/up-to-null", R"({"type":"read","with":"bob","up_to":null})"_ba, u"'up_to'"_s);
    bad("read/up-to-number", R"({"type":"read","with":"bob","up_to":12})"_ba, u"'up_to'"_s);
    bad("read/up-to-empty", R"({"type":"read","with":"bob","up_to":""})"_ba, u"'up_to'"_s);
    bad("read/up-to-slash", R"({"type":"read","with":"bob","up_to":"m1/2"})"_ba, u"'up_to'"_s);
    bad("read/up-to-65",
        withField({ { "type"_L1, "read"_L1 }, { "with"_L1, "bob"_L1 } }, "up_to"_L1,
            QString(kMaxIdLength + 1, u'm')),
        u"'up_to'"_s);
    bad("read/camel-case-upTo", R"({"type":"read","with":"bob","upTo":"m1.2"})"_ba, u"'up_to'"_s);

    // set_status.
    bad("set_status/offline", R"({"type":"set_status","status":"offline"})"_ba, u"'status'"_s);
    bad("set_status/busy", R"({"type":"set_status","status":"busy"})"_ba, u"'status'"_s);
    bad("set_status/missing", R"({"type":"set_status"})"_ba, u"'status'"_s);
    bad("set_status/empty", R"({"type":"set_status","status":""})"_ba, u"'status'"_s);
    bad("set_status/number", R"({"type":"set_status","status":0})"_ba, u"'status'"_s);
    bad("set_status/very-long",
        withField({ { "type"_L1, "set_status"_L1 } }, "status"_L1, QString(10000, u'a')),
        u"'status'"_s);
}

void TestClientMessages::clientRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, mention);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    const ProtocolError &error = decoded.error();
    QCOMPARE(describe(error.code), describe(code));
    QVERIFY(!error.message.isEmpty());
    QVERIFY2(error.message.contains(mention), qPrintable(error.message));
    QVERIFY2(error.message.size() < 300, qPrintable(error.message.left(300)));
    QVERIFY(!error.ref.has_value());
}

void TestClientMessages::errorsCarryValidRef_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("ref");

    const QString longest(kMaxRefLength, u'k');
    QTest::addRow("missing-type") << R"({"ref":"r-7"})"_ba << ErrorCode::BadRequest << u"r-7"_s;
    QTest::addRow("empty-type") << R"({"type":"","ref":"r-7"})"_ba << ErrorCode::BadRequest
                                << u"r-7"_s;
    QTest::addRow("type-number") << R"({"type":3,"ref":"r-7"})"_ba << ErrorCode::BadRequest
                                 << u"r-7"_s;
    QTest::addRow("unknown-type") << R"({"type":"unknown_type","ref":"r-8"})"_ba
                                  << ErrorCode::UnknownType << u"r-8"_s;
    QTest::addRow("hello-no-token")
        << R"({"type":"hello","protocol":1,"ref":"h"})"_ba << ErrorCode::BadRequest << u"h"_s;
    QTest::addRow("friends-limit")
        << R"({"ref":"f1","type":"friends","limit":0})"_ba << ErrorCode::BadRequest << u"f1"_s;
    QTest::addRow("subscribe-bad-id")
        << R"({"type":"subscribe","ids":["a b"],"ref":"s"})"_ba << ErrorCode::BadRequest << u"s"_s;
    QTest::addRow("unsubscribe-no-ids")
        << R"({"type":"unsubscribe","ref":"u"})"_ba << ErrorCode::BadRequest << u"u"_s;
    QTest::addRow("set_status-offline")
        << R"({"type":"set_status","status":"offline","ref":"x"})"_ba << ErrorCode::BadRequest
        << u"x"_s;
    QTest::addRow("empty-ref") << R"({"type":"hello","ref":""})"_ba << ErrorCode::BadRequest
                               << u""_s;
    QTest::addRow("longest-ref") << frameOf(
        { { "type"_L1, "set_status"_L1 }, { "ref"_L1, longest } })
                                 << ErrorCode::BadRequest << longest;
}

void TestClientMessages::errorsCarryValidRef()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, ref);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(code));
    QVERIFY(!decoded.error().message.isEmpty());
    QVERIFY(decoded.error().ref.has_value());
    QCOMPARE(*decoded.error().ref, ref);
}

void TestClientMessages::invalidRefRejected_data()
{
    QTest::addColumn<QByteArray>("frame");

    QTest::addRow("33-chars") << frameOf(
        { { "type"_L1, "ping"_L1 }, { "ref"_L1, QString(kMaxRefLength + 1, u'r') } });
    QTest::addRow("33-chars-and-bad-type")
        << frameOf({ { "type"_L1, 7 }, { "ref"_L1, QString(kMaxRefLength + 1, u'r') } });
    QTest::addRow("number") << R"({"type":"ping","ref":42})"_ba;
    QTest::addRow("number-and-unknown-type") << R"({"type":"nope","ref":42})"_ba;
    QTest::addRow("null") << R"({"type":"ping","ref":null})"_ba;
    QTest::addRow("bool") << R"({"type":"ping","ref":true})"_ba;
    QTest::addRow("array") << R"({"type":"ping","ref":["r"]})"_ba;
    QTest::addRow("object") << R"({"type":"ping","ref":{"r":1}})"_ba;
}

void TestClientMessages::invalidRefRejected()
{
    QFETCH(QByteArray, frame);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(ErrorCode::BadRequest));
    QVERIFY2(decoded.error().message.contains(u"'ref'"_s), qPrintable(decoded.error().message));
    QVERIFY(!decoded.error().ref.has_value());
}

void TestClientMessages::hugeTypeNameIsNotEchoedWhole()
{
    const QString huge = u"zz"_s + QString(1 << 20, u'y');
    const Decoded<ClientMessage> decoded = decodeClientFrame(frameOf({ { "type"_L1, huge } }));
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(describe(decoded.error().code), describe(ErrorCode::UnknownType));
    QVERIFY(decoded.error().message.contains(u"zzyyy"_s));
    QVERIFY2(decoded.error().message.size() < 200, qPrintable(decoded.error().message.left(300)));

    const Decoded<ServerMessage> server = decodeServerFrame(frameOf({ { "type"_L1, huge } }));
    QVERIFY(!server.ok());
    QCOMPARE(describe(server.error().code), describe(ErrorCode::UnknownType));
    QVERIFY2(server.error().message.size() < 200, qPrintable(server.error().message.left(300)));
}

void TestClientMessages::clientIgnoresUnknownFields_data()
{
    QTest::addColumn<ClientMessage>("message");
    for (const NamedClient &sample : sampleClientMessages())
        QTest::addRow("%s", sample.name) << sample.message;
}

void TestClientMessages::clientIgnoresUnknownFields()
{
    QFETCH(ClientMessage, message);

    const QByteArray frame = serializeFrame(withUnknownFields(toJson(message)), u"r"_s);
    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), message);
}

void TestClientMessages::chatRequestsAreTheFourChatTypes()
{
    // What a gateway without chat refuses (--no-chat): exactly the chat frames, with the
    // decoder's own unknown_type error for each.
    const QStringList chat = { u"message"_s, u"history"_s, u"conversations"_s, u"read"_s };
    QStringList found;
    for (const NamedClient &sample : sampleClientMessages()) {
        const QString type = toJson(sample.message).value("type"_L1).toString();
        QCOMPARE(isChatRequest(sample.message), chat.contains(type));
        if (isChatRequest(sample.message) && !found.contains(type))
            found.append(type);
    }
    QVERIFY(!found.isEmpty()); // the samples hold chat requests, and others
    // Every chat type is one the protocol defines.
    for (const QString &type : chat)
        QVERIFY(clientFrameTypes().contains(type));
    const auto decoded = decodeClientFrame(R"({"type":"nope","ref":"r1"})"_ba);
    QVERIFY(!decoded.ok());
    const ProtocolError error = unknownTypeError(u"nope", u"r1"_s);
    QVERIFY(error.code == decoded.error().code);
    QCOMPARE(error.message, decoded.error().message);
    QCOMPARE(error.ref, decoded.error().ref);
}

QTEST_GUILESS_MAIN(TestClientMessages)
#include "tst_client_messages.moc"
