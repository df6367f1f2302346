// ServerMessages: every server message through the wire and back, literal frames, the client's
// rejections of a bad one, errors with refs and unknown codes, and forward compatibility.

// Qt
#include <QTest>

// Presence
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestServerMessages : public QObject {
    Q_OBJECT

private slots:
    void serverRoundTrip_data();
    void serverRoundTrip();
    void serverWireFormat_data();
    void serverWireFormat();
    void serverIgnoresUnknownFields_data();
    void serverIgnoresUnknownFields();
    void serverRejections_data();
    void serverRejections();
    void serverErrorCarriesRef();
    void serverUnknownErrorCode();
    void errorJsonShape();
    void errorJsonThroughTheWire();
};

void TestServerMessages::serverRoundTrip_data()
{
    QTest::addColumn<ServerMessage>("message");
    QTest::addColumn<QString>("type");
    QTest::addColumn<std::optional<QString>>("ref");

    for (const NamedServer &sample : sampleServerMessages()) {
        for (const auto &[refName, ref] : kRefs)
            QTest::addRow("%s/%s", sample.name, refName)
                << sample.message << QString::fromLatin1(sample.type) << ref;
    }
}

void TestServerMessages::serverRoundTrip()
{
    QFETCH(ServerMessage, message);
    QFETCH(QString, type);
    QFETCH(std::optional<QString>, ref);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);

    const QByteArray frame = serializeFrame(json, ref);
    QVERIFY(!frame.contains('\n'));

    const Decoded<Envelope> envelope = parseFrame(frame);
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().type, type);
    QCOMPARE(envelope.value().ref.has_value(), ref.has_value());
    if (ref)
        QCOMPARE(*envelope.value().ref, *ref);

    const Decoded<ServerMessage> decoded = decodeServerMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), message);
}

void TestServerMessages::serverWireFormat_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ServerMessage>("expected");

    QTest::addRow("welcome")
        << R"({"type":"welcome","protocol":1,"user":{"id":"alice","name":"Alice"},"heartbeat_ms":20000,
                  "limits":{"max_frame_bytes":1000,"max_subscriptions":20,"max_ids_per_request":5,
                            "max_frames_per_second":9}})"_ba
        << ServerMessage(Welcome { { u"alice"_s, u"Alice"_s }, 20000, Limits { 1000, 20, 5, 9 } });
    QTest::addRow("welcome/default-frame-rate")
        << R"({"type":"welcome","user":{"id":"a","name":""},"heartbeat_ms":1,
                  "limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1}})"_ba
        << ServerMessage(Welcome {
               { u"a"_s, QString() }, 1, Limits { 1, 1, 1, Limits().maxFramesPerSecond } });
    QTest::addRow("friends")
        << R"({"type":"friends","offset":2,"total":3,"items":[{"id":"c","name":"C"}]})"_ba
        << ServerMessage(FriendsPage { 2, 3, { { u"c"_s, u"C"_s } } });
    QTest::addRow("snapshot/no-denied")
        << R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":5},
                  {"id":"b","status":"offline","seq":6,"last_seen":1700000000000}]})"_ba
        << ServerMessage(
               Snapshot { { { u"a"_s, PresenceStatus::Away, 5, std::nullopt },
                              { u"b"_s, PresenceStatus::Offline, 6, qint64(1700000000000) } },
                   {} });
    QTest::addRow("snapshot/denied") << R"({"type":"snapshot","users":[],"denied":["z","y"]})"_ba
                                     << ServerMessage(Snapshot { {}, { u"z"_s, u"y"_s } });
    QTest::addRow("presence")
        << R"({"type":"presence","id":"bob","status":"online","seq":9007199254740991})"_ba
        << ServerMessage(PresenceEvent {
               { u"bob"_s, PresenceStatus::Online, (qint64(1) << 53) - 1, std::nullopt } });
    QTest::addRow("availability")
        << R"({"type":"availability","online":["a"],"away":[],"covered":2,"total":3})"_ba
        << ServerMessage(Availability { { u"a"_s }, {}, 2, 3 });
    QTest::addRow("availability_changed")
        << R"({"type":"availability_changed","away":["b"]})"_ba
        << ServerMessage(AvailabilityChanged { {}, { u"b"_s }, {} });
    QTest::addRow("ok") << R"({"type":"ok","ref":"1"})"_ba << ServerMessage(Ok {});
    QTest::addRow("conversations")
        << R"({"type":"conversations","ref":"c1","more":false,"items":[
                  {"with":"bob","read":"m1.1","unread":1,
                   "last":{"id":"m1.2","from":"bob","to":"alice","text":"hi","ts":5}},
                  {"with":"carol","unread":0,
                   "last":{"id":"m1.0","from":"alice","to":"carol","text":"yo","ts":4}}]})"_ba
        << ServerMessage(ConversationsPage {
               { { u"bob"_s, { u"m1.2"_s, u"bob"_s, u"alice"_s, u"hi"_s, 5 }, u"m1.1"_s, 1 },
                   { u"carol"_s, { u"m1.0"_s, u"alice"_s, u"carol"_s, u"yo"_s, 4 }, std::nullopt,
                       0 } },
               false });
    QTest::addRow("read_marker")
        << R"({"type":"read_marker","with":"bob","up_to":"m1.2","unread":0})"_ba
        << ServerMessage(ReadMarkerEvent { u"bob"_s, u"m1.2"_s, 0 });
    QTest::addRow("pong") << R"({"type":"pong"})"_ba << ServerMessage(Pong {});
    QTest::addRow("token_expiring")
        << R"({"type":"token_expiring","in_ms":1500})"_ba << ServerMessage(TokenExpiring { 1500 });
    QTest::addRow("friends_changed")
        << R"({"type":"friends_changed","added":[{"id":"dave","name":"Dave"}],"removed":["bob"],"total":4})"_ba
        << ServerMessage(FriendsChanged { { { u"dave"_s, u"Dave"_s } }, { u"bob"_s }, 4 });
    QTest::addRow("error/no-message")
        << R"({"type":"error","code":"rate_limited"})"_ba
        << ServerMessage(ErrorMessage { ErrorCode::RateLimited, u"rate_limited"_s, QString() });
    QTest::addRow("error/message")
        << R"({"type":"error","code":"forbidden","message":"not your friend"})"_ba
        << ServerMessage(
               ErrorMessage { ErrorCode::Forbidden, u"forbidden"_s, u"not your friend"_s });
}

