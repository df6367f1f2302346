// ChatController on real sessions against an in-process gateway on a loopback port, without
// widgets: messages both ways with the gateway's ids, the checks before sending, a refused
// message failed then resent or discarded, one typed while offline sent once signed in, reading
// as far as a view has shown (and other devices following), and another user's sign-in
// clearing what was held. The same class driven through the window: tst_chat_end_to_end.

// C++
#include <memory>
#include <optional>

// Qt
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "models/ChatModel.h"
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "protocol/ClientMessages.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::Delivery;
using Presence::Models::FriendListModel;
using Presence::Server::Gateway;
using Presence::Server::MemoryChatStore;
using Presence::Session::ChatController;
using Presence::Session::GatewaySession;

namespace {

// alice's friends are bob and dave; carol is a stranger to her.
QList<TestUser> population()
{
    return {
        { u"alice"_s, { u"bob"_s, u"dave"_s } },
        { u"bob"_s, {} },
        { u"dave"_s, {} },
        { u"carol"_s, {} },
    };
}

// One device of one user: a session and its controller, no widgets.
struct Device {
    explicit Device(const QUrl &gateway, const QString &id = {})
        : session(quickSessionOptions())
        , chat(&session, &friends)
        , url(gateway)
    {
        if (!id.isEmpty())
            signIn(id);
    }
    void signIn(const QString &id) { session.open(url, tokenOf(id)); }
    [[nodiscard]] bool waitOnline() const
    {
        return QTest::qWaitFor(
            [this] { return session.state() == GatewaySession::State::Online; }, 5000);
    }
    [[nodiscard]] int unread(const QString &friendId) const
    {
        return chat.conversationList()->unread(friendId);
    }

    GatewaySession session;
    FriendListModel friends;
    ChatController chat;
    QUrl url;
};

QStringList textsOf(const ChatModel *model)
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(); ++row)
        texts.append(model->at(row).text);
    return texts;
}

} // namespace

class TestChatController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void messagesGoBothWaysWithTheGatewaysIds();
    void textIsCheckedBeforeSending();
    void aRefusedMessageFailsAndIsResentOrDiscarded();
    void aMessageTypedOfflineGoesOutOnceSignedIn();
    void readsAsFarAsShownAndOtherDevicesFollow();
    void anotherUserSigningInClearsTheConversations();
    void aGatewayWithoutChatIsToldOnce();
    void whatWasNeverReadStaysUnreadWhenTheGatewayForgets();

private:
    std::unique_ptr<Gateway> m_gateway;
};

void TestChatController::init()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
}

void TestChatController::cleanup()
{
    m_gateway.reset();
}

void TestChatController::messagesGoBothWaysWithTheGatewaysIds()
{
    Device alice(m_gateway->url(), u"alice"_s);
    Device bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QSignalSpy received(&bob.chat, &ChatController::messageReceived);

    QVERIFY(!alice.chat.send(u"bob"_s, u"Hello Bob"_s));
    ChatModel *mine = alice.chat.conversation(u"bob"_s);
    QCOMPARE(mine->rowCount(), 1);
    QTRY_COMPARE(mine->at(0).delivery, Delivery::Delivered);
    const QString id = mine->at(0).id;
    QVERIFY(!id.isEmpty());

    QTRY_COMPARE(received.size(), 1);
    QCOMPARE(received.constFirst().at(0).toString(), u"alice"_s);
    const auto record = received.constFirst().at(1).value<ChatMessageRecord>();
    QCOMPARE(record.id, id);
    QCOMPARE(record.text, u"Hello Bob"_s);
    QVERIFY(bob.chat.conversation(u"alice"_s)->contains(id));
    // bob is not reading that conversation: it counts as unread, on his list of chats too.
    QCOMPARE(bob.unread(u"alice"_s), 1);
    QCOMPARE(bob.chat.totalUnread(), 1);
    QCOMPARE(alice.unread(u"bob"_s), 0); // one's own message is never unread

    // The answer goes back the same way.
    QVERIFY(!bob.chat.send(u"alice"_s, u"Hi Alice"_s));
    QTRY_COMPARE(
        textsOf(alice.chat.conversation(u"bob"_s)), QStringList({ u"Hello Bob"_s, u"Hi Alice"_s }));
    QCOMPARE(received.size(), 1); // bob's own message is not "received" by bob
}

