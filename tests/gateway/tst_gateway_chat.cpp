// 1:1 chat: the `message` and `history` frames of the protocol, and the gateway relaying
// messages between friends over real loopback sockets (acks, pushes to every device,
// history paging, offline delivery, refusals, the per-conversation cap) and its MemoryChatStore;
// the conversation list (`conversations`) and read markers (`read`, `read_marker`).

// C++
#include <functional>
#include <memory>
#include <optional>
#include <utility>

// Qt
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSet>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "PresenceFrames.h"
#include "TestClient.h"
#include "protocol/ClientMessages.h"
#include "protocol/Frame.h"
#include "protocol/Identifiers.h"
#include "protocol/ServerMessages.h"
#include "server-mock/chat/MemoryChatStore.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using Presence::Server::ChatStore;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::MemoryChatStore;

// QCOMPARE shows frames and server messages as compact JSON when they differ.
char *toString(const QJsonObject &object)
{
    return qstrdup(QJsonDocument(object).toJson(QJsonDocument::Compact).constData());
}

namespace Presence::Protocol {

char *toString(const ServerMessage &message)
{
    return qstrdup(QJsonDocument(toJson(message)).toJson(QJsonDocument::Compact).constData());
}

} // namespace Presence::Protocol

namespace {

// The gateway's own chat history (the tests run it with the in-memory store).
const MemoryChatStore &memoryChats(const Gateway &gateway)
{
    return *qobject_cast<const MemoryChatStore *>(gateway.chats());
}

using PresenceFrames::compact;
using PresenceFrames::dump;
using PresenceFrames::nowMs;

// alice: bob and carol. bob and carol are not friends of each other. dave has no friends.
QList<TestUser> population()
{
    return { { u"alice"_s, { u"bob"_s, u"carol"_s } }, { u"bob"_s, {} }, { u"carol"_s, {} },
        { u"dave"_s, {} } };
}

// A history entry: exactly the documented fields.
QJsonObject entry(
    const QString &id, const QString &from, const QString &to, const QString &text, qint64 ts)
{
    return { { "id"_L1, id }, { "from"_L1, from }, { "to"_L1, to }, { "text"_L1, text },
        { "ts"_L1, ts } };
}

// A message push: an entry with its type.
QJsonObject push(
    const QString &id, const QString &from, const QString &to, const QString &text, qint64 ts)
{
    QJsonObject frame = entry(id, from, to, text, ts);
    frame.insert("type"_L1, "message"_L1);
    return frame;
}

QByteArray frameOf(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

template <typename T> QByteArray outcome(const Decoded<T> &decoded)
{
    if (decoded.ok())
        return "decoded: "_ba + frameOf(toJson(decoded.value()));
    return toString(decoded.error().code).toUtf8() + ": "_ba + decoded.error().message.toUtf8();
}

// Client structs have no operator==: compare the chat ones field by field.
void compareClient(const ClientMessage &actual, const ClientMessage &expected)
{
    QCOMPARE(actual.index(), expected.index());
    if (const auto *send = std::get_if<SendMessageRequest>(&expected)) {
        const auto &got = std::get<SendMessageRequest>(actual);
        QCOMPARE(got.to, send->to);
        QCOMPARE(got.text, send->text);
    } else {
        const auto &history = std::get<HistoryRequest>(expected);
        const auto &got = std::get<HistoryRequest>(actual);
        QCOMPARE(got.with, history.with);
        QCOMPARE(got.before.has_value(), history.before.has_value());
        QCOMPARE(got.before.value_or(QString()), history.before.value_or(QString()));
        QCOMPARE(got.limit, history.limit);
    }
}

// Holds every history read until told to answer: the store of a gateway whose Redis answers
// after a client has hung up.
class HeldChatStore : public MemoryChatStore {
public:
    void readPage(const QString &a, const QString &b, const std::optional<QString> &before,
        int limit, QObject *context, PageCallback done) override
    {
        m_held.append([=, this] { MemoryChatStore::readPage(a, b, before, limit, context, done); });
    }
    [[nodiscard]] qsizetype heldCount() const { return m_held.size(); }
    void answerAll()
    {
        for (const auto &answer : std::exchange(m_held, {}))
            answer();
    }

private:
    QList<std::function<void()>> m_held;
};

ChatMessage sampleMessage(int n)
{
    return { u"m0000abcd.%1"_s.arg(n), u"alice"_s, u"bob.b"_s, u"hello %1 🙂 \"q\"\n"_s.arg(n),
        qint64(1700000000000) + n };
}

} // namespace

class TestGatewayChat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    // Protocol: the new frames through serialise -> parse -> decode, and their rejections.
    void clientRoundTrip_data();
    void clientRoundTrip();
    void clientWireFormat_data();
    void clientWireFormat();
    void clientRejections_data();
    void clientRejections();
    void serverRoundTrip_data();
    void serverRoundTrip();
    void serverRejections_data();
    void serverRejections();

    // The gateway over loopback.
    void messagesBothWaysWithAckAndPushes();
    void textIsStoredTrimmed();
    void longestTextIsAccepted();
    void historyAfterReconnectWithPaging();
    void offlineFriendReadsMessageInHistory();
    void nonFriendsAreForbidden();
    void badTextIsRefused_data();
    void badTextIsRefused();
    void badHistoryRequestsAreRefused_data();
    void badHistoryRequestsAreRefused();
    void historyKeepsLastThousand();
    void messagesCountTowardTheRateLimit();
    void idsDoNotRepeatAcrossRestarts();
    void conversationsNewestFirstWithPreviews();
    void unreadCountsAndReadMarkers();
    void readMarkerOnlyMovesForward();
    void badReadAndConversationsRequests_data();
    void badReadAndConversationsRequests();
    void strangerLearnsNothing();
    void answerForAGoneAskerReachesNobody();
    void withoutChatEveryChatRequestIsAnUnknownType();

    // MemoryChatStore on its own.
    void storeTimestampsNeverGoBack();
    void storeKeysConversationsByPair();
    void storeUnreadCountsOnlyWhatIsHeld();

private:
    [[nodiscard]] std::unique_ptr<TestClient> login(const QString &id);
    [[nodiscard]] static QJsonObject sendMessage(
        TestClient &client, const QString &to, const QString &text);
    [[nodiscard]] static QJsonObject history(TestClient &client, const QString &with,
        const std::optional<QString> &before = std::nullopt, std::optional<int> limit = 200);
    // Message pushes that arrived before the answer to a ping sent now (and not taken yet).
    [[nodiscard]] static QList<QJsonObject> messagesAfterRoundTrip(TestClient &client);
    [[nodiscard]] static QList<QJsonObject> markersAfterRoundTrip(TestClient &client);
    [[nodiscard]] static QJsonObject conversations(
        TestClient &client, std::optional<int> limit = std::nullopt);
    [[nodiscard]] static QJsonObject markRead(
        TestClient &client, const QString &with, const QString &upTo);
    // Sends a message and returns its history entry (empty when it was not acknowledged).
    [[nodiscard]] static QJsonObject sent(
        TestClient &client, const QString &from, const QString &to, const QString &text);
    [[nodiscard]] bool closeAndWait(TestClient &client);
    void restart(const GatewayConfig &config);

    std::unique_ptr<Gateway> m_gateway;
};

void TestGatewayChat::initTestCase()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
}

void TestGatewayChat::init()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
}

void TestGatewayChat::cleanup()
{
    m_gateway.reset();
}

void TestGatewayChat::restart(const GatewayConfig &config)
{
    m_gateway.reset();
    m_gateway = startGateway(population(), config);
    QVERIFY(m_gateway);
}

std::unique_ptr<TestClient> TestGatewayChat::login(const QString &id)
{
    return ClientSteps::signIn(m_gateway->url(), id);
}