void TestServerMessages::serverWireFormat()
{
    QFETCH(QByteArray, frame);
    QFETCH(ServerMessage, expected);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), expected);
}

void TestServerMessages::serverIgnoresUnknownFields_data()
{
    QTest::addColumn<ServerMessage>("message");
    QTest::addColumn<QByteArray>("frame");

    for (const NamedServer &sample : sampleServerMessages())
        QTest::addRow("%s", sample.name)
            << sample.message << serializeFrame(withUnknownFields(toJson(sample.message)));

    // Unknown fields inside nested objects too.
    QTest::addRow("nested/welcome")
        << ServerMessage(Welcome { { u"a"_s, u"A"_s }, 5, Limits { 6, 7, 8, 9 } })
        << R"({"type":"welcome","user":{"id":"a","name":"A","avatar":"x.png"},"heartbeat_ms":5,
                  "limits":{"max_frame_bytes":6,"max_subscriptions":7,"max_ids_per_request":8,
                            "max_frames_per_second":9,"max_future":10},"features":["x"]})"_ba;
    QTest::addRow("nested/friends")
        << ServerMessage(FriendsPage { 0, 1, { { u"a"_s, u"A"_s } } })
        << R"({"type":"friends","offset":0,"total":1,"items":[{"id":"a","name":"A","mood":1}]})"_ba;
    QTest::addRow("nested/snapshot")
        << ServerMessage(Snapshot { { { u"a"_s, PresenceStatus::Away, 1, std::nullopt } }, {} })
        << R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":1,"device":"phone"}],"cursor":3})"_ba;
    QTest::addRow("nested/presence")
        << ServerMessage(PresenceEvent { { u"a"_s, PresenceStatus::Online, 2, std::nullopt } })
        << R"({"type":"presence","id":"a","status":"online","seq":2,"device":{"kind":"phone"}})"_ba;
}

void TestServerMessages::serverIgnoresUnknownFields()
{
    QFETCH(ServerMessage, message);
    QFETCH(QByteArray, frame);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), message);
}

