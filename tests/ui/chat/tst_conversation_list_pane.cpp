// The Chats tab: the list and its rows (times, "You: …", the unread badge in the palette's
// colour), and against a real gateway through the real main window: new messages move rows
// and count as unread, a click opens the chat, and (with a gateway that keeps read markers)
// unread counts that survive a restart and follow the user across devices.

// C++
#include <memory>

// Qt
#include <QApplication>
#include <QImage>
#include <QLabel>
#include <QListView>
#include <QLoggingCategory>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTimeZone>

// Presence
#include "GatewayFixture.h"
#include "PaletteProbe.h"
#include "SessionFixture.h"
#include "WindowFixture.h"
#include "app/SessionModelBridge.h"
#include "models/ChatModel.h"
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "server-mock/chat/MemoryChatStore.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "ui/chat/ChatPane.h"
#include "ui/chat/ConversationDelegate.h"
#include "ui/chat/ConversationListPane.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/MainWindow.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ConversationListModel;
using Presence::Server::Gateway;
using Presence::Server::MemoryChatStore;
using Presence::Session::GatewaySession;
using Presence::Ui::ConversationDelegate;
using Presence::Ui::ConversationListPane;

namespace {

QList<TestUser> population()
{
    return {
        { u"alice"_s, { u"bob"_s, u"dave"_s }, u"Alice Liddell"_s },
        { u"bob"_s, {}, u"Bob Dylan"_s },
        { u"dave"_s, {}, u"Dave Brubeck"_s },
    };
}

ChatMessageRecord record(const QString &id, const QString &from, qint64 ts, const QString &text)
{
    ChatMessageRecord message;
    message.id = id;
    message.from = from;
    message.text = text;
    message.ts = ts;
    return message;
}

// The friends of the chats, top to bottom.
QStringList orderOf(const ConversationListModel &list)
{
    QStringList ids;
    for (int row = 0; row < list.rowCount(); ++row)
        ids.append(list.at(row).friendId);
    return ids;
}

// A client without widgets.
struct Headless : ClientFixture {
    Headless(const QUrl &url, const QString &id) { signIn(url, id); }
    [[nodiscard]] QStringList order() const { return orderOf(*chat.conversationList()); }
};

// alice's window, wired as the application wires it.
struct Window : WindowFixture {
    explicit Window(const QUrl &url)
        : WindowFixture(url, u"alice"_s, QSize(800, 500))
    {
    }
    [[nodiscard]] bool waitOnline() const { return WindowFixture::waitOnline(2); }
    [[nodiscard]] ConversationListModel *list() const { return chat.conversationList(); }
    [[nodiscard]] QStringList order() const { return orderOf(*list()); }
};

// How many pixels of `image` are (nearly) `color`.
int pixelsOf(const QImage &image, const QColor &color)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (std::abs(pixel.red() - color.red()) + std::abs(pixel.green() - color.green())
                    + std::abs(pixel.blue() - color.blue())
                < 12)
                ++count;
        }
    }
    return count;
}

} // namespace

class TestConversationListPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
        QLocale::setDefault(QLocale::c());
    }
    void cleanup() { m_gateway.reset(); }

    void timesAndPreviews();
    void badgeIsPaintedFromThePalette_data();
    void badgeIsPaintedFromThePalette();
    void paneSaysWhenThereAreNoChatsAndAsksForTheClickedOne();
    void newMessagesFillTheChatsTabLive();
    void messagesInTheSameMillisecondKeepTheOrderTheyCameIn();
    void unreadSurvivesARestartAndFollowsAcrossDevices();
    void messagesAreReadAsTheyComeOnScreen();
    void altUpAndDownStepThroughTheChatsShown();
    void aGatewayWithoutChatIsSaidInTheChatsTab();

private:
    std::unique_ptr<Gateway> m_gateway;
};

