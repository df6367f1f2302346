// 1:1 chat end to end: real gateways on loopback ports, real sessions, and for one side the
// real main window driven through its widgets (offscreen).

// C++
#include <memory>

// Qt
#include <QLineEdit>
#include <QListView>
#include <QLoggingCategory>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "app/SessionModelBridge.h"
#include "app/WindowWiring.h"
#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "tests/harness/TcpProxy.h"
#include "ui/chat/ChatHeader.h"
#include "ui/chat/ChatPane.h"
#include "ui/chat/MessageInput.h"
#include "ui/chat/NewMessagesPill.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/MainWindow.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::SessionModelBridge;
using Presence::Models::ChatModel;
using Presence::Models::Delivery;
using Presence::Models::FriendListModel;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Server::MemoryChatStore;
using Presence::Session::ChatController;
using Presence::Session::GatewaySession;
using Presence::Ui::MainWindow;

namespace {

// alice's friends are bob and dave; carol is a stranger to her.
QList<TestUser> population()
{
    return {
        { u"alice"_s, { u"bob"_s, u"dave"_s }, u"Alice Liddell"_s },
        { u"bob"_s, {}, u"Bob Dylan"_s },
        { u"dave"_s, {}, u"Dave Brubeck"_s },
        { u"carol"_s, {}, u"Carol King"_s },
    };
}

// One user's client without widgets: what the application wires, minus the window.
struct Client {
    Client(const QUrl &url, const QString &id)
        : session(quickSessionOptions())
        , bridge(&session, &friends)
        , chat(&session, &friends)
    {
        session.open(url, tokenOf(id));
    }
    [[nodiscard]] bool waitOnline() const
    {
        return QTest::qWaitFor(
            [this] {
                return session.state() == GatewaySession::State::Online && friends.rowCount() > 0;
            },
            5000);
    }

    GatewaySession session;
    FriendListModel friends;
    SessionModelBridge bridge;
    ChatController chat;
};

// A client with its main window shown, as people use it.
struct WindowClient : Client {
    WindowClient(const QUrl &url, const QString &id)
        : Client(url, id)
        , window(&friends, &chat)
        , wiring(&session, &chat, &friends, &window)
    {
        window.resize(900, 600);
        window.show();
    }
    [[nodiscard]] Presence::Ui::ChatPane *pane() const { return window.chatPane(); }
    [[nodiscard]] ChatModel *shownConversation() const { return pane()->conversation(); }
    void type(const QString &text) const { QTest::keyClicks(pane()->input(), text); }
    void pressEnter(Qt::KeyboardModifiers modifiers = Qt::NoModifier) const
    {
        QTest::keyClick(pane()->input(), Qt::Key_Return, modifiers);
    }

    MainWindow window;
    Presence::App::WindowWiring wiring;
};

QStringList textsOf(const ChatModel *model)
{
    QStringList texts;
    for (int row = 0; row < model->rowCount(); ++row)
        texts.append(model->at(row).text);
    return texts;
}

bool allDelivered(const ChatModel *model)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->at(row).delivery != Delivery::Delivered)
            return false;
    }
    return true;
}

} // namespace

class TestChatEndToEnd : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void messagesGoBothWaysThroughTheWindow();
    void enterSendsAndShiftEnterAddsALine();
    void headerShowsTheFriendsPresence();
    void unreadBadgeCountsUntilTheChatOpens();
    void historyIsThereAfterReopening();
    void messageToAnOfflineFriendArrivesThroughHistory();
    void olderMessagesLoadPageByPage();
    void messagesArrivingWhileScrolledUpShowThePill();
    void nonFriendIsRefused();
    void overLongAndBlankTextAreRefusedBeforeSending();
    void messageTypedWhileDisconnectedGoesOutOnReconnect();
    void messageLostInFlightIsSentAgainExactlyOnce();
    void missedMessagesCountAsUnreadAfterReconnect();

private:
    [[nodiscard]] int storedBetween(const QString &a, const QString &b) const;

    std::unique_ptr<Gateway> m_gateway;
};

void TestChatEndToEnd::init()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false\npresence.*.warning=false"_s);
    GatewayConfig config = testConfig();
    config.helloTimeout = 5s;
    // The paging test sends 120 messages quickly; pacing is tested elsewhere.
    config.maxFramesPerSecond = 1000;
    config.frameBurst = 1000;
    m_gateway = startGateway(population(), config);
    QVERIFY(m_gateway);
}