void TestServerMessages::serverRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<QString>("mention");

    const auto bad = [](const char *name, const QByteArray &frame, const QString &mention) {
        QTest::addRow("%s", name) << frame << ErrorCode::BadRequest << mention;
    };
    const QByteArray limits
        = R"("limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1})"_ba;
    const QByteArray user = R"("user":{"id":"a","name":"A"})"_ba;

    bad("not-json", "{"_ba, u"JSON"_s);
    bad("array", "[]"_ba, u"object"_s);
    bad("deeply-nested", QByteArray(2000, '[') + QByteArray(2000, ']'), u"JSON"_s);
    bad("no-type", R"({"code":"x"})"_ba, u"'type'"_s);
    QTest::addRow("unknown-type") << R"({"type":"typing"})"_ba << ErrorCode::UnknownType
                                  << u"typing"_s;
    QTest::addRow("client-type") << R"({"type":"subscribe","ids":[]})"_ba << ErrorCode::UnknownType
                                 << u"subscribe"_s;

    const QByteArray last = R"("last":{"id":"m1","from":"bob","to":"a","text":"t","ts":1})"_ba;
    bad("conversations/no-items", R"({"type":"conversations","more":false})"_ba, u"'items'"_s);
    bad("conversations/no-more", R"({"type":"conversations","items":[]})"_ba, u"'more'"_s);
    bad("conversations/item-not-object", R"({"type":"conversations","items":[1],"more":false})"_ba,
        u"'items'"_s);
    bad("conversations/no-with",
        R"({"type":"conversations","more":false,"items":[{"unread":0,)"_ba + last + "}]}",
        u"'with'"_s);
    bad("conversations/no-last",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0}]})"_ba,
        u"'last'"_s);
    bad("conversations/last-without-ts",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0,)"
        R"("last":{"id":"m1","from":"bob","to":"a","text":"t"}}]})"_ba,
        u"'ts'"_s);
    bad("conversations/last-of-another-pair",
        R"({"type":"conversations","more":false,"items":[{"with":"carol","unread":0,)"_ba + last
            + "}]}",
        u"'last'"_s);
    bad("conversations/unread-negative",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":-1,)"_ba + last
            + "}]}",
        u"'unread'"_s);
    bad("conversations/no-unread",
        R"({"type":"conversations","more":false,"items":[{"with":"bob",)"_ba + last + "}]}",
        u"'unread'"_s);
    bad("conversations/read-null",
        R"({"type":"conversations","more":false,"items":[{"with":"bob","unread":0,"read":null,)"_ba
            + last + "}]}",
        u"'read'"_s);
    bad("read_marker/no-up-to", R"({"type":"read_marker","with":"bob","unread":0})"_ba,
        u"'up_to'"_s);
    bad("read_marker/bad-with", R"({"type":"read_marker","with":"","up_to":"m1","unread":0})"_ba,
        u"'with'"_s);
    bad("read_marker/unread-string",
        R"({"type":"read_marker","with":"bob","up_to":"m1","unread":"0"})"_ba, u"'unread'"_s);
    bad("read_marker/no-unread", R"({"type":"read_marker","with":"bob","up_to":"m1"})"_ba,
        u"'unread'"_s);

    bad("availability/no-online", R"({"type":"availability","away":[],"covered":0,"total":0})"_ba,
        u"'online'"_s);
    bad("availability/bad-id",
        R"({"type":"availability","online":["a b"],"away":[],"covered":1,"total":1})"_ba,
        u"'online'"_s);
    bad("availability/no-covered", R"({"type":"availability","online":[],"away":[],"total":0})"_ba,
        u"'covered'"_s);
    bad("availability/covered-over-total",
        R"({"type":"availability","online":[],"away":[],"covered":3,"total":2})"_ba,
        u"'covered'"_s);
    bad("availability_changed/not-a-list", R"({"type":"availability_changed","offline":"a"})"_ba,
        u"'offline'"_s);
    bad("presence_batch/no-updates", R"({"type":"presence_batch"})"_ba, u"'updates'"_s);
    bad("presence_batch/not-objects", R"({"type":"presence_batch","updates":["a"]})"_ba,
        u"'updates'"_s);
    bad("presence_batch/bad-entry",
        R"({"type":"presence_batch","updates":[{"id":"a","status":"busy","seq":1}]})"_ba,
        u"'status'"_s);
    bad("welcome/batch-zero",
        R"({"type":"welcome","user":{"id":"a","name":"A"},"heartbeat_ms":1,"limits":{"max_frame_bytes":1,"max_subscriptions":1,"max_ids_per_request":1},"presence_batch_ms":0})"_ba,
        u"'presence_batch_ms'"_s);
    bad("presence/status-busy", R"({"type":"presence","id":"a","status":"busy","seq":1})"_ba,
        u"'status'"_s);
    bad("presence/status-invisible",
        R"({"type":"presence","id":"a","status":"invisible","seq":1})"_ba, u"'status'"_s);
    bad("presence/status-missing", R"({"type":"presence","id":"a","seq":1})"_ba, u"'status'"_s);
    bad("presence/seq-negative", R"({"type":"presence","id":"a","status":"online","seq":-1})"_ba,
        u"'seq'"_s);
    bad("presence/seq-string", R"({"type":"presence","id":"a","status":"online","seq":"1"})"_ba,
        u"'seq'"_s);
    bad("presence/seq-fraction", R"({"type":"presence","id":"a","status":"online","seq":1.5})"_ba,
        u"'seq'"_s);
    bad("presence/seq-over-2^53",
        R"({"type":"presence","id":"a","status":"online","seq":9007199254740992})"_ba, u"'seq'"_s);
    bad("presence/seq-missing", R"({"type":"presence","id":"a","status":"online"})"_ba, u"'seq'"_s);
    bad("presence/last-seen-negative",
        R"({"type":"presence","id":"a","status":"offline","seq":1,"last_seen":-5})"_ba,
        u"'last_seen'"_s);
    bad("presence/last-seen-string",
        R"({"type":"presence","id":"a","status":"offline","seq":1,"last_seen":"yesterday"})"_ba,
        u"'last_seen'"_s);
    bad("presence/bad-id", R"({"type":"presence","id":"a b","status":"online","seq":1})"_ba,
        u"'id'"_s);
    bad("presence/no-id", R"({"type":"presence","status":"online","seq":1})"_ba, u"'id'"_s);

    bad("welcome/no-limits", R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":1})"_ba,
        u"'limits'"_s);
    bad("welcome/limits-not-object",
        R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":1,"limits":5})"_ba, u"'limits'"_s);
    bad("welcome/limits-missing-field",
        R"({"type":"welcome",)"_ba + user
            + R"(,"heartbeat_ms":1,"limits":{"max_subscriptions":1,"max_ids_per_request":1}})"_ba,
        u"'max_frame_bytes'"_s);
    bad("welcome/limits-zero",
        R"({"type":"welcome",)"_ba + user
            + R"(,"heartbeat_ms":1,"limits":{"max_frame_bytes":1,"max_subscriptions":0,"max_ids_per_request":1}})"_ba,
        u"'max_subscriptions'"_s);
    bad("welcome/no-user", R"({"type":"welcome","heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'user'"_s);
    bad("welcome/user-string",
        R"({"type":"welcome","user":"a","heartbeat_ms":1,)"_ba + limits + "}"_ba, u"'user'"_s);
    bad("welcome/user-bad-id",
        R"({"type":"welcome","user":{"id":"","name":"A"},"heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'id'"_s);
    bad("welcome/user-no-name",
        R"({"type":"welcome","user":{"id":"a"},"heartbeat_ms":1,)"_ba + limits + "}"_ba,
        u"'name'"_s);
    bad("welcome/heartbeat-zero",
        R"({"type":"welcome",)"_ba + user + R"(,"heartbeat_ms":0,)"_ba + limits + "}"_ba,
        u"'heartbeat_ms'"_s);
    bad("welcome/no-heartbeat", R"({"type":"welcome",)"_ba + user + ","_ba + limits + "}"_ba,
        u"'heartbeat_ms'"_s);

    bad("friends/items-not-objects", R"({"type":"friends","offset":0,"total":1,"items":["a"]})"_ba,
        u"field 'items' must hold objects"_s);
    bad("friends/no-items", R"({"type":"friends","offset":0,"total":1})"_ba, u"'items'"_s);
    bad("friends/item-bad-id",
        R"({"type":"friends","offset":0,"total":1,"items":[{"id":"a/b","name":""}]})"_ba,
        u"'id'"_s);
    bad("friends/no-total", R"({"type":"friends","offset":0,"items":[]})"_ba, u"'total'"_s);
    bad("friends/offset-negative", R"({"type":"friends","offset":-1,"total":0,"items":[]})"_ba,
        u"'offset'"_s);

    bad("snapshot/users-not-objects", R"({"type":"snapshot","users":["alice"]})"_ba, u"'users'"_s);
    bad("snapshot/users-numbers", R"({"type":"snapshot","users":[1,2]})"_ba, u"'users'"_s);
    bad("snapshot/users-missing", R"({"type":"snapshot","denied":[]})"_ba, u"'users'"_s);
    bad("snapshot/users-not-array", R"({"type":"snapshot","users":{"id":"a"}})"_ba, u"'users'"_s);
    bad("snapshot/user-bad-status",
        R"({"type":"snapshot","users":[{"id":"a","status":"busy","seq":1}]})"_ba, u"'status'"_s);
    bad("snapshot/second-user-bad-seq",
        R"({"type":"snapshot","users":[{"id":"a","status":"away","seq":1},{"id":"b","status":"away","seq":-1}]})"_ba,
        u"'seq'"_s);
    bad("snapshot/denied-number", R"({"type":"snapshot","users":[],"denied":[1]})"_ba,
        u"'denied'"_s);
    bad("snapshot/denied-bad-id", R"({"type":"snapshot","users":[],"denied":["é"]})"_ba,
        u"'denied'"_s);

    bad("error/no-code", R"({"type":"error","message":"m"})"_ba, u"'code'"_s);
    bad("error/code-number", R"({"type":"error","code":3})"_ba, u"'code'"_s);
    bad("error/code-empty", R"({"type":"error","code":""})"_ba, u"'code'"_s);
    bad("error/message-number", R"({"type":"error","code":"forbidden","message":1})"_ba,
        u"'message'"_s);
}

void TestServerMessages::serverRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(ErrorCode, code);
    QFETCH(QString, mention);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    const ProtocolError &error = decoded.error();
    QCOMPARE(describe(error.code), describe(code));
    QVERIFY(!error.message.isEmpty());
    QVERIFY2(error.message.contains(mention), qPrintable(error.message));
    QVERIFY(!error.ref.has_value());
}