QJsonObject TestGatewayChat::sendMessage(TestClient &client, const QString &to, const QString &text)
{
    return client.request({ { "type"_L1, "message"_L1 }, { "to"_L1, to }, { "text"_L1, text } });
}

QJsonObject TestGatewayChat::history(TestClient &client, const QString &with,
    const std::optional<QString> &before, std::optional<int> limit)
{
    QJsonObject frame { { "type"_L1, "history"_L1 }, { "with"_L1, with } };
    if (before)
        frame.insert("before"_L1, *before);
    if (limit)
        frame.insert("limit"_L1, *limit);
    return client.request(frame);
}

QList<QJsonObject> TestGatewayChat::messagesAfterRoundTrip(TestClient &client)
{
    ClientSteps::roundTrip(client);
    return client.pending(u"message"_s);
}

QList<QJsonObject> TestGatewayChat::markersAfterRoundTrip(TestClient &client)
{
    ClientSteps::roundTrip(client);
    return client.pending(u"read_marker"_s);
}

QJsonObject TestGatewayChat::conversations(TestClient &client, std::optional<int> limit)
{
    QJsonObject frame { { "type"_L1, "conversations"_L1 } };
    if (limit)
        frame.insert("limit"_L1, *limit);
    QJsonObject answer = client.request(frame);
    answer.remove("ref"_L1);
    return answer;
}

QJsonObject TestGatewayChat::markRead(TestClient &client, const QString &with, const QString &upTo)
{
    return client.request({ { "type"_L1, "read"_L1 }, { "with"_L1, with }, { "up_to"_L1, upTo } });
}

QJsonObject TestGatewayChat::sent(
    TestClient &client, const QString &from, const QString &to, const QString &text)
{
    const QJsonObject ack = sendMessage(client, to, text);
    if (ack.value("type"_L1).toString() != u"ok")
        return {};
    return entry(ack.value("id"_L1).toString(), from, to, text, ack.value("ts"_L1).toInteger());
}

bool TestGatewayChat::closeAndWait(TestClient &client)
{
    return ClientSteps::closeAndWait(*m_gateway, client);
}

// ---- protocol ------------------------------------------------------------------------------

void TestGatewayChat::clientRoundTrip_data()
{
    QTest::addColumn<ClientMessage>("message");
    QTest::addColumn<QString>("type");

    QTest::addRow("message") << ClientMessage(SendMessageRequest { u"bob"_s, u"hi"_s })
                             << u"message"_s;
    QTest::addRow("message/untrimmed-unicode")
        << ClientMessage(SendMessageRequest { u"b.o-b_1"_s, u"  Zoë 🙂 \"x\"\n\t"_s })
        << u"message"_s;
    QTest::addRow("message/longest") << ClientMessage(
        SendMessageRequest { QString(kMaxIdLength, u'a'), QString(kMaxMessageTextLength, u'é') })
                                     << u"message"_s;
    QTest::addRow("history/latest")
        << ClientMessage(HistoryRequest { u"bob"_s, std::nullopt, 50 }) << u"history"_s;
    QTest::addRow("history/before")
        << ClientMessage(HistoryRequest { u"bob"_s, u"m12ab.3z"_s, 1 }) << u"history"_s;
    QTest::addRow("history/max-limit")
        << ClientMessage(HistoryRequest { u"carol"_s, u"x"_s, kMaxHistoryLimit }) << u"history"_s;
}

void TestGatewayChat::clientRoundTrip()
{
    QFETCH(ClientMessage, message);
    QFETCH(QString, type);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);
    const QByteArray frame = serializeFrame(json, u"r-7"_s);
    const Decoded<Envelope> envelope = parseFrame(frame);
    QVERIFY(envelope.ok());
    QCOMPARE(envelope.value().ref.value_or(QString()), u"r-7"_s);
    const Decoded<ClientMessage> decoded = decodeClientMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), message);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(toJson(decoded.value()), json);
}

void TestGatewayChat::clientWireFormat_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<ClientMessage>("expected");

    QTest::addRow("message") << R"({"type":"message","to":"bob","text":"hi"})"_ba
                             << ClientMessage(SendMessageRequest { u"bob"_s, u"hi"_s });
    // The decoder keeps the text as sent; trimming is the gateway's business.
    QTest::addRow("message/padded") << R"({"type":"message","to":"bob","text":" hi \n"})"_ba
                                    << ClientMessage(SendMessageRequest { u"bob"_s, u" hi \n"_s });
    QTest::addRow("history/defaults")
        << R"({"type":"history","with":"bob"})"_ba
        << ClientMessage(HistoryRequest { u"bob"_s, std::nullopt, kDefaultHistoryLimit });
    QTest::addRow("history/full") << R"({"type":"history","with":"bob","before":"m1","limit":7})"_ba
                                  << ClientMessage(HistoryRequest { u"bob"_s, u"m1"_s, 7 });
    QTest::addRow("history/limit-1") << R"({"type":"history","with":"bob","limit":1})"_ba
                                     << ClientMessage(HistoryRequest { u"bob"_s, std::nullopt, 1 });
}

void TestGatewayChat::clientWireFormat()
{
    QFETCH(QByteArray, frame);
    QFETCH(ClientMessage, expected);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    compareClient(decoded.value(), expected);
}

void TestGatewayChat::clientRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<QString>("mention");

    const QByteArray tooLong = frameOf({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 },
        { "text"_L1, QString(kMaxMessageTextLength + 1, u'x') } });
    // Short enough once trimmed, but refused before trimming to bound the work.
    const QByteArray paddedTooLong = frameOf({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 },
        { "text"_L1, u" "_s + QString(kMaxMessageTextLength, u'x') } });

    QTest::addRow("message/no-to") << R"({"type":"message","text":"hi"})"_ba << u"'to'"_s;
    QTest::addRow("message/bad-to")
        << R"({"type":"message","to":"b b","text":"hi"})"_ba << u"'to'"_s;
    QTest::addRow("message/no-text") << R"({"type":"message","to":"bob"})"_ba << u"'text'"_s;
    QTest::addRow("message/text-number")
        << R"({"type":"message","to":"bob","text":1})"_ba << u"'text'"_s;
    QTest::addRow("message/empty")
        << R"({"type":"message","to":"bob","text":""})"_ba << u"'text'"_s;
    QTest::addRow("message/blank")
        << R"({"type":"message","to":"bob","text":" \n\t "})"_ba << u"'text'"_s;
    QTest::addRow("message/4001") << tooLong << u"'text'"_s;
    QTest::addRow("message/4001-padded") << paddedTooLong << u"'text'"_s;
    QTest::addRow("history/no-with") << R"({"type":"history"})"_ba << u"'with'"_s;
    QTest::addRow("history/bad-with") << R"({"type":"history","with":""})"_ba << u"'with'"_s;
    QTest::addRow("history/limit-0")
        << R"({"type":"history","with":"bob","limit":0})"_ba << u"'limit'"_s;
    QTest::addRow("history/limit-201")
        << R"({"type":"history","with":"bob","limit":201})"_ba << u"'limit'"_s;
    QTest::addRow("history/limit-string")
        << R"({"type":"history","with":"bob","limit":"5"})"_ba << u"'limit'"_s;
    QTest::addRow("history/before-null")
        << R"({"type":"history","with":"bob","before":null})"_ba << u"'before'"_s;
    QTest::addRow("history/before-not-id")
        << R"({"type":"history","with":"bob","before":"a/b"})"_ba << u"'before'"_s;
}

void TestGatewayChat::clientRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(QString, mention);

    const Decoded<ClientMessage> decoded = decodeClientFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(toString(decoded.error().code), u"bad_request"_s);
    QVERIFY2(decoded.error().message.contains(mention), qPrintable(decoded.error().message));
}