void TestConversationListPane::timesAndPreviews()
{
    const QDateTime now(QDate(2026, 3, 14), QTime(15, 30), Qt::UTC);
    const qint64 earlierToday
        = QDateTime(QDate(2026, 3, 14), QTime(9, 5), Qt::UTC).toMSecsSinceEpoch();
    const qint64 yesterday
        = QDateTime(QDate(2026, 3, 13), QTime(23, 59), Qt::UTC).toMSecsSinceEpoch();
    QCOMPARE(ConversationDelegate::timeText(earlierToday, now), u"09:05"_s);
    QCOMPARE(ConversationDelegate::timeText(yesterday, now),
        QLocale().toString(QDate(2026, 3, 13), QLocale::ShortFormat));
    QVERIFY(ConversationDelegate::timeText(yesterday, now) != u"23:59"_s);
    // The locale's short time: twelve-hour where that is the custom, never seconds.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    const QString american = ConversationDelegate::timeText(earlierToday, now);
    QLocale::setDefault(QLocale::c());
    QVERIFY2(american.startsWith(u"9:05"_s) && american.endsWith(u"AM"_s), qPrintable(american));

    ConversationListModel model;
    model.setSelfId(u"me"_s);
    model.setConversations({ { u"bob"_s, record(u"1"_s, u"me"_s, earlierToday, u"see\nyou"_s), 0 },
        { u"dave"_s, record(u"2"_s, u"dave"_s, yesterday, u"hello"_s), 2 } });
    const QModelIndex dave = model.index(0);
    const QModelIndex bob = model.index(1);
    QCOMPARE(ConversationDelegate::previewText(bob), u"You: see you"_s);
    QCOMPARE(ConversationDelegate::previewText(dave), u"hello"_s);
    const QString spoken = ConversationDelegate::accessibleText(dave, now);
    QVERIFY2(spoken.contains(u"2 unread"_s), qPrintable(spoken));
    QVERIFY2(spoken.startsWith(u"dave"_s), qPrintable(spoken));
}

void TestConversationListPane::badgeIsPaintedFromThePalette_data()
{
    QTest::addColumn<QString>("palette");
    QTest::addRow("light") << u"light"_s;
    QTest::addRow("dark") << u"dark"_s;
}

void TestConversationListPane::badgeIsPaintedFromThePalette()
{
    QFETCH(QString, palette);
    QPalette colours = paletteNamed(palette);
    colours.setColor(QPalette::Highlight, QColor(0xd0, 0x20, 0xc0)); // a colour nothing else has
    ConversationListModel model;
    model.setConversations({ { u"bob"_s, record(u"1"_s, u"bob"_s, 1000, u"hi"_s), 3 },
        { u"dave"_s, record(u"2"_s, u"dave"_s, 900, u"yo"_s), 0 } });
    ConversationDelegate delegate;
    QStyleOptionViewItem option;
    option.palette = colours;
    option.font = QApplication::font();
    option.rect
        = QRect(QPoint(0, 0), delegate.sizeHint(option, model.index(0)).expandedTo({ 320, 0 }));
    option.state = QStyle::State_Enabled;
    const auto paintRow = [&](int row) {
        QImage image(option.rect.size(), QImage::Format_RGB32);
        image.fill(colours.color(QPalette::Base));
        QPainter painter(&image);
        delegate.paint(&painter, option, model.index(row));
        return image;
    };
    const QColor highlight = colours.color(QPalette::Highlight);
    QVERIFY2(pixelsOf(paintRow(0), highlight) > 20, "an unread row shows the badge");
    QCOMPARE(pixelsOf(paintRow(1), highlight), 0);
}