void TestChatController::textIsCheckedBeforeSending()
{
    Device alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    const QString tooLong(Presence::Protocol::kMaxMessageTextLength + 2, u'x');
    for (const QString &text : { u""_s, u"  \n\t "_s, tooLong }) {
        const auto reason = alice.chat.send(u"bob"_s, text);
        QVERIFY(reason);
        QCOMPARE(*reason, *ChatController::checkText(text));
    }
    QVERIFY(ChatController::checkText(tooLong)->contains(u"2 characters too long"_s));
    QCOMPARE(alice.chat.conversation(u"bob"_s)->rowCount(), 0); // nothing was added
    const QString longest(Presence::Protocol::kMaxMessageTextLength, u'x');
    QVERIFY(!ChatController::checkText(longest));
    QVERIFY(!alice.chat.send(u"bob"_s, longest));
    QTRY_COMPARE(alice.chat.conversation(u"bob"_s)->at(0).delivery, Delivery::Delivered);
}

void TestChatController::aRefusedMessageFailsAndIsResentOrDiscarded()
{
    Device alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    // The session logs each refusal; both of them are expected here.
    const QRegularExpression refusal(u"gateway error \"forbidden\""_s);
    QTest::ignoreMessage(QtWarningMsg, refusal);
    QTest::ignoreMessage(QtWarningMsg, refusal);
    ChatModel *toCarol = alice.chat.conversation(u"carol"_s);
    QVERIFY(!alice.chat.send(u"carol"_s, u"Hello stranger"_s));
    QTRY_COMPARE(toCarol->at(0).delivery, Delivery::Failed);
    QVERIFY(!toCarol->at(0).error.isEmpty());
    QVERIFY(toCarol->at(0).id.isEmpty());

    // Sent again it is refused again, still one row.
    alice.chat.resend(u"carol"_s, 0);
    QCOMPARE(toCarol->rowCount(), 1);
    QVERIFY(toCarol->at(0).delivery != Delivery::Failed);
    QTRY_COMPARE(toCarol->at(0).delivery, Delivery::Failed);
    QCOMPARE(toCarol->at(0).text, u"Hello stranger"_s);

    alice.chat.discard(u"carol"_s, 0);
    QCOMPARE(toCarol->rowCount(), 0);
    // Only refusals are the user's to remove: a delivered message stays.
    QVERIFY(!alice.chat.send(u"bob"_s, u"Hello Bob"_s));
    ChatModel *toBob = alice.chat.conversation(u"bob"_s);
    QTRY_COMPARE(toBob->at(0).delivery, Delivery::Delivered);
    alice.chat.discard(u"bob"_s, 0);
    QCOMPARE(toBob->rowCount(), 1);
}

void TestChatController::aMessageTypedOfflineGoesOutOnceSignedIn()
{
    Device bob(m_gateway->url(), u"bob"_s);
    QVERIFY(bob.waitOnline());
    QSignalSpy received(&bob.chat, &ChatController::messageReceived);
    Device alice(m_gateway->url()); // not signed in yet
    QVERIFY(!alice.chat.send(u"bob"_s, u"Typed on the train"_s));
    ChatModel *mine = alice.chat.conversation(u"bob"_s);
    QCOMPARE(mine->rowCount(), 1);
    QCOMPARE(mine->at(0).delivery, Delivery::Queued);

    alice.signIn(u"alice"_s);
    QTRY_COMPARE(mine->at(0).delivery, Delivery::Delivered);
    QTRY_COMPARE(received.size(), 1);
    QCOMPARE(received.constFirst().at(1).value<ChatMessageRecord>().id, mine->at(0).id);
    QCOMPARE(mine->rowCount(), 1);
    // Sent once: the gateway holds one message between them.
    const auto stored = qobject_cast<MemoryChatStore *>(m_gateway->chats())
                            ->page(u"alice"_s, u"bob"_s, std::nullopt, 10);
    QVERIFY(stored);
    QCOMPARE(stored->messages.size(), 1);
}