void TestChatEndToEnd::cleanup()
{
    m_gateway.reset();
}

int TestChatEndToEnd::storedBetween(const QString &a, const QString &b) const
{
    const auto page
        = qobject_cast<MemoryChatStore *>(m_gateway->chats())->page(a, b, std::nullopt, 200);
    return page ? int(page->messages.size()) : -1;
}

void TestChatEndToEnd::messagesGoBothWaysThroughTheWindow()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(QTest::qWaitForWindowExposed(&alice.window));

    alice.window.openChat(u"bob"_s);
    QVERIFY(!alice.pane()->isShowingPlaceholder());
    QTRY_COMPARE(alice.pane()->historyText(), u"No messages with Bob Dylan yet. Say hello!"_s);
    QVERIFY(alice.pane()->input()->hasFocus());

    alice.type(u"Hello Bob"_s);
    QVERIFY(alice.pane()->sendButton()->isEnabled());
    alice.pressEnter();
    QVERIFY(alice.pane()->input()->toPlainText().isEmpty());
    ChatModel *mine = alice.shownConversation();
    QVERIFY(mine);
    QCOMPARE(mine->rowCount(), 1);
    QTRY_VERIFY(allDelivered(mine));
    QVERIFY(!mine->at(0).id.isEmpty());

    // bob gets it live, with the id alice's side was given.
    QTRY_VERIFY(bob.chat.hasConversation(u"alice"_s));
    ChatModel *bobs = bob.chat.conversation(u"alice"_s);
    QTRY_COMPARE(textsOf(bobs), QStringList { u"Hello Bob"_s });
    QCOMPARE(bobs->at(0).id, mine->at(0).id);
    QVERIFY(!bobs->index(0).data(ChatModel::OutgoingRole).toBool());
    QTRY_COMPARE(bob.friends.unreadCount(u"alice"_s), 1);

    // bob answers; alice reads it in the open chat, so nothing is unread for her.
    QVERIFY(!bob.chat.send(u"alice"_s, u"Hi Alice!"_s));
    QTRY_COMPARE(textsOf(mine), (QStringList { u"Hello Bob"_s, u"Hi Alice!"_s }));
    QVERIFY(!mine->index(1).data(ChatModel::OutgoingRole).toBool());
    // What a screen reader says of each message, as the view has it: who, when, what.
    const QAbstractItemModel *rows = alice.pane()->messageView()->model();
    const QString spokenMine = rows->index(0, 0).data(Qt::AccessibleTextRole).toString();
    const QString spokenTheirs = rows->index(1, 0).data(Qt::AccessibleTextRole).toString();
    QVERIFY2(spokenMine.startsWith(u"You, "_s) && spokenMine.endsWith(u": Hello Bob"_s),
        qPrintable(spokenMine));
    QVERIFY2(spokenTheirs.startsWith(u"Bob Dylan, "_s) && spokenTheirs.endsWith(u": Hi Alice!"_s),
        qPrintable(spokenTheirs));
    QCOMPARE(alice.friends.unreadCount(u"bob"_s), 0);
    QCOMPARE(storedBetween(u"alice"_s, u"bob"_s), 2);
}

void TestChatEndToEnd::enterSendsAndShiftEnterAddsALine()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    alice.window.openChat(u"bob"_s);

    alice.type(u"first line"_s);
    alice.pressEnter(Qt::ShiftModifier);
    alice.type(u"second line"_s);
    QCOMPARE(alice.pane()->input()->toPlainText(), u"first line\nsecond line"_s);
    QCOMPARE(alice.shownConversation()->rowCount(), 0); // Shift+Enter sent nothing
    alice.pressEnter();
    QTRY_VERIFY(bob.chat.hasConversation(u"alice"_s));
    QTRY_COMPARE(
        textsOf(bob.chat.conversation(u"alice"_s)), QStringList { u"first line\nsecond line"_s });
    // The keypad's Enter sends too.
    alice.type(u"third"_s);
    QTest::keyClick(alice.pane()->input(), Qt::Key_Enter, Qt::KeypadModifier);
    QTRY_COMPARE(textsOf(bob.chat.conversation(u"alice"_s)).size(), 2);
}