void TestConversationListPane::paneSaysWhenThereAreNoChatsAndAsksForTheClickedOne()
{
    ConversationListModel model;
    ConversationListPane pane(&model);
    pane.resize(300, 400);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QVERIFY(pane.isShowingEmptyState());
    QVERIFY(pane.emptyState()->isVisible());
    model.noteMessage(u"bob"_s, record(u"1"_s, u"bob"_s, 1000, u"hi"_s));
    model.noteMessage(u"dave"_s, record(u"2"_s, u"dave"_s, 2000, u"yo"_s));
    QVERIFY(!pane.isShowingEmptyState());
    QVERIFY(pane.view()->isVisible());

    QSignalSpy requested(&pane, &ConversationListPane::chatRequested);
    QVERIFY(requested.isValid());
    const QRect bobRow
        = pane.view()->visualRect(pane.view()->model()->index(*model.rowOf(u"bob"_s), 0));
    QTest::mouseClick(pane.view()->viewport(), Qt::LeftButton, {}, bobRow.center());
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.at(0).at(0).toString(), u"bob"_s);
    // The rows the view shows are read out as the delegate words them.
    for (int row = 0; row < model.rowCount(); ++row) {
        QCOMPARE(pane.view()->model()->index(row, 0).data(Qt::AccessibleTextRole).toString(),
            ConversationDelegate::accessibleText(model.index(row), pane.delegate()->now()));
    }

    // The open chat's row stays the current one when the order changes.
    pane.showFriend(u"bob"_s);
    model.noteMessage(u"bob"_s, record(u"3"_s, u"bob"_s, 3000, u"again"_s));
    QCOMPARE(model.rowOf(u"bob"_s), std::optional<int>(0));
    QCOMPARE(
        pane.view()->currentIndex().data(ConversationListModel::FriendIdRole).toString(), u"bob"_s);
}

void TestConversationListPane::newMessagesFillTheChatsTabLive()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
    Window alice(m_gateway->url());
    Headless bob(m_gateway->url(), u"bob"_s);
    Headless dave(m_gateway->url(), u"dave"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(dave.waitOnline());
    QTabWidget *tabs = alice.window.leftTabs();
    QCOMPARE(tabs->count(), 2);
    QCOMPARE(tabs->widget(0), alice.window.conversationListPane());
    QCOMPARE(tabs->widget(1), alice.window.friendList());
    tabs->setCurrentWidget(alice.window.conversationListPane());

    QVERIFY(bob.chat.send(u"alice"_s, u"hi from bob"_s) == std::nullopt);
    QTRY_COMPARE(alice.order(), QStringList { u"bob"_s });
    QVERIFY(dave.chat.send(u"alice"_s, u"hi from dave"_s) == std::nullopt);
    QTRY_COMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));
    QCOMPARE(alice.list()->unread(u"bob"_s), 1);
    QCOMPARE(alice.friends.unreadCount(u"bob"_s), 1); // the friend list says the same
    QCOMPARE(
        alice.list()->index(0).data(ConversationListModel::NameRole).toString(), u"Dave Brubeck"_s);
    QTRY_COMPARE(alice.window.windowTitle(), u"(2) Presence Chat"_s);
    QCOMPARE(tabs->tabText(0), u"Chats (2)"_s);

    // A click on Bob's row opens his chat and reads it; his row keeps its place (no unread
    // left on either, so the newest activity decides).
    ConversationListPane *pane = alice.window.conversationListPane();
    const QRect bobRow
        = pane->view()->visualRect(pane->view()->model()->index(*alice.list()->rowOf(u"bob"_s), 0));
    QTest::mouseClick(pane->view()->viewport(), Qt::LeftButton, {}, bobRow.center());
    QCOMPARE(alice.window.chatPane()->friendId(), u"bob"_s);
    QTRY_COMPARE(alice.list()->unread(u"bob"_s), 0);
    QCOMPARE(alice.friends.unreadCount(u"bob"_s), 0);
    QTRY_COMPARE(alice.window.windowTitle(), u"(1) Presence Chat"_s);

    // Our answer goes to the top with "You: …".
    QVERIFY(alice.chat.send(u"bob"_s, u"hello bob"_s) == std::nullopt);
    QTRY_COMPARE(alice.list()->index(1).data(ConversationListModel::LastTextRole).toString(),
        u"hello bob"_s);
    // Dave still has an unread message: he stays above.
    QCOMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));
    QCOMPARE(ConversationDelegate::previewText(alice.list()->index(1)), u"You: hello bob"_s);
    // Bob's list has Alice's answer as the latest, from her.
    QTRY_COMPARE(
        bob.chat.conversationList()->index(0).data(ConversationListModel::LastTextRole).toString(),
        u"hello bob"_s);
    QVERIFY(!bob.chat.conversationList()
                 ->index(0)
                 .data(ConversationListModel::LastFromSelfRole)
                 .toBool());
}