void TestChatController::readsAsFarAsShownAndOtherDevicesFollow()
{
    Device alice(m_gateway->url(), u"alice"_s);
    Device aliceToo(m_gateway->url(), u"alice"_s); // her other device
    Device bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(aliceToo.waitOnline());
    QVERIFY(bob.waitOnline());
    for (const QString &text : { u"one"_s, u"two"_s, u"three"_s })
        QVERIFY(!bob.chat.send(u"alice"_s, text));
    QTRY_COMPARE(bob.chat.conversation(u"alice"_s)->deliveredCount(), 3);
    QTRY_COMPARE(alice.unread(u"bob"_s), 3);
    QTRY_COMPARE(aliceToo.unread(u"bob"_s), 3);

    // A view that says what it shows: opening the chat reads nothing by itself.
    alice.chat.setShownUpTo({});
    alice.chat.setActiveConversation(u"bob"_s);
    ChatModel *chat = alice.chat.conversation(u"bob"_s);
    QTRY_COMPARE(chat->deliveredCount(), 3);
    QCOMPARE(alice.unread(u"bob"_s), 3);

    alice.chat.setShownUpTo(chat->at(1).id); // "two" on screen
    QCOMPARE(alice.unread(u"bob"_s), 1);
    QTRY_COMPARE(aliceToo.unread(u"bob"_s), 1); // the gateway's marker, pushed to her device
    alice.chat.setShownUpTo(chat->at(0).id); // scrolled back up: reads nothing back
    QCOMPARE(alice.unread(u"bob"_s), 1);

    // Away from the window, what comes counts as unread, even when a view says it shows it.
    alice.chat.setInFront(false);
    QVERIFY(!bob.chat.send(u"alice"_s, u"four"_s));
    QTRY_COMPARE(chat->deliveredCount(), 4);
    alice.chat.setShownUpTo(chat->at(3).id);
    QCOMPARE(alice.unread(u"bob"_s), 2);
    // Back in front it is read as far as shown from then on.
    alice.chat.setInFront(true);
    QCOMPARE(alice.unread(u"bob"_s), 2);
    alice.chat.setShownUpTo(chat->at(3).id);
    QCOMPARE(alice.unread(u"bob"_s), 0);
    QTRY_COMPARE(aliceToo.unread(u"bob"_s), 0);

    // A device signing in later gets the counts from the gateway.
    Device later(m_gateway->url(), u"alice"_s);
    QVERIFY(later.waitOnline());
    QTRY_VERIFY(later.chat.conversationList()->rowOf(u"bob"_s));
    QCOMPARE(later.unread(u"bob"_s), 0);
}

void TestChatController::anotherUserSigningInClearsTheConversations()
{
    Device device(m_gateway->url(), u"alice"_s);
    QVERIFY(device.waitOnline());
    QVERIFY(!device.chat.send(u"bob"_s, u"for bob"_s));
    QTRY_COMPARE(device.chat.conversation(u"bob"_s)->at(0).delivery, Delivery::Delivered);
    QSignalSpy cleared(&device.chat, &ChatController::conversationsCleared);

    device.signIn(u"dave"_s); // the same device, another account
    QTRY_COMPARE(cleared.size(), 1);
    QVERIFY(device.waitOnline());
    QVERIFY(!device.chat.hasConversation(u"bob"_s));
    QCOMPARE(device.chat.totalUnread(), 0);
    // Nothing of alice's shows under dave's name.
    QCOMPARE(device.chat.conversationList()->selfId(), u"dave"_s);
    QCOMPARE(device.chat.conversationList()->rowCount(), 0);
}