void TestGatewayChat::serverRoundTrip_data()
{
    QTest::addColumn<ServerMessage>("message");
    QTest::addColumn<QString>("type");

    QTest::addRow("message") << ServerMessage(MessageEvent { sampleMessage(1) }) << u"message"_s;
    QTest::addRow("message/ts-2^53-1") << ServerMessage(
        MessageEvent { { u"m1"_s, u"bob"_s, u"alice"_s, u"x"_s, (qint64(1) << 53) - 1 } })
                                       << u"message"_s;
    QTest::addRow("history/empty")
        << ServerMessage(HistoryPage { u"bob"_s, {}, false }) << u"history"_s;
    QTest::addRow("history/more") << ServerMessage(
        HistoryPage { u"bob.b"_s, { sampleMessage(1), sampleMessage(2) }, true })
                                  << u"history"_s;
    QTest::addRow("ok/plain") << ServerMessage(Ok {}) << u"ok"_s;
    QTest::addRow("ok/message-ack")
        << ServerMessage(Ok { u"m0000abcd.1z"_s, qint64(1700000000123) }) << u"ok"_s;
}

void TestGatewayChat::serverRoundTrip()
{
    QFETCH(ServerMessage, message);
    QFETCH(QString, type);

    const QJsonObject json = toJson(message);
    QCOMPARE(json.value("type"_L1).toString(), type);
    const Decoded<Envelope> envelope = parseFrame(serializeFrame(json, u"r"_s));
    QVERIFY(envelope.ok());
    QCOMPARE(envelope.value().ref.value_or(QString()), u"r"_s);
    const Decoded<ServerMessage> decoded = decodeServerMessage(envelope.value());
    QVERIFY2(decoded.ok(), outcome(decoded).constData());
    QCOMPARE(decoded.value(), message);
}

void TestGatewayChat::serverRejections_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<QString>("mention");

    QTest::addRow("message/no-id")
        << R"({"type":"message","from":"a","to":"b","text":"t","ts":1})"_ba << u"'id'"_s;
    QTest::addRow("message/bad-from")
        << R"({"type":"message","id":"m","from":"a b","to":"b","text":"t","ts":1})"_ba
        << u"'from'"_s;
    QTest::addRow("message/no-text")
        << R"({"type":"message","id":"m","from":"a","to":"b","ts":1})"_ba << u"'text'"_s;
    QTest::addRow("message/ts-negative")
        << R"({"type":"message","id":"m","from":"a","to":"b","text":"t","ts":-1})"_ba << u"'ts'"_s;
    QTest::addRow("history/no-more")
        << R"({"type":"history","with":"b","messages":[]})"_ba << u"'more'"_s;
    QTest::addRow("history/more-number")
        << R"({"type":"history","with":"b","messages":[],"more":1})"_ba << u"'more'"_s;
    QTest::addRow("history/no-messages")
        << R"({"type":"history","with":"b","more":false})"_ba << u"'messages'"_s;
    QTest::addRow("history/message-not-object")
        << R"({"type":"history","with":"b","messages":["m"],"more":false})"_ba << u"'messages'"_s;
    QTest::addRow("history/bad-entry")
        << R"({"type":"history","with":"b","messages":[{"id":"m","from":"a","to":"b","text":"t"}],"more":false})"_ba
        << u"'ts'"_s;
    QTest::addRow("ok/bad-id") << R"({"type":"ok","id":"a b","ts":1})"_ba << u"'id'"_s;
    QTest::addRow("ok/ts-string") << R"({"type":"ok","id":"m","ts":"1"})"_ba << u"'ts'"_s;
}

void TestGatewayChat::serverRejections()
{
    QFETCH(QByteArray, frame);
    QFETCH(QString, mention);

    const Decoded<ServerMessage> decoded = decodeServerFrame(frame);
    QVERIFY2(!decoded.ok(), outcome(decoded).constData());
    QCOMPARE(toString(decoded.error().code), u"bad_request"_s);
    QVERIFY2(decoded.error().message.contains(mention), qPrintable(decoded.error().message));
}

// ---- gateway -------------------------------------------------------------------------------

void TestGatewayChat::messagesBothWaysWithAckAndPushes()
{
    auto alice1 = login(u"alice"_s);
    QVERIFY(alice1);
    auto alice2 = login(u"alice"_s);
    QVERIFY(alice2);
    auto bob1 = login(u"bob"_s);
    QVERIFY(bob1);
    auto bob2 = login(u"bob"_s);
    QVERIFY(bob2);
    auto carol = login(u"carol"_s); // alice's friend, but not in this conversation
    QVERIFY(carol);

    // alice -> bob, with a ref of our own to see it echoed.
    qint64 before = nowMs();
    alice1->sendJson({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 }, { "text"_L1, "hi"_L1 },
        { "ref"_L1, "send-1"_L1 } });
    const QJsonObject ack = alice1->waitFor(u"ok"_s);
    qint64 after = nowMs();
    const QString id = ack.value("id"_L1).toString();
    const qint64 ts = ack.value("ts"_L1).toInteger(-1);
    QVERIFY2(isValidId(id), compact(ack).constData());
    QVERIFY2(ts >= before && ts <= after, compact(ack).constData());
    QCOMPARE(ack,
        (QJsonObject {
            { "type"_L1, "ok"_L1 }, { "ref"_L1, "send-1"_L1 }, { "id"_L1, id }, { "ts"_L1, ts } }));

    const QJsonObject expected = push(id, u"alice"_s, u"bob"_s, u"hi"_s, ts);
    QCOMPARE(bob1->waitFor(u"message"_s), expected);
    QCOMPARE(bob2->waitFor(u"message"_s), expected);
    QCOMPARE(alice2->waitFor(u"message"_s), expected);
    // Not back to the sending connection, and to nobody else.
    QVERIFY2(messagesAfterRoundTrip(*alice1).isEmpty(), dump(alice1->received()));
    QVERIFY2(messagesAfterRoundTrip(*carol).isEmpty(), dump(carol->received()));

    // bob -> alice from his second device.
    before = nowMs();
    const QJsonObject reply = sendMessage(*bob2, u"alice"_s, u"hello alice"_s);
    after = nowMs();
    QCOMPARE(reply.value("type"_L1).toString(), u"ok"_s);
    const QString replyId = reply.value("id"_L1).toString();
    const qint64 replyTs = reply.value("ts"_L1).toInteger(-1);
    QVERIFY2(isValidId(replyId), compact(reply).constData());
    QVERIFY(replyId != id);
    QVERIFY2(replyTs >= std::max(before, ts) && replyTs <= after, compact(reply).constData());

    const QJsonObject expectedReply
        = push(replyId, u"bob"_s, u"alice"_s, u"hello alice"_s, replyTs);
    QCOMPARE(alice1->waitFor(u"message"_s), expectedReply);
    QCOMPARE(alice2->waitFor(u"message"_s), expectedReply);
    QCOMPARE(bob1->waitFor(u"message"_s), expectedReply);
    QVERIFY2(messagesAfterRoundTrip(*bob2).isEmpty(), dump(bob2->received()));
    QVERIFY2(messagesAfterRoundTrip(*alice2).isEmpty(), dump(alice2->received()));
    QVERIFY2(messagesAfterRoundTrip(*bob1).isEmpty(), dump(bob1->received()));
    QVERIFY2(messagesAfterRoundTrip(*carol).isEmpty(), dump(carol->received()));
}

void TestGatewayChat::textIsStoredTrimmed()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);

    const QJsonObject ack = sendMessage(*alice, u"bob"_s, u" \n\t hi  there \r\n"_s);
    QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);
    const QJsonObject expected = push(ack.value("id"_L1).toString(), u"alice"_s, u"bob"_s,
        u"hi  there"_s, ack.value("ts"_L1).toInteger());
    QCOMPARE(bob->waitFor(u"message"_s), expected);
    QCOMPARE(history(*bob, u"alice"_s).value("messages"_L1).toArray(),
        (QJsonArray { entry(ack.value("id"_L1).toString(), u"alice"_s, u"bob"_s, u"hi  there"_s,
            ack.value("ts"_L1).toInteger()) }));
}