void TestChatEndToEnd::headerShowsTheFriendsPresence()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    alice.window.openChat(u"bob"_s);
    Presence::Ui::ChatHeader *header = alice.pane()->header();
    QCOMPARE(header->presence().name, u"Bob Dylan"_s);
    QTRY_COMPARE(header->statusText(), u"offline"_s);

    auto bob = std::make_unique<Client>(m_gateway->url(), u"bob"_s);
    QTRY_COMPARE(header->statusText(), u"online"_s);
    bob->session.setChosenStatus(Presence::Protocol::ChosenStatus::Away);
    QTRY_COMPARE(header->statusText(), u"away"_s);
    bob.reset();
    // After the gateway's grace: offline, seen just now.
    QTRY_COMPARE_WITH_TIMEOUT(header->statusText(), u"last seen just now"_s, 5000);

    // The open chat keeps bob watched even when his row is filtered off the screen.
    alice.window.friendList()->searchBox()->setText(u"dave"_s);
    QTRY_COMPARE(alice.window.friendList()->proxy()->rowCount(), 1);
    QTest::qWait(0);
    QTRY_VERIFY(alice.session.wanted().contains(u"bob"_s));
    Client bobAgain(m_gateway->url(), u"bob"_s);
    QTRY_COMPARE(header->statusText(), u"online"_s);

    // Disconnected: the header says unknown, like the list.
    m_gateway.reset();
    QTRY_COMPARE(header->statusText(), u"status unknown"_s);
}

void TestChatEndToEnd::unreadBadgeCountsUntilTheChatOpens()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    alice.window.openChat(u"dave"_s); // another chat is open

    for (const QString &text : { u"one"_s, u"two"_s, u"three"_s })
        QVERIFY(!bob.chat.send(u"alice"_s, text));
    QTRY_COMPARE(alice.friends.unreadCount(u"bob"_s), 3);
    // The row says so to screen readers and tooltips.
    QAbstractItemModel *rows = alice.window.friendList()->view()->model();
    QModelIndex bobRow;
    for (int row = 0; row < rows->rowCount(); ++row) {
        if (rows->index(row, 0).data(FriendListModel::IdRole).toString() == u"bob"_s)
            bobRow = rows->index(row, 0);
    }
    QVERIFY(bobRow.isValid());
    QCOMPARE(bobRow.data(FriendListModel::UnreadRole).toInt(), 3);
    QVERIFY2(bobRow.data(Qt::AccessibleTextRole).toString().endsWith(u", 3 unread messages"_s),
        qPrintable(bobRow.data(Qt::AccessibleTextRole).toString()));

    // Opening the chat (a click on the row) reads them, once they are on screen.
    const QRect rect = alice.window.friendList()->view()->visualRect(bobRow);
    QTest::mouseClick(
        alice.window.friendList()->view()->viewport(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(alice.pane()->friendId(), u"bob"_s);
    QTRY_COMPARE(alice.friends.unreadCount(u"bob"_s), 0);
    QTRY_COMPARE(
        textsOf(alice.shownConversation()), (QStringList { u"one"_s, u"two"_s, u"three"_s }));

    // A message to the open chat is not unread; one from dave, whose chat is closed, is.
    QVERIFY(!bob.chat.send(u"alice"_s, u"four"_s));
    Client dave(m_gateway->url(), u"dave"_s);
    QVERIFY(dave.waitOnline());
    QVERIFY(!dave.chat.send(u"alice"_s, u"from dave"_s));
    QTRY_COMPARE(alice.friends.unreadCount(u"dave"_s), 1);
    QTRY_COMPARE(alice.shownConversation()->rowCount(), 4);
    QTRY_COMPARE(alice.friends.unreadCount(u"bob"_s), 0);
}

void TestChatEndToEnd::historyIsThereAfterReopening()
{
    {
        Client alice(m_gateway->url(), u"alice"_s);
        Client bob(m_gateway->url(), u"bob"_s);
        QVERIFY(alice.waitOnline());
        QVERIFY(bob.waitOnline());
        QVERIFY(!alice.chat.send(u"bob"_s, u"a1"_s));
        QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 1);
        QVERIFY(!bob.chat.send(u"alice"_s, u"b1"_s));
        QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 2);
        QVERIFY(!alice.chat.send(u"bob"_s, u"a2"_s));
        QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 3);
    }
    // A fresh client (the application started again) shows the conversation in order.
    WindowClient alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    alice.window.openChat(u"bob"_s);
    ChatModel *conversation = alice.shownConversation();
    QTRY_COMPARE(textsOf(conversation), (QStringList { u"a1"_s, u"b1"_s, u"a2"_s }));
    QVERIFY(conversation->index(0).data(ChatModel::OutgoingRole).toBool());
    QVERIFY(!conversation->index(1).data(ChatModel::OutgoingRole).toBool());
    QVERIFY(conversation->index(2).data(ChatModel::OutgoingRole).toBool());
    QVERIFY(allDelivered(conversation));
    QVERIFY(alice.pane()->historyText().isEmpty());
    QVERIFY(!conversation->hasOlder());
}