void TestConversationListPane::messagesInTheSameMillisecondKeepTheOrderTheyCameIn()
{
    // The gateway's clock stands still: every message has the time of the one before, as two
    // sent within a millisecond have. The chat written to last still goes on top, live and in
    // the list a fresh client gets.
    m_gateway = startGateway(population(), testConfig(), nullptr,
        new MemoryChatStore(
            MemoryChatStore::kDefaultCapacity, [] { return qint64(1773500000000); }));
    QVERIFY(m_gateway);
    Headless alice(m_gateway->url(), u"alice"_s);
    Headless bob(m_gateway->url(), u"bob"_s);
    Headless dave(m_gateway->url(), u"dave"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(dave.waitOnline());

    QVERIFY(bob.chat.send(u"alice"_s, u"one"_s) == std::nullopt);
    QTRY_COMPARE(alice.order(), QStringList { u"bob"_s });
    QVERIFY(dave.chat.send(u"alice"_s, u"two"_s) == std::nullopt);
    QTRY_COMPARE(alice.chat.conversationList()->rowCount(), 2);
    QCOMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));
    QVERIFY(bob.chat.send(u"alice"_s, u"three"_s) == std::nullopt);
    QTRY_COMPARE(alice.chat.conversationList()->unread(u"bob"_s), 2);
    QCOMPARE(alice.order(), (QStringList { u"bob"_s, u"dave"_s }));
    QVERIFY(dave.chat.send(u"alice"_s, u"four"_s) == std::nullopt);
    QTRY_COMPARE(alice.chat.conversationList()->unread(u"dave"_s), 2);
    QCOMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));

    Headless phone(m_gateway->url(), u"alice"_s);
    QVERIFY(phone.waitOnline());
    QTRY_COMPARE(phone.chat.conversationList()->rowCount(), 2);
    QCOMPARE(phone.order(), (QStringList { u"dave"_s, u"bob"_s }));
}