void TestGatewayChat::longestTextIsAccepted()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);

    // Characters are UTF-16 code units: 2,000 emoji are 4,000 characters.
    const QStringList texts { QString(kMaxMessageTextLength, u'x'),
        QString(kMaxMessageTextLength / 2, u'x').replace(u"x"_s, u"🙂"_s) };
    for (const QString &text : texts) {
        QCOMPARE(text.size(), kMaxMessageTextLength);
        const QJsonObject ack = sendMessage(*alice, u"bob"_s, text);
        QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);
        QCOMPARE(bob->waitFor(u"message"_s).value("text"_L1).toString(), text);
    }
}

void TestGatewayChat::historyAfterReconnectWithPaging()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);

    // Five messages, alternating sides.
    QList<QJsonObject> sent;
    for (int i = 0; i < 5; ++i) {
        TestClient &from = i % 2 == 0 ? *alice : *bob;
        const QString fromId = i % 2 == 0 ? u"alice"_s : u"bob"_s;
        const QString toId = i % 2 == 0 ? u"bob"_s : u"alice"_s;
        const QString text = u"message %1"_s.arg(i);
        const QJsonObject ack = sendMessage(from, toId, text);
        QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);
        sent.append(entry(
            ack.value("id"_L1).toString(), fromId, toId, text, ack.value("ts"_L1).toInteger()));
    }
    for (qsizetype i = 1; i < sent.size(); ++i)
        QVERIFY(sent[i].value("ts"_L1).toInteger() >= sent[i - 1].value("ts"_L1).toInteger());
    const auto idOf = [&](qsizetype i) { return sent[i].value("id"_L1).toString(); };
    const auto page = [&](qsizetype first, qsizetype last) {
        QJsonArray array;
        for (qsizetype i = first; i < last; ++i)
            array.append(sent[i]);
        return array;
    };

    QVERIFY(closeAndWait(*alice));
    alice = login(u"alice"_s);
    QVERIFY(alice);

    // Everything, oldest first; reply shape pinned.
    QJsonObject all = history(*alice, u"bob"_s);
    QVERIFY(all.value("ref"_L1).isString());
    all.remove("ref"_L1);
    QCOMPARE(all,
        (QJsonObject { { "type"_L1, "history"_L1 }, { "with"_L1, "bob"_L1 },
            { "messages"_L1, page(0, 5) }, { "more"_L1, false } }));
    // bob sees the same conversation.
    QCOMPARE(history(*bob, u"alice"_s).value("messages"_L1).toArray(), page(0, 5));

    // Paging backwards with before.
    QJsonObject latest = history(*alice, u"bob"_s, std::nullopt, 2);
    QCOMPARE(latest.value("messages"_L1).toArray(), page(3, 5));
    QCOMPARE(latest.value("more"_L1), QJsonValue(true));
    QJsonObject older = history(*alice, u"bob"_s, idOf(3), 2);
    QCOMPARE(older.value("messages"_L1).toArray(), page(1, 3));
    QCOMPARE(older.value("more"_L1), QJsonValue(true));
    QJsonObject oldest = history(*alice, u"bob"_s, idOf(1), 2);
    QCOMPARE(oldest.value("messages"_L1).toArray(), page(0, 1));
    QCOMPARE(oldest.value("more"_L1), QJsonValue(false));
    QJsonObject none = history(*alice, u"bob"_s, idOf(0), 2);
    QCOMPARE(none.value("type"_L1).toString(), u"history"_s);
    QCOMPARE(none.value("messages"_L1).toArray(), QJsonArray {});
    QCOMPARE(none.value("more"_L1), QJsonValue(false));
    // A page that ends exactly at the first message has nothing older.
    QJsonObject exact = history(*alice, u"bob"_s, idOf(2), 2);
    QCOMPARE(exact.value("messages"_L1).toArray(), page(0, 2));
    QCOMPARE(exact.value("more"_L1), QJsonValue(false));

    // An empty conversation between friends.
    QJsonObject empty = history(*alice, u"carol"_s);
    QCOMPARE(empty.value("type"_L1).toString(), u"history"_s);
    QCOMPARE(empty.value("with"_L1).toString(), u"carol"_s);
    QCOMPARE(empty.value("messages"_L1).toArray(), QJsonArray {});
    QCOMPARE(empty.value("more"_L1), QJsonValue(false));
}

void TestGatewayChat::offlineFriendReadsMessageInHistory()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    const QJsonObject ack = sendMessage(*alice, u"bob"_s, u"are you there?"_s);
    QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);

    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    // Nothing is pushed for messages sent before the connection opened ...
    QVERIFY2(messagesAfterRoundTrip(*bob).isEmpty(), dump(bob->received()));
    // ... they are in the history.
    const QJsonObject page = history(*bob, u"alice"_s);
    QCOMPARE(page.value("messages"_L1).toArray(),
        (QJsonArray { entry(ack.value("id"_L1).toString(), u"alice"_s, u"bob"_s,
            u"are you there?"_s, ack.value("ts"_L1).toInteger()) }));
    QCOMPARE(page.value("more"_L1), QJsonValue(false));
}

void TestGatewayChat::nonFriendsAreForbidden()
{
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    auto carol = login(u"carol"_s);
    QVERIFY(carol);
    auto dave = login(u"dave"_s);
    QVERIFY(dave);

    // Strangers, unknown ids and oneself look alike.
    struct Case {
        TestClient *from;
        QString to;
    };
    const QList<Case> cases { { alice.get(), u"dave"_s }, { dave.get(), u"alice"_s },
        { bob.get(), u"carol"_s }, { alice.get(), u"nobody"_s }, { alice.get(), u"alice"_s } };
    for (const Case &c : cases) {
        const QJsonObject error = sendMessage(*c.from, c.to, u"psst"_s);
        QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
        QCOMPARE(error.value("code"_L1).toString(), u"forbidden"_s);
        QVERIFY(error.value("ref"_L1).isString());
        const QJsonObject refused = history(*c.from, c.to);
        QCOMPARE(refused.value("type"_L1).toString(), u"error"_s);
        QCOMPARE(refused.value("code"_L1).toString(), u"forbidden"_s);
        QVERIFY(c.from->isOpen());
    }

    // Nothing was pushed to anyone, nothing stored.
    for (TestClient *client : { alice.get(), bob.get(), carol.get(), dave.get() })
        QVERIFY2(messagesAfterRoundTrip(*client).isEmpty(), dump(client->received()));
    QCOMPARE(memoryChats(*m_gateway).conversationCount(), 0);

    // The connection goes on working.
    QCOMPARE(sendMessage(*alice, u"bob"_s, u"still here"_s).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(bob->waitFor(u"message"_s).value("text"_L1).toString(), u"still here"_s);
    QCOMPARE(memoryChats(*m_gateway).conversationCount(), 1);
}

void TestGatewayChat::badTextIsRefused_data()
{
    QTest::addColumn<QString>("text");

    QTest::addRow("empty") << QString();
    QTest::addRow("blank") << u"   "_s;
    QTest::addRow("whitespace") << u" \n\t\r\u00a0\u2003 "_s;
    QTest::addRow("4001") << QString(kMaxMessageTextLength + 1, u'x');
    QTest::addRow("4001-emoji-units")
        << QString(kMaxMessageTextLength / 2, u'x').replace(u"x"_s, u"🙂"_s).append(u'x');
    QTest::addRow("4000-padded") << u" "_s + QString(kMaxMessageTextLength, u'x');
}

void TestGatewayChat::badTextIsRefused()
{
    QFETCH(QString, text);

    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);

    alice->sendJson({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 }, { "text"_L1, text },
        { "ref"_L1, "bad"_L1 } });
    const QJsonObject error = alice->waitFor(u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), u"bad_request"_s);
    QCOMPARE(error.value("ref"_L1).toString(), u"bad"_s);
    QVERIFY2(
        error.value("message"_L1).toString().contains(u"'text'"_s), compact(error).constData());
    QVERIFY(alice->isOpen());
    QVERIFY2(alice->pending(u"ok"_s).isEmpty(), dump(alice->received()));
    QVERIFY2(messagesAfterRoundTrip(*bob).isEmpty(), dump(bob->received()));
    QCOMPARE(memoryChats(*m_gateway).conversationCount(), 0);
    QCOMPARE(history(*alice, u"bob"_s).value("messages"_L1).toArray(), QJsonArray {});
}