void TestChatController::aGatewayWithoutChatIsToldOnce()
{
    // A presence-only gateway answers chat unknown_type: the controller takes that as "no
    // chat here" (not one failed message), says so once, and sends nothing more.
    Presence::Server::GatewayConfig config = testConfig();
    config.chat = false;
    m_gateway = startGateway(population(), config);
    QVERIFY(m_gateway);
    Device alice(m_gateway->url());
    QSignalSpy offered(&alice.chat, &ChatController::chatOfferedChanged);
    QSignalSpy arrived(&alice.chat, &ChatController::conversationsArrived);
    QVERIFY(alice.chat.chatOffered()); // until the gateway says otherwise
    alice.signIn(u"alice"_s);
    QVERIFY(alice.waitOnline());
    QTRY_COMPARE(arrived.count(), 1); // the counts are as known as they will be
    QVERIFY(alice.chat.conversationsLoaded());
    QCOMPARE(offered.count(), 1);
    QCOMPARE(offered.at(0).at(0).toBool(), false);
    QVERIFY(!alice.chat.chatOffered());

    const auto problem = alice.chat.send(u"bob"_s, u"hello?"_s);
    QVERIFY(problem);
    QVERIFY2(problem->contains(u"no chat"_s), qPrintable(*problem));
    QCOMPARE(alice.chat.conversation(u"bob"_s)->rowCount(), 0); // nothing queued to retry

    // A gateway with chat, signed in to again, offers it again.
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
    alice.url = m_gateway->url();
    alice.session.close();
    alice.signIn(u"alice"_s);
    QVERIFY(alice.waitOnline());
    QTRY_VERIFY(alice.chat.chatOffered());
    QCOMPARE(arrived.count(), 2);
    QVERIFY(!alice.chat.send(u"bob"_s, u"hello!"_s));
}

void TestChatController::whatWasNeverReadStaysUnreadWhenTheGatewayForgets()
{
    // V11: the bundled gateway keeps chats in memory. After it restarted, its `conversations`
    // knew nothing of bob's two messages that alice never saw, so they counted as read, and
    // were drawn above the "New messages" divider once bob wrote again. The client knows what
    // it has not read.
    Device alice(m_gateway->url(), u"alice"_s);
    Device bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    alice.chat.setInFront(false); // her window is elsewhere: nothing is read
    QVERIFY(!bob.chat.send(u"alice"_s, u"one"_s));
    QVERIFY(!bob.chat.send(u"alice"_s, u"two"_s));
    QTRY_COMPARE(alice.unread(u"bob"_s), 2);
    QCOMPARE(alice.chat.conversation(u"bob"_s)->deliveredCount(), 2);

    const quint16 port = m_gateway->port();
    m_gateway.reset();
    QTRY_VERIFY(alice.session.state() != GatewaySession::State::Online);
    auto config = testConfig();
    config.port = port;
    m_gateway = startGateway(population(), config); // its memory is empty
    QVERIFY(m_gateway);
    QSignalSpy arrived(&alice.chat, &ChatController::conversationsArrived);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QTRY_COMPARE(arrived.count(), 1);
    QCOMPARE(alice.unread(u"bob"_s), 2);
    QCOMPARE(alice.chat.conversationList()->rowCount(), 1); // still listed

    QVERIFY(!bob.chat.send(u"alice"_s, u"three"_s));
    QTRY_COMPARE(alice.unread(u"bob"_s), 3);
    // Signed in again, the gateway counts one (all it has) and holds no marker of hers.
    alice.session.close();
    arrived.clear();
    alice.signIn(u"alice"_s);
    QVERIFY(alice.waitOnline());
    QTRY_COMPARE(arrived.count(), 1);
    QCOMPARE(alice.unread(u"bob"_s), 3);
    // Read here, the gateway learns it again; another sign-in then agrees.
    alice.chat.setInFront(true);
    alice.chat.setActiveConversation(u"bob"_s);
    QTRY_COMPARE(alice.unread(u"bob"_s), 0);
    alice.chat.setActiveConversation({});
    Device laptop(m_gateway->url(), u"alice"_s);
    QVERIFY(laptop.waitOnline());
    QTRY_VERIFY(laptop.chat.conversationsLoaded());
    QTRY_COMPARE(laptop.unread(u"bob"_s), 0);
}

QTEST_MAIN(TestChatController)
#include "tst_chat_controller.moc"