void TestConversationListPane::unreadSurvivesARestartAndFollowsAcrossDevices()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
    {
        // Bob writes while Alice is away.
        Headless bob(m_gateway->url(), u"bob"_s);
        QVERIFY(bob.waitOnline());
        QVERIFY(bob.chat.send(u"alice"_s, u"one"_s) == std::nullopt);
        QVERIFY(bob.chat.send(u"alice"_s, u"two"_s) == std::nullopt);
        QTRY_COMPARE(bob.chat.conversation(u"alice"_s)->deliveredCount(), 2);
    }
    auto phone = std::make_unique<Headless>(m_gateway->url(), u"alice"_s);
    QVERIFY(phone->waitOnline());
    // A fresh client knows what is unread: the gateway said so.
    QTRY_COMPARE(phone->chat.conversationList()->unread(u"bob"_s), 2);
    QTRY_COMPARE(phone->friends.unreadCount(u"bob"_s), 2);
    QCOMPARE(phone->chat.conversationList()->at(0).last.text, u"two"_s);

    Window desk(m_gateway->url());
    QVERIFY(desk.waitOnline());
    QTRY_COMPARE(desk.list()->unread(u"bob"_s), 2);
    QTRY_COMPARE(desk.window.windowTitle(), u"(2) Presence Chat"_s);

    // Reading on the desk clears the phone's badge too.
    desk.window.activateWindow();
    QTRY_VERIFY(desk.window.isActiveWindow());
    desk.window.openChat(u"bob"_s);
    QTRY_COMPARE(desk.chat.conversation(u"bob"_s)->deliveredCount(), 2);
    QTRY_COMPARE(phone->chat.conversationList()->unread(u"bob"_s), 0);
    QCOMPARE(phone->friends.unreadCount(u"bob"_s), 0);
    QCOMPARE(desk.list()->unread(u"bob"_s), 0);
    QTRY_COMPARE(desk.window.windowTitle(), u"Presence Chat"_s);

    // A new message while the desk reads: the phone counts it, then hears it was read.
    Headless bob(m_gateway->url(), u"bob"_s);
    QVERIFY(bob.waitOnline());
    QSignalSpy markers(&phone->session, &GatewaySession::readMarkerReceived);
    QVERIFY(markers.isValid());
    QVERIFY(bob.chat.send(u"alice"_s, u"three"_s) == std::nullopt);
    QTRY_COMPARE(desk.chat.conversation(u"bob"_s)->deliveredCount(), 3);
    QTRY_VERIFY(!markers.isEmpty());
    QCOMPARE(markers.last().at(0).toString(), u"bob"_s);
    QCOMPARE(markers.last().at(2).toInt(), 0);
    QTRY_COMPARE(phone->chat.conversationList()->unread(u"bob"_s), 0);
    QCOMPARE(phone->chat.conversationList()->at(0).last.text, u"three"_s);

    // A restart keeps it: nothing unread, the latest message known.
    phone.reset();
    phone = std::make_unique<Headless>(m_gateway->url(), u"alice"_s);
    QVERIFY(phone->waitOnline());
    QTRY_COMPARE(phone->chat.conversationList()->rowCount(), 1);
    QCOMPARE(phone->chat.conversationList()->unread(u"bob"_s), 0);
    QCOMPARE(phone->chat.conversationList()->at(0).last.text, u"three"_s);

    // Reading is coalesced and forward only: the desk sent one read per newest message.
    QCOMPARE(markers.size(), 1);
}

void TestConversationListPane::messagesAreReadAsTheyComeOnScreen()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
    constexpr int kSent = 25;
    {
        Headless bob(m_gateway->url(), u"bob"_s);
        QVERIFY(bob.waitOnline());
        for (int n = 1; n <= kSent; ++n)
            QVERIFY(bob.chat.send(u"alice"_s, u"line %1\nand more"_s.arg(n)) == std::nullopt);
        QTRY_COMPARE(bob.chat.conversation(u"alice"_s)->deliveredCount(), kSent);
    }
    Headless phone(m_gateway->url(), u"alice"_s);
    QVERIFY(phone.waitOnline());
    Window desk(m_gateway->url());
    QVERIFY(desk.waitOnline());
    QTRY_COMPARE(desk.list()->unread(u"bob"_s), kSent);
    desk.window.activateWindow();
    QTRY_VERIFY(desk.window.isActiveWindow());

    // Opened, the chat shows the first unread messages, not all of them: those not wholly on
    // screen stay unread, in the badge, the tab, the title and on the user's other devices.
    desk.window.openChat(u"bob"_s);
    Presence::Models::ChatModel *model = desk.chat.conversation(u"bob"_s);
    QTRY_COMPARE(model->deliveredCount(), kSent);
    QListView *view = desk.window.chatPane()->messageView();
    const auto notWhollyShown = [view, model] {
        int count = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            // The pane's own measure: a row ending within two pixels of the bottom is shown.
            if (view->visualRect(view->model()->index(row, 0)).bottom()
                > view->viewport()->rect().bottom() + 2)
                ++count;
        }
        return count;
    };
    QTRY_VERIFY(!desk.window.chatPane()->shownUpTo().isEmpty());
    const int unread = notWhollyShown();
    QVERIFY2(unread > 0 && unread < kSent, qPrintable(QString::number(unread)));
    QTRY_COMPARE(desk.list()->unread(u"bob"_s), unread);
    QCOMPARE(desk.friends.unreadCount(u"bob"_s), unread);
    QCOMPARE(desk.window.windowTitle(), u"(%1) Presence Chat"_s.arg(unread));
    QCOMPARE(desk.window.leftTabs()->tabText(0), u"Chats (%1)"_s.arg(unread));
    QTRY_COMPARE(phone.chat.conversationList()->unread(u"bob"_s), unread);

    // Scrolling down reads the rest; scrolling back up reads nothing again.
    view->scrollToBottom();
    QTRY_COMPARE(desk.list()->unread(u"bob"_s), 0);
    QTRY_COMPARE(desk.window.windowTitle(), u"Presence Chat"_s);
    QTRY_COMPARE(phone.chat.conversationList()->unread(u"bob"_s), 0);
    view->scrollToTop();
    QTRY_VERIFY(desk.window.chatPane()->shownUpTo() != model->at(kSent - 1).id);
    QCOMPARE(desk.list()->unread(u"bob"_s), 0);
}