void TestGatewayChat::badHistoryRequestsAreRefused_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("mention");

    QTest::addRow("unknown-before")
        << QJsonObject { { "with"_L1, "bob"_L1 }, { "before"_L1, "m-never"_L1 } } << u"'before'"_s;
    QTest::addRow("before-of-other-conversation")
        << QJsonObject { { "with"_L1, "carol"_L1 }, { "before"_L1, "FIRST"_L1 } } << u"'before'"_s;
    QTest::addRow("limit-0") << QJsonObject { { "with"_L1, "bob"_L1 }, { "limit"_L1, 0 } }
                             << u"'limit'"_s;
    QTest::addRow("limit-201") << QJsonObject { { "with"_L1, "bob"_L1 }, { "limit"_L1, 201 } }
                               << u"'limit'"_s;
    QTest::addRow("no-with") << QJsonObject { { "limit"_L1, 5 } } << u"'with'"_s;
}

void TestGatewayChat::badHistoryRequestsAreRefused()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, mention);

    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    const QJsonObject ack = sendMessage(*alice, u"bob"_s, u"first"_s);
    QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);
    if (request.value("before"_L1).toString() == u"FIRST"_s)
        request.insert("before"_L1, ack.value("id"_L1));

    request.insert("type"_L1, "history"_L1);
    const QJsonObject error = alice->request(request);
    QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), u"bad_request"_s);
    QVERIFY2(error.value("message"_L1).toString().contains(mention), compact(error).constData());
    QVERIFY(alice->isOpen());
}

void TestGatewayChat::withoutChatEveryChatRequestIsAnUnknownType()
{
    // --no-chat: the gateway answers chat as one that never had it would, each request by its
    // ref, and presence goes on.
    GatewayConfig config = testConfig();
    config.chat = false;
    restart(config);
    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    auto bob = login(u"bob"_s);
    QVERIFY(bob);
    const QList<QJsonObject> requests = {
        { { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 }, { "text"_L1, "hi"_L1 } },
        { { "type"_L1, "history"_L1 }, { "with"_L1, "bob"_L1 } },
        { { "type"_L1, "conversations"_L1 } },
        { { "type"_L1, "read"_L1 }, { "with"_L1, "bob"_L1 }, { "up_to"_L1, "x.1"_L1 } },
    };
    for (const QJsonObject &request : requests) {
        const QJsonObject answer = alice->request(request);
        QCOMPARE(answer.value("type"_L1).toString(), u"error"_s);
        QCOMPARE(answer.value("code"_L1).toString(), u"unknown_type"_s);
        QVERIFY2(
            answer.value("message"_L1).toString().contains(request.value("type"_L1).toString()),
            compact(answer).constData());
    }
    // Nothing was relayed: bob's connection, answered since, has no message waiting.
    QCOMPARE(bob->request({ { "type"_L1, "ping"_L1 } }).value("type"_L1).toString(), u"pong"_s);
    QVERIFY(bob->pending(u"message"_s).isEmpty());
    // Presence is served as ever.
    const QJsonObject subscribed
        = alice->request({ { "type"_L1, "subscribe"_L1 }, { "ids"_L1, QJsonArray { "bob"_L1 } } });
    QCOMPARE(subscribed.value("type"_L1).toString(), u"snapshot"_s);
    QVERIFY(alice->isOpen());
}

void TestGatewayChat::historyKeepsLastThousand()
{
    GatewayConfig config = testConfig();
    config.maxFramesPerSecond = 100000;
    config.frameBurst = 100000;
    restart(config);
    QCOMPARE(memoryChats(*m_gateway).capacity(), 1000);

    auto alice = login(u"alice"_s);
    QVERIFY(alice);
    constexpr int kSent = 1005;
    for (int i = 0; i < kSent; ++i)
        alice->sendJson({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 },
            { "text"_L1, u"n%1"_s.arg(i) }, { "ref"_L1, u"s%1"_s.arg(i) } });
    QTRY_COMPARE_WITH_TIMEOUT(alice->pending(u"ok"_s).size(), kSent, 10000);
    const QList<QJsonObject> acks = alice->pending(u"ok"_s);
    QStringList ids;
    for (int i = 0; i < kSent; ++i) {
        QCOMPARE(acks[i].value("ref"_L1).toString(), u"s%1"_s.arg(i));
        ids.append(acks[i].value("id"_L1).toString());
        QVERIFY2(isValidId(ids.last()), compact(acks[i]).constData());
    }
    QCOMPARE(QSet<QString>(ids.cbegin(), ids.cend()).size(), kSent);
    QVERIFY2(alice->pending(u"error"_s).isEmpty(), dump(alice->pending(u"error"_s)));

    auto bob = login(u"bob"_s);
    QVERIFY(bob);

    // The default page: the latest 50.
    const QJsonObject latest = history(*bob, u"alice"_s, std::nullopt, std::nullopt);
    const QJsonArray latestMessages = latest.value("messages"_L1).toArray();
    QCOMPARE(latestMessages.size(), 50);
    QCOMPARE(latestMessages.first().toObject().value("text"_L1).toString(), u"n955"_s);
    QCOMPARE(latestMessages.last().toObject().value("text"_L1).toString(), u"n1004"_s);
    QCOMPARE(latest.value("more"_L1), QJsonValue(true));

    // Walking back 200 at a time reaches exactly the last 1,000, in order.
    QStringList texts;
    std::optional<QString> before;
    bool more = true;
    int pages = 0;
    while (more && pages < 10) {
        const QJsonObject page = history(*bob, u"alice"_s, before, 200);
        QCOMPARE(page.value("type"_L1).toString(), u"history"_s);
        const QJsonArray messages = page.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 200);
        QStringList pageTexts;
        for (const QJsonValue &message : messages)
            pageTexts.append(message.toObject().value("text"_L1).toString());
        texts = pageTexts + texts;
        before = messages.first().toObject().value("id"_L1).toString();
        more = page.value("more"_L1).toBool();
        ++pages;
    }
    QCOMPARE(pages, 5);
    QStringList expected;
    for (int i = kSent - 1000; i < kSent; ++i)
        expected.append(u"n%1"_s.arg(i));
    QCOMPARE(texts, expected);
    QCOMPARE(*before, ids[5]);

    // The dropped messages are gone, ids and all.
    const QJsonObject gone = history(*bob, u"alice"_s, ids[4], 10);
    QCOMPARE(gone.value("code"_L1).toString(), u"bad_request"_s);
}