void TestChatEndToEnd::messageToAnOfflineFriendArrivesThroughHistory()
{
    {
        Client alice(m_gateway->url(), u"alice"_s);
        QVERIFY(alice.waitOnline());
        QVERIFY(!alice.chat.send(u"dave"_s, u"Call me when you are back"_s));
        ChatModel *conversation = alice.chat.conversation(u"dave"_s);
        QTRY_VERIFY(allDelivered(conversation)); // the gateway took it although dave is away
    }
    WindowClient dave(m_gateway->url(), u"dave"_s);
    QVERIFY(dave.waitOnline());
    dave.window.openChat(u"alice"_s);
    QTRY_COMPARE(textsOf(dave.shownConversation()), QStringList { u"Call me when you are back"_s });
    QCOMPARE(dave.shownConversation()->at(0).from, u"alice"_s);
}

void TestChatEndToEnd::olderMessagesLoadPageByPage()
{
    constexpr int kMessages = 120; // more than two pages of ChatController::kHistoryPageSize
    {
        // Written by alice on another device: nothing in it is unread for her, so the chat
        // opens at its newest message (on unread ones it would open at the first of them).
        Client laptop(m_gateway->url(), u"alice"_s);
        QVERIFY(laptop.waitOnline());
        for (int n = 1; n <= kMessages; ++n)
            QVERIFY(!laptop.chat.send(u"bob"_s, u"message %1"_s.arg(n)));
        QTRY_COMPARE_WITH_TIMEOUT(storedBetween(u"alice"_s, u"bob"_s), kMessages, 10000);
    }
    WindowClient alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(QTest::qWaitForWindowExposed(&alice.window));
    alice.window.openChat(u"bob"_s);
    ChatModel *conversation = alice.shownConversation();
    QTRY_COMPARE(conversation->rowCount(), ChatController::kHistoryPageSize);
    QCOMPARE(conversation->at(0).text, u"message 71"_s);
    QVERIFY(conversation->hasOlder());
    // The view opens at the newest message.
    QListView *view = alice.pane()->messageView();
    QTRY_VERIFY(view->verticalScrollBar()->maximum() > 0);
    QTRY_COMPARE(view->verticalScrollBar()->value(), view->verticalScrollBar()->maximum());

    // Scrolling to the top loads the page before, keeping what was on screen in place.
    const QString topBefore = conversation->at(0).id;
    view->verticalScrollBar()->setValue(0);
    QTRY_COMPARE(conversation->rowCount(), 2 * ChatController::kHistoryPageSize);
    const int keptRow = ChatController::kHistoryPageSize;
    QCOMPARE(conversation->at(keptRow).id, topBefore);
    QTRY_VERIFY(conversation->historyState() == ChatModel::HistoryState::Loaded);
    const QRect kept = view->visualRect(view->model()->index(keptRow, 0));
    QVERIFY2(view->viewport()->rect().intersects(kept), "the reading place moved");

    view->verticalScrollBar()->setValue(0);
    QTRY_COMPARE(conversation->rowCount(), kMessages);
    QTRY_VERIFY(!conversation->hasOlder());
    QStringList expected;
    for (int n = 1; n <= kMessages; ++n)
        expected.append(u"message %1"_s.arg(n));
    QCOMPARE(textsOf(conversation), expected);
}