void TestConversationListPane::altUpAndDownStepThroughTheChatsShown()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
    Window alice(m_gateway->url());
    Headless bob(m_gateway->url(), u"bob"_s);
    Headless dave(m_gateway->url(), u"dave"_s);
    QVERIFY(alice.waitOnline());
    QVERIFY(bob.waitOnline());
    QVERIFY(dave.waitOnline());
    alice.window.activateWindow();
    QTRY_VERIFY(alice.window.isActiveWindow());
    alice.window.leftTabs()->setCurrentWidget(alice.window.conversationListPane());
    QVERIFY(bob.chat.send(u"alice"_s, u"hi from bob"_s) == std::nullopt);
    QTRY_COMPARE(alice.order(), QStringList { u"bob"_s });
    QVERIFY(dave.chat.send(u"alice"_s, u"hi from dave"_s) == std::nullopt);
    QTRY_COMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));

    // The Friends list (hidden) has Bob above Dave; the Chats tab shows Dave above Bob, and
    // that is the order the keys follow. Each chat is read before the next key: a read
    // can move a row, and the keys follow the order the user sees.
    alice.window.openChat(u"bob"_s);
    Presence::Ui::ChatPane *chat = alice.window.chatPane();
    QTRY_COMPARE(alice.list()->unread(u"bob"_s), 0);
    QCOMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));
    QTest::keyClick(chat->input(), Qt::Key_Up, Qt::AltModifier);
    QTRY_COMPARE(chat->friendId(), u"dave"_s);
    QTRY_COMPARE(alice.list()->unread(u"dave"_s), 0);
    QCOMPARE(alice.order(), (QStringList { u"dave"_s, u"bob"_s }));
    QTest::keyClick(chat->input(), Qt::Key_Down, Qt::AltModifier);
    QTRY_COMPARE(chat->friendId(), u"bob"_s);
    QCOMPARE(alice.window.conversationListPane()
                 ->view()
                 ->currentIndex()
                 .data(ConversationListModel::FriendIdRole)
                 .toString(),
        u"bob"_s);
    // Past the last chat: nothing else opens.
    QTest::keyClick(chat->input(), Qt::Key_Down, Qt::AltModifier);
    QCOMPARE(chat->friendId(), u"bob"_s);
}

void TestConversationListPane::aGatewayWithoutChatIsSaidInTheChatsTab()
{
    // V5: a presence-only gateway: the empty Chats tab says why it is empty instead of
    // inviting the user to say hello, while the friend list works as ever.
    auto config = testConfig();
    config.chat = false;
    m_gateway = startGateway(population(), config);
    QVERIFY(m_gateway);
    Window alice(m_gateway->url());
    QVERIFY(alice.waitOnline());
    ConversationListPane *pane = alice.window.conversationListPane();
    QTRY_VERIFY(!alice.chat.chatOffered());
    QVERIFY(pane->isShowingEmptyState());
    QVERIFY2(pane->emptyState()->text().contains(u"offers no chat"_s),
        qPrintable(pane->emptyState()->text()));
    QCOMPARE(alice.friends.rowCount(), 2);
}

QTEST_MAIN(TestConversationListPane)
#include "tst_conversation_list_pane.moc"