void TestGatewayChat::messagesCountTowardTheRateLimit()
{
    GatewayConfig config = testConfig();
    config.maxFramesPerSecond = 1;
    config.frameBurst = 4;
    restart(config);

    auto alice = login(u"alice"_s); // hello takes one token
    QVERIFY(alice);
    constexpr int kSent = 10;
    for (int i = 0; i < kSent; ++i)
        alice->sendJson({ { "type"_L1, "message"_L1 }, { "to"_L1, "bob"_L1 },
            { "text"_L1, u"n%1"_s.arg(i) }, { "ref"_L1, u"s%1"_s.arg(i) } });
    QTRY_COMPARE(alice->pending(u"ok"_s).size() + alice->pending(u"error"_s).size(), kSent);
    const QList<QJsonObject> acks = alice->pending(u"ok"_s);
    const QList<QJsonObject> errors = alice->pending(u"error"_s);
    QVERIFY2(acks.size() >= 3 && acks.size() <= 5, dump(alice->received()));
    for (const QJsonObject &error : errors)
        QCOMPARE(error.value("code"_L1).toString(), u"rate_limited"_s);

    // Only the acknowledged ones were stored.
    const auto page = memoryChats(*m_gateway).page(u"alice"_s, u"bob"_s, std::nullopt, 200);
    QVERIFY(page);
    QCOMPARE(page->messages.size(), acks.size());
    for (qsizetype i = 0; i < acks.size(); ++i)
        QCOMPARE(page->messages[i].id, acks[i].value("id"_L1).toString());
}

void TestGatewayChat::idsDoNotRepeatAcrossRestarts()
{
    QStringList firstIds;
    for (int run = 0; run < 3; ++run) {
        restart(testConfig());
        auto alice = login(u"alice"_s);
        QVERIFY(alice);
        const QJsonObject ack = sendMessage(*alice, u"bob"_s, u"hi"_s);
        QCOMPARE(ack.value("type"_L1).toString(), u"ok"_s);
        firstIds.append(ack.value("id"_L1).toString());
    }
    QCOMPARE(QSet<QString>(firstIds.cbegin(), firstIds.cend()).size(), firstIds.size());
}

namespace {

QJsonObject item(const QString &with, const QJsonObject &last, int unread,
    const std::optional<QString> &read = std::nullopt)
{
    QJsonObject object { { "with"_L1, with }, { "last"_L1, last }, { "unread"_L1, unread } };
    if (read)
        object.insert("read"_L1, *read);
    return object;
}

QJsonObject page(const QJsonArray &items, bool more = false)
{
    return { { "type"_L1, "conversations"_L1 }, { "items"_L1, items }, { "more"_L1, more } };
}

QJsonObject marker(const QString &with, const QString &upTo, int unread)
{
    return { { "type"_L1, "read_marker"_L1 }, { "with"_L1, with }, { "up_to"_L1, upTo },
        { "unread"_L1, unread } };
}

QString idOf(const QJsonObject &entry)
{
    return entry.value("id"_L1).toString();
}

} // namespace

void TestGatewayChat::conversationsNewestFirstWithPreviews()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    auto dave = login(u"dave"_s);
    QVERIFY(alice && bob && carol && dave);

    // Nothing yet: no conversation is listed, not even with friends.
    QCOMPARE(conversations(*alice), page({}));

    const QJsonObject one = sent(*alice, u"alice"_s, u"bob"_s, u"one"_s);
    const QJsonObject two = sent(*carol, u"carol"_s, u"alice"_s, u"two"_s);
    const QJsonObject three = sent(*bob, u"bob"_s, u"alice"_s, u"three"_s);
    QVERIFY(!one.isEmpty() && !two.isEmpty() && !three.isEmpty());

    // Newest activity first, whoever wrote last; unread counts only the friend's messages.
    QCOMPARE(conversations(*alice), page({ item(u"bob"_s, three, 1), item(u"carol"_s, two, 1) }));
    QCOMPARE(conversations(*bob), page({ item(u"alice"_s, three, 1) }));
    QCOMPARE(conversations(*carol), page({ item(u"alice"_s, two, 0) }));
    QCOMPARE(conversations(*dave), page({}));

    // An older conversation comes back to the top with its next message.
    const QJsonObject four = sent(*alice, u"alice"_s, u"carol"_s, u"four"_s);
    QVERIFY(!four.isEmpty());
    QCOMPARE(conversations(*alice), page({ item(u"carol"_s, four, 1), item(u"bob"_s, three, 1) }));

    // limit cuts from the oldest end and says there is more.
    QCOMPARE(conversations(*alice, 1), page({ item(u"carol"_s, four, 1) }, true));
    QCOMPARE(conversations(*alice, 2),
        page({ item(u"carol"_s, four, 1), item(u"bob"_s, three, 1) }, false));

    // The default limit is 50: 60 conversations, the newest 50.
    QList<TestUser> many { { u"hub"_s, {} } };
    for (int i = 0; i < 60; ++i)
        many[0].friends.append(u"f%1"_s.arg(i));
    for (int i = 0; i < 60; ++i)
        many.append({ u"f%1"_s.arg(i), {} });
    GatewayConfig config = testConfig();
    config.maxFramesPerSecond = 100000;
    config.frameBurst = 100000;
    m_gateway.reset();
    m_gateway = startGateway(many, config);
    QVERIFY(m_gateway);
    auto hub = login(u"hub"_s);
    QVERIFY(hub);
    for (int i = 0; i < 60; ++i)
        QVERIFY(!sent(*hub, u"hub"_s, u"f%1"_s.arg(i), u"n%1"_s.arg(i)).isEmpty());
    const QJsonObject list = conversations(*hub);
    const QJsonArray items = list.value("items"_L1).toArray();
    QCOMPARE(items.size(), kDefaultConversationsLimit);
    QCOMPARE(items.first().toObject().value("with"_L1).toString(), u"f59"_s);
    QCOMPARE(items.last().toObject().value("with"_L1).toString(), u"f10"_s);
    QCOMPARE(list.value("more"_L1), QJsonValue(true));
    QCOMPARE(conversations(*hub, 200).value("items"_L1).toArray().size(), 60);
}

void TestGatewayChat::unreadCountsAndReadMarkers()
{
    auto laptop = login(u"alice"_s);
    auto phone = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    QVERIFY(laptop && phone && bob && carol);

    QList<QJsonObject> fromBob;
    for (int i = 0; i < 3; ++i)
        fromBob.append(sent(*bob, u"bob"_s, u"alice"_s, u"b%1"_s.arg(i)));
    const QJsonObject mine = sent(*laptop, u"alice"_s, u"bob"_s, u"mine"_s);
    QVERIFY(!mine.isEmpty());
    // alice's own message does not count, nor does it read anything.
    QCOMPARE(conversations(*phone), page({ item(u"bob"_s, mine, 3) }));
    QCOMPARE(conversations(*bob), page({ item(u"alice"_s, mine, 1) }));

    // Read up to the second: ok to the sender, then the marker to every device of alice,
    // the sender included.
    laptop->sendJson({ { "type"_L1, "read"_L1 }, { "with"_L1, "bob"_L1 },
        { "up_to"_L1, idOf(fromBob[1]) }, { "ref"_L1, "read-1"_L1 } });
    const QJsonObject ok { { "type"_L1, "ok"_L1 }, { "ref"_L1, "read-1"_L1 } };
    QCOMPARE(laptop->waitFor(u"ok"_s), ok);
    const QJsonObject expected = marker(u"bob"_s, idOf(fromBob[1]), 1);
    QCOMPARE(laptop->waitFor(u"read_marker"_s), expected);
    QVERIFY2(laptop->received().indexOf(ok) < laptop->received().indexOf(expected),
        dump(laptop->received()));
    QCOMPARE(phone->waitFor(u"read_marker"_s), expected);
    // Not to bob (no read receipts), nor anyone else.
    QVERIFY2(markersAfterRoundTrip(*bob).isEmpty(), dump(bob->received()));
    QVERIFY2(markersAfterRoundTrip(*carol).isEmpty(), dump(carol->received()));
    QVERIFY2(markersAfterRoundTrip(*laptop).isEmpty(), dump(laptop->received()));

    QCOMPARE(conversations(*phone), page({ item(u"bob"_s, mine, 1, idOf(fromBob[1])) }));
    // bob's side is his own: alice reading changed nothing of it.
    QCOMPARE(conversations(*bob), page({ item(u"alice"_s, mine, 1) }));

    // A new message from bob is one more unread.
    const QJsonObject later = sent(*bob, u"bob"_s, u"alice"_s, u"later"_s);
    QCOMPARE(conversations(*laptop), page({ item(u"bob"_s, later, 2, idOf(fromBob[1])) }));

    // Reading up to one's own message reads everything before it: unread counts after it.
    QCOMPARE(markRead(*phone, u"bob"_s, idOf(mine)).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(laptop->waitFor(u"read_marker"_s), marker(u"bob"_s, idOf(mine), 1));
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, idOf(mine), 1));
    QCOMPARE(markRead(*phone, u"bob"_s, idOf(later)).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, idOf(later), 0));
    QCOMPARE(conversations(*laptop), page({ item(u"bob"_s, later, 0, idOf(later)) }));

    // A device that signs in later gets the same from conversations.
    auto tablet = login(u"alice"_s);
    QVERIFY(tablet);
    QCOMPARE(conversations(*tablet), page({ item(u"bob"_s, later, 0, idOf(later)) }));
}