void TestChatEndToEnd::messagesArrivingWhileScrolledUpShowThePill()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(QTest::qWaitForWindowExposed(&alice.window));
    alice.window.openChat(u"bob"_s);
    for (int n = 1; n <= 30; ++n)
        QVERIFY(!bob.chat.send(u"alice"_s, u"message %1"_s.arg(n)));
    ChatModel *conversation = alice.shownConversation();
    QTRY_COMPARE(conversation->rowCount(), 30);
    QListView *view = alice.pane()->messageView();
    QScrollBar *bar = view->verticalScrollBar();
    // Read live at the bottom: followed, no pill.
    QTRY_VERIFY(bar->maximum() > 0);
    QTRY_COMPARE(bar->value(), bar->maximum());
    Presence::Ui::NewMessagesPill *pill = alice.pane()->newMessagesPill();
    QVERIFY(!pill->isVisible());

    bar->setValue(0);
    QVERIFY(!bob.chat.send(u"alice"_s, u"are you there?"_s));
    QVERIFY(!bob.chat.send(u"alice"_s, u"hello?"_s));
    QTRY_COMPARE(conversation->rowCount(), 32);
    QTRY_COMPARE(pill->count(), 2);
    QVERIFY(pill->isVisible());
    QCOMPARE(bar->value(), 0);
    QTest::mouseClick(pill, Qt::LeftButton);
    QTRY_COMPARE(bar->value(), bar->maximum());
    QTRY_VERIFY(!pill->isVisible());
}

void TestChatEndToEnd::nonFriendIsRefused()
{
    Client alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(!alice.chat.send(u"carol"_s, u"hello stranger"_s));
    ChatModel *conversation = alice.chat.conversation(u"carol"_s);
    QTRY_VERIFY(conversation->rowCount() == 1 && conversation->at(0).delivery == Delivery::Failed);
    QCOMPARE(conversation->at(0).error, u"Not delivered: only friends can message each other."_s);
    QCOMPARE(storedBetween(u"alice"_s, u"carol"_s), 0);

    // Sending it again fails the same way; discarding removes it.
    alice.chat.resend(u"carol"_s, 0);
    QCOMPARE(conversation->rowCount(), 1);
    QVERIFY(conversation->at(0).delivery != Delivery::Delivered);
    QTRY_VERIFY(conversation->at(0).delivery == Delivery::Failed);
    alice.chat.discard(u"carol"_s, 0);
    QCOMPARE(conversation->rowCount(), 0);
    // The connection is fine afterwards.
    QVERIFY(!alice.chat.send(u"bob"_s, u"still here"_s));
    QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 1);
}

void TestChatEndToEnd::overLongAndBlankTextAreRefusedBeforeSending()
{
    WindowClient alice(m_gateway->url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    alice.window.openChat(u"bob"_s);
    QTRY_VERIFY(alice.shownConversation()->historyState() == ChatModel::HistoryState::Loaded);

    alice.pane()->input()->setPlainText(QString(4001, u'x'));
    QVERIFY(!alice.pane()->sendButton()->isEnabled());
    QCOMPARE(alice.pane()->noticeText(), u"The message is 1 character too long (at most 4000)."_s);
    alice.pressEnter();
    QCOMPARE(alice.shownConversation()->rowCount(), 0);
    alice.pane()->input()->setPlainText(QString(4010, u'x'));
    QCOMPARE(
        alice.pane()->noticeText(), u"The message is 10 characters too long (at most 4000)."_s);
    QCOMPARE(alice.pane()->input()->toPlainText().size(), 4010); // kept to shorten it

    // Exactly the limit goes through.
    alice.pane()->input()->setPlainText(QString(4000, u'y'));
    QVERIFY(alice.pane()->sendButton()->isEnabled());
    QVERIFY(alice.pane()->noticeText().isEmpty());
    alice.pressEnter();
    QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 1);

    alice.pane()->input()->setPlainText(u"   \n  "_s);
    QVERIFY(!alice.pane()->sendButton()->isEnabled());
    alice.pressEnter();
    QCOMPARE(alice.pane()->noticeText(), u"Type a message first."_s);
    QCOMPARE(alice.shownConversation()->rowCount(), 1);
}