void TestServerMessages::serverErrorCarriesRef()
{
    const Decoded<ServerMessage> bad = decodeServerFrame(
        R"({"type":"presence","id":"a","status":"busy","seq":1,"ref":"p-1"})"_ba);
    QVERIFY(!bad.ok());
    QCOMPARE(describe(bad.error().code), describe(ErrorCode::BadRequest));
    QVERIFY(bad.error().ref.has_value());
    QCOMPARE(*bad.error().ref, u"p-1"_s);

    const Decoded<ServerMessage> unknown = decodeServerFrame(R"({"type":"typing","ref":"p-2"})"_ba);
    QVERIFY(!unknown.ok());
    QCOMPARE(describe(unknown.error().code), describe(ErrorCode::UnknownType));
    QVERIFY(unknown.error().ref.has_value());
    QCOMPARE(*unknown.error().ref, u"p-2"_s);
}

void TestServerMessages::serverUnknownErrorCode()
{
    const Decoded<ServerMessage> decoded = decodeServerFrame(
        R"({"type":"error","code":"quota_exceeded","message":"slow down","ref":"q"})"_ba);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QVERIFY(std::holds_alternative<ErrorMessage>(decoded.value()));
    const ErrorMessage &error = std::get<ErrorMessage>(decoded.value());
    QCOMPARE(describe(error.code), describe(ErrorCode::Unknown));
    QCOMPARE(error.codeText, u"quota_exceeded"_s);
    QCOMPARE(error.message, u"slow down"_s);

    // Passing it on keeps the code as it was sent.
    QCOMPARE(toJson(error).value("code"_L1).toString(), u"quota_exceeded"_s);
}

void TestServerMessages::errorJsonShape()
{
    const QJsonObject expected { { "type"_L1, "error"_L1 }, { "code"_L1, "too_many_ids"_L1 },
        { "message"_L1, "x"_L1 } };
    QCOMPARE(errorJson(ProtocolError { ErrorCode::TooManyIds, u"x"_s }), expected);
}

void TestServerMessages::errorJsonThroughTheWire()
{
    const ProtocolError error { ErrorCode::Unauthorized, u"bad token"_s, u"r-9"_s };
    const Decoded<Envelope> envelope = parseFrame(serializeFrame(errorJson(error), error.ref));
    QVERIFY2(envelope.ok(), outcome(envelope).constData());
    QCOMPARE(envelope.value().ref, error.ref);

    const Decoded<ServerMessage> decoded = decodeServerMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(),
        ServerMessage(ErrorMessage { ErrorCode::Unauthorized, u"unauthorized"_s, u"bad token"_s }));
}

QTEST_GUILESS_MAIN(TestServerMessages)
#include "tst_server_messages.moc"