void TestGatewayChat::readMarkerOnlyMovesForward()
{
    auto alice = login(u"alice"_s);
    auto phone = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && phone && bob);
    QList<QJsonObject> fromBob;
    for (int i = 0; i < 4; ++i)
        fromBob.append(sent(*bob, u"bob"_s, u"alice"_s, u"b%1"_s.arg(i)));

    QCOMPARE(markRead(*alice, u"bob"_s, idOf(fromBob[2])).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(phone->waitFor(u"read_marker"_s), marker(u"bob"_s, idOf(fromBob[2]), 1));
    QCOMPARE(alice->waitFor(u"read_marker"_s), marker(u"bob"_s, idOf(fromBob[2]), 1));

    // Older, or the same again: ok, nothing changes and nobody is told.
    for (const int older : { 0, 1, 2 }) {
        const QJsonObject answer = markRead(*alice, u"bob"_s, idOf(fromBob[older]));
        QCOMPARE(answer.value("type"_L1).toString(), u"ok"_s);
        QVERIFY2(!answer.contains("code"_L1), compact(answer).constData());
    }
    QVERIFY2(markersAfterRoundTrip(*alice).isEmpty(), dump(alice->received()));
    QVERIFY2(markersAfterRoundTrip(*phone).isEmpty(), dump(phone->received()));
    QCOMPARE(conversations(*phone), page({ item(u"bob"_s, fromBob[3], 1, idOf(fromBob[2])) }));
}

void TestGatewayChat::badReadAndConversationsRequests_data()
{
    QTest::addColumn<QJsonObject>("request");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("mention");

    const auto read = [](const QJsonValue &with, const QJsonValue &upTo) {
        QJsonObject frame { { "type"_L1, "read"_L1 } };
        if (!with.isUndefined())
            frame.insert("with"_L1, with);
        if (!upTo.isUndefined())
            frame.insert("up_to"_L1, upTo);
        return frame;
    };
    const QJsonValue none(QJsonValue::Undefined);
    // FIRST stands for the id of the first alice|bob message, OTHER for the alice|carol one.
    QTest::addRow("read/stranger") << read(u"dave"_s, u"FIRST"_s) << u"forbidden"_s << u"friends"_s;
    QTest::addRow("read/unknown-user")
        << read(u"nobody"_s, u"FIRST"_s) << u"forbidden"_s << u"friends"_s;
    QTest::addRow("read/oneself") << read(u"alice"_s, u"FIRST"_s) << u"forbidden"_s << u"friends"_s;
    QTest::addRow("read/unknown-message")
        << read(u"bob"_s, u"m-never.1"_s) << u"bad_request"_s << u"unknown message"_s;
    QTest::addRow("read/message-of-another-conversation")
        << read(u"bob"_s, u"OTHER"_s) << u"bad_request"_s << u"unknown message"_s;
    QTest::addRow("read/friend-without-conversation")
        << read(u"carol"_s, u"FIRST"_s) << u"bad_request"_s << u"unknown message"_s;
    QTest::addRow("read/no-up-to") << read(u"bob"_s, none) << u"bad_request"_s << u"'up_to'"_s;
    QTest::addRow("read/up-to-number") << read(u"bob"_s, 3) << u"bad_request"_s << u"'up_to'"_s;
    QTest::addRow("read/up-to-65")
        << read(u"bob"_s, QString(kMaxIdLength + 1, u'm')) << u"bad_request"_s << u"'up_to'"_s;
    QTest::addRow("read/no-with") << read(none, u"FIRST"_s) << u"bad_request"_s << u"'with'"_s;
    QTest::addRow("read/with-array")
        << read(QJsonArray { u"bob"_s }, u"FIRST"_s) << u"bad_request"_s << u"'with'"_s;
    QTest::addRow("conversations/limit-0")
        << QJsonObject { { "type"_L1, "conversations"_L1 }, { "limit"_L1, 0 } } << u"bad_request"_s
        << u"'limit'"_s;
    QTest::addRow("conversations/limit-201")
        << QJsonObject { { "type"_L1, "conversations"_L1 }, { "limit"_L1, 201 } }
        << u"bad_request"_s << u"'limit'"_s;
    QTest::addRow("conversations/limit-string")
        << QJsonObject { { "type"_L1, "conversations"_L1 }, { "limit"_L1, "5"_L1 } }
        << u"bad_request"_s << u"'limit'"_s;
}

void TestGatewayChat::badReadAndConversationsRequests()
{
    QFETCH(QJsonObject, request);
    QFETCH(QString, code);
    QFETCH(QString, mention);

    auto alice = login(u"alice"_s);
    auto phone = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    QVERIFY(alice && phone && bob);
    const QJsonObject first = sent(*alice, u"alice"_s, u"bob"_s, u"first"_s);
    const QJsonObject other = sent(*alice, u"alice"_s, u"carol"_s, u"other"_s);
    QVERIFY(!first.isEmpty() && !other.isEmpty());
    const QString placeholder = request.value("up_to"_L1).toString();
    if (placeholder == u"FIRST")
        request.insert("up_to"_L1, idOf(first));
    else if (placeholder == u"OTHER")
        request.insert("up_to"_L1, idOf(other));

    const QJsonObject error = alice->request(request);
    QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
    QCOMPARE(error.value("code"_L1).toString(), code);
    QVERIFY(error.value("ref"_L1).isString());
    QVERIFY2(error.value("message"_L1).toString().contains(mention), compact(error).constData());
    QVERIFY(alice->isOpen());
    // Nothing moved, nobody was told.
    QVERIFY2(markersAfterRoundTrip(*phone).isEmpty(), dump(phone->received()));
    QVERIFY2(markersAfterRoundTrip(*bob).isEmpty(), dump(bob->received()));
    QCOMPARE(conversations(*alice), page({ item(u"carol"_s, other, 0), item(u"bob"_s, first, 0) }));
}