void TestChatEndToEnd::messageTypedWhileDisconnectedGoesOutOnReconnect()
{
    TcpProxy proxy(m_gateway->port());
    QVERIFY(proxy.isListening());
    Client alice(proxy.url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());

    proxy.setStalled(true);
    proxy.dropAll();
    QTRY_VERIFY(alice.session.state() != GatewaySession::State::Online);
    QVERIFY(!alice.chat.send(u"bob"_s, u"typed offline"_s));
    QVERIFY(!alice.chat.send(u"bob"_s, u"and another"_s));
    ChatModel *conversation = alice.chat.conversation(u"bob"_s);
    QCOMPARE(conversation->at(0).delivery, Delivery::Queued);
    QCOMPARE(conversation->at(1).delivery, Delivery::Queued);

    proxy.setStalled(false);
    QTRY_VERIFY_WITH_TIMEOUT(allDelivered(conversation) && conversation->rowCount() == 2, 5000);
    QTRY_VERIFY(bob.chat.hasConversation(u"alice"_s));
    QTRY_COMPARE(textsOf(bob.chat.conversation(u"alice"_s)),
        (QStringList { u"typed offline"_s, u"and another"_s }));
    QCOMPARE(storedBetween(u"alice"_s, u"bob"_s), 2);
}

void TestChatEndToEnd::messageLostInFlightIsSentAgainExactlyOnce()
{
    TcpProxy proxy(m_gateway->port());
    QVERIFY(proxy.isListening());
    Client alice(proxy.url(), u"alice"_s);
    QVERIFY(alice.waitOnline());
    alice.chat.setActiveConversation(u"bob"_s);
    ChatModel *conversation = alice.chat.conversation(u"bob"_s);
    QTRY_VERIFY(conversation->historyState() == ChatModel::HistoryState::Loaded);

    // The path swallows the frame, then breaks: the gateway never saw it.
    proxy.setStalled(true);
    QVERIFY(!alice.chat.send(u"bob"_s, u"in flight"_s));
    QTRY_COMPARE(conversation->at(0).delivery, Delivery::Sending);
    proxy.dropAll();
    QTRY_COMPARE(conversation->at(0).delivery, Delivery::Unconfirmed);
    QCOMPARE(storedBetween(u"alice"_s, u"bob"_s), 0);

    // Back online, the latest page shows it missing: it goes out again, once.
    proxy.setStalled(false);
    QTRY_VERIFY_WITH_TIMEOUT(allDelivered(conversation) && conversation->rowCount() == 1, 5000);
    QCOMPARE(storedBetween(u"alice"_s, u"bob"_s), 1);

    // And one the gateway did store before the break is not sent twice: cut the path after
    // the gateway has it but before alice reads the acknowledgement.
    QVERIFY(!alice.chat.send(u"bob"_s, u"stored"_s));
    QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 2);
    // The acknowledgement may already be in; either way the outcome must be one copy.
    proxy.dropAll();
    QTRY_VERIFY_WITH_TIMEOUT(allDelivered(conversation) && conversation->rowCount() == 2
            && alice.session.state() == GatewaySession::State::Online,
        5000);
    QTRY_VERIFY(conversation->historyState() == ChatModel::HistoryState::Loaded);
    QCOMPARE(textsOf(conversation), (QStringList { u"in flight"_s, u"stored"_s }));
    QCOMPARE(storedBetween(u"alice"_s, u"bob"_s), 2);
}

void TestChatEndToEnd::missedMessagesCountAsUnreadAfterReconnect()
{
    TcpProxy proxy(m_gateway->port());
    QVERIFY(proxy.isListening());
    Client alice(proxy.url(), u"alice"_s);
    Client bob(m_gateway->url(), u"bob"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    // alice has read the conversation with bob on this run, and has dave's open now.
    alice.chat.setActiveConversation(u"bob"_s);
    QTRY_VERIFY(
        alice.chat.conversation(u"bob"_s)->historyState() == ChatModel::HistoryState::Loaded);
    alice.chat.setActiveConversation(u"dave"_s);

    proxy.setStalled(true);
    proxy.dropAll();
    QTRY_VERIFY(alice.session.state() != GatewaySession::State::Online);
    QVERIFY(!bob.chat.send(u"alice"_s, u"while you were away"_s));
    QTRY_COMPARE(storedBetween(u"alice"_s, u"bob"_s), 1);

    proxy.setStalled(false);
    QTRY_COMPARE_WITH_TIMEOUT(alice.friends.unreadCount(u"bob"_s), 1, 5000);
    QCOMPARE(textsOf(alice.chat.conversation(u"bob"_s)), QStringList { u"while you were away"_s });
}

QTEST_MAIN(TestChatEndToEnd)
#include "tst_chat_end_to_end.moc"