void TestGatewayChat::strangerLearnsNothing()
{
    auto alice = login(u"alice"_s);
    auto bob = login(u"bob"_s);
    auto carol = login(u"carol"_s);
    auto dave = login(u"dave"_s);
    QVERIFY(alice && bob && carol && dave);
    const QJsonObject hi = sent(*alice, u"alice"_s, u"bob"_s, u"hi"_s);
    QVERIFY(!hi.isEmpty());

    // carol is alice's friend but not bob's; dave is nobody's. Neither sees the conversation
    // of alice and bob, nor can tell it exists from the answers.
    QCOMPARE(conversations(*carol), page({}));
    QCOMPARE(conversations(*dave), page({}));
    const QJsonObject asCarol = markRead(*carol, u"bob"_s, idOf(hi));
    QCOMPARE(asCarol.value("code"_L1).toString(), u"forbidden"_s);
    const QJsonObject asCarolNoSuchUser = markRead(*carol, u"zed"_s, idOf(hi));
    QCOMPARE(asCarolNoSuchUser.value("code"_L1).toString(), u"forbidden"_s);
    QCOMPARE(asCarol.value("message"_L1), asCarolNoSuchUser.value("message"_L1));
    // Naming a friend and a message of someone else's conversation: as unknown as any id.
    const QJsonObject foreign = markRead(*carol, u"alice"_s, idOf(hi));
    const QJsonObject never = markRead(*carol, u"alice"_s, u"m-never.1"_s);
    QCOMPARE(foreign.value("code"_L1).toString(), u"bad_request"_s);
    QCOMPARE(foreign.value("message"_L1), never.value("message"_L1));

    // bob reads; alice (the friend) is not told, neither are the others.
    QCOMPARE(markRead(*bob, u"alice"_s, idOf(hi)).value("type"_L1).toString(), u"ok"_s);
    QCOMPARE(bob->waitFor(u"read_marker"_s), marker(u"alice"_s, idOf(hi), 0));
    for (TestClient *client : { alice.get(), carol.get(), dave.get() })
        QVERIFY2(markersAfterRoundTrip(*client).isEmpty(), dump(client->received()));
    QCOMPARE(conversations(*alice), page({ item(u"bob"_s, hi, 0) }));
}

void TestGatewayChat::answerForAGoneAskerReachesNobody()
{
    // The store answers after the asker has gone and been deleted: the answer goes nowhere,
    // and another device of the same user that asked the same gets its page.
    auto *store = new HeldChatStore;
    m_gateway.reset();
    m_gateway = startGateway(population(), testConfig(), nullptr, store);
    QVERIFY(m_gateway);
    auto leaving = login(u"alice"_s);
    auto staying = login(u"alice"_s);
    QVERIFY(leaving && staying);
    QCOMPARE(sendMessage(*staying, u"bob"_s, u"hi"_s).value("type"_L1).toString(), u"ok"_s);
    const auto ask = [](const QString &ref) {
        return QJsonObject { { "type"_L1, "history"_L1 }, { "with"_L1, "bob"_L1 },
            { "ref"_L1, ref } };
    };
    leaving->sendJson(ask(u"gone"_s));
    staying->sendJson(ask(u"kept"_s));
    QTRY_COMPARE(store->heldCount(), 2);
    QVERIFY(closeAndWait(*leaving));
    QCoreApplication::processEvents(); // a departed connection is deleted on the next turn

    store->answerAll();
    const QJsonObject page = staying->waitFor(u"history"_s);
    QCOMPARE(page.value("ref"_L1).toString(), u"kept"_s);
    QCOMPARE(page.value("messages"_L1).toArray().size(), 1);
    QCOMPARE(m_gateway->connectionCount(), 1);
}

// ---- MemoryChatStore -------------------------------------------------------------------------

void TestGatewayChat::storeUnreadCountsOnlyWhatIsHeld()
{
    MemoryChatStore store(3);
    const ChatMessage first = store.append(u"b"_s, u"a"_s, u"1"_s);
    for (int i = 2; i <= 5; ++i)
        (void)store.append(u"b"_s, u"a"_s, QString::number(i));
    // Five sent, three held: that is all that can be unread.
    auto listed = store.summaries(u"a"_s, 10, {});
    QCOMPARE(listed.items.size(), 1);
    QCOMPARE(listed.items.first().unread, 3);
    QCOMPARE(listed.items.first().last.text, u"5"_s);
    // A dropped message cannot be read up to, and a marker the cap dropped still counts from
    // the oldest held.
    QVERIFY(std::holds_alternative<ChatStore::Failure>(store.mark(u"a"_s, u"b"_s, first.id)));
    const auto third = store.page(u"a"_s, u"b"_s, std::nullopt, 3)->messages.first();
    const auto moved = store.mark(u"a"_s, u"b"_s, third.id);
    QCOMPARE(std::get<std::optional<ReadMarkerEvent>>(moved)->unread, 2);
    for (int i = 6; i <= 8; ++i)
        (void)store.append(u"b"_s, u"a"_s, QString::number(i));
    listed = store.summaries(u"a"_s, 10, {});
    QCOMPARE(listed.items.first().read, std::optional<QString>(third.id));
    QCOMPARE(listed.items.first().unread, 3);
    // The filter leaves conversations out before the limit.
    (void)store.append(u"c"_s, u"a"_s, u"from c"_s);
    QCOMPARE(store.summaries(u"a"_s, 1, {}).items.first().with, u"c"_s);
    const auto onlyB = store.summaries(u"a"_s, 1, [](const QString &id) { return id == u"b"; });
    QCOMPARE(onlyB.items.size(), 1);
    QCOMPARE(onlyB.items.first().with, u"b"_s);
    QVERIFY(!onlyB.more);
}

void TestGatewayChat::storeTimestampsNeverGoBack()
{
    QList<qint64> times { 1000, 900, 1100, 500 };
    MemoryChatStore store(MemoryChatStore::kDefaultCapacity, [&] { return times.takeFirst(); });

    QCOMPARE(store.append(u"a"_s, u"b"_s, u"1"_s).ts, 1000);
    QCOMPARE(store.append(u"b"_s, u"a"_s, u"2"_s).ts, 1000); // the clock stepped back
    QCOMPARE(store.append(u"a"_s, u"b"_s, u"3"_s).ts, 1100);
    // Another conversation has its own order.
    QCOMPARE(store.append(u"a"_s, u"c"_s, u"4"_s).ts, 500);
}

void TestGatewayChat::storeKeysConversationsByPair()
{
    MemoryChatStore store(3);
    const ChatMessage ab = store.append(u"a"_s, u"b"_s, u"ab"_s);
    const ChatMessage ba = store.append(u"b"_s, u"a"_s, u"ba"_s);
    const ChatMessage ac = store.append(u"a"_s, u"c"_s, u"ac"_s);
    QCOMPARE(store.conversationCount(), 2);

    const auto fromA = store.page(u"a"_s, u"b"_s, std::nullopt, 10);
    const auto fromB = store.page(u"b"_s, u"a"_s, std::nullopt, 10);
    QVERIFY(fromA && fromB);
    QCOMPARE(fromA->messages, (QList<ChatMessage> { ab, ba }));
    QCOMPARE(fromB->messages, fromA->messages);
    QVERIFY(!fromA->more);

    // before must belong to the conversation asked about.
    QVERIFY(!store.page(u"a"_s, u"b"_s, ac.id, 10));
    QVERIFY(!store.page(u"b"_s, u"c"_s, std::nullopt, 10)->more);
    QVERIFY(!store.page(u"b"_s, u"c"_s, ab.id, 10));

    // The cap drops the oldest.
    const ChatMessage third = store.append(u"a"_s, u"b"_s, u"3"_s);
    const ChatMessage fourth = store.append(u"a"_s, u"b"_s, u"4"_s);
    const auto capped = store.page(u"a"_s, u"b"_s, std::nullopt, 10);
    QCOMPARE(capped->messages, (QList<ChatMessage> { ba, third, fourth }));
    QVERIFY(!store.page(u"a"_s, u"b"_s, ab.id, 10));
    const auto beforeThird = store.page(u"a"_s, u"b"_s, third.id, 10);
    QCOMPARE(beforeThird->messages, (QList<ChatMessage> { ba }));
    QVERIFY(!beforeThird->more);
}

QTEST_MAIN(TestGatewayChat)
#include "tst_gateway_chat.moc"
