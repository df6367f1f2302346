// The chat pane's widgets, driven as a user drives them (offscreen): a session that is not
// connected, a friend list with one friend, and the conversation's model fed directly, so
// every message and time is the test's. What the gateway does is tst_chat_end_to_end's.
// Qt
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QLabel>
#include <QListView>
#include <QMenu>
#include <QMouseEvent>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTest>
#include <QTimer>

// Presence
#include "GatewayFixture.h"
#include "SessionFixture.h"
#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"
#include "session/GatewaySession.h"
#include "tests/support/PaletteProbe.h"
#include "ui/chat/ChatHeader.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/ChatPane.h"
#include "ui/chat/MessageInput.h"
#include "ui/chat/MessageLinkHandler.h"
#include "ui/chat/NewMessagesPill.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::FriendListModel;
using Presence::Session::ChatController;
using Presence::Session::GatewaySession;
using Presence::Ui::ChatMessageDelegate;
using Presence::Ui::ChatPane;

namespace {

ChatMessageRecord fromAda(int n, const QString &text = {})
{
    ChatMessageRecord record;
    record.id = u"m%1"_s.arg(n, 4, 10, QChar(u'0'));
    record.from = u"ada"_s;
    record.text = text.isEmpty() ? u"Message number %1 from Ada"_s.arg(n) : text;
    // Ten minutes apart: every message is a group of its own, with its time.
    record.ts = QDateTime::currentDateTime().addSecs(-30000 + n * 600).toMSecsSinceEpoch();
    return record;
}

QList<ChatMessageRecord> fromAda(int first, int count)
{
    QList<ChatMessageRecord> records;
    for (int n = first; n < first + count; ++n)
        records.append(fromAda(n));
    return records;
}

// Gets the link clicks that QDesktopServices would give the browser.
class LinkCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public Q_SLOTS:
    void open(const QUrl &url) { opened.append(url); }
};

// The pane as the main window holds it, for "ada" (Ada Lovelace), in a window of `size`.
struct PaneFixture {
    explicit PaneFixture(QSize size = { 420, 520 })
        : chat(&session, &friends)
        , pane(&chat, &friends)
    {
        friends.setFriends({ { u"ada"_s, u"Ada Lovelace"_s }, { u"ada2"_s, u"Ada Lovelace"_s } });
        pane.resize(size);
        pane.show();
    }
    [[nodiscard]] ChatModel *model() { return chat.conversation(u"ada"_s); }
    // What a loaded history page does to the model.
    void load(const QList<ChatMessageRecord> &page)
    {
        model()->mergeHistory(page, false, false);
        model()->setHistoryState(ChatModel::HistoryState::Loaded);
    }
    void open() { pane.setFriend(u"ada"_s); }
    [[nodiscard]] QListView *view() const { return pane.messageView(); }
    // A row as the view has it (its model is the pane's proxy of model()).
    [[nodiscard]] QModelIndex row(int row) const { return view()->model()->index(row, 0); }
    [[nodiscard]] QScrollBar *bar() const { return view()->verticalScrollBar(); }
    [[nodiscard]] bool atBottom() const { return bar()->value() == bar()->maximum(); }
    // The newest message is wholly inside the viewport.
    [[nodiscard]] bool newestVisible() const
    {
        const QRect last
            = view()->visualRect(view()->model()->index(view()->model()->rowCount() - 1, 0));
        return view()->viewport()->rect().contains(last);
    }

    GatewaySession session;
    FriendListModel friends;
    ChatController chat;
    ChatPane pane;
};

QImage grabbed(QWidget *widget)
{
    QImage image(widget->size(), QImage::Format_ARGB32_Premultiplied);
    widget->render(&image);
    return image;
}

// The bounding box of the pixels further than 30 from `base`.
QRect paintedBox(const QImage &image, const QColor &base)
{
    QRect box;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (colorDistance(image.pixelColor(x, y), base) > 30)
                box |= QRect(x, y, 1, 1);
        }
    }
    return box;
}

} // namespace

class TestChatPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void placeholderFitsANarrowPane();
    void newestMessageStaysInViewWhenTheInputGrows();
    void newMessagesWhileScrolledUpShowThePill();
    void openingWithUnreadPlacesTheDivider();
    void sendingClearsTheDivider();
    void emptyConversationIsCentred();
    void rightClickCopiesWithoutASelectionBand();
    void ctrlCCopiesTheMessageWithTheRing();
    void linksOpenOnClickWithAPointingHand();
    void headerShowsTheHandle();
    void rowsSayWhoWroteWhat();
    void aGatewayWithoutChatSaysSoAndTakesNoInput();
};

void TestChatPane::initTestCase()
{
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
}

void TestChatPane::placeholderFitsANarrowPane()
{
    // A 600 px window leaves the chat pane about 350 px.
    PaneFixture f({ 350, 400 });
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    auto *input = f.pane.input();
    const auto fits = [input] {
        return input->fontMetrics().horizontalAdvance(input->placeholderText())
            <= input->placeholderRoom();
    };
    QVERIFY(!input->placeholderText().isEmpty());
    QVERIFY2(fits(),
        qPrintable(u"'%1' is %2 px in %3"_s.arg(input->placeholderText())
                       .arg(input->fontMetrics().horizontalAdvance(input->placeholderText()))
                       .arg(input->placeholderRoom())));
    QVERIFY(input->placeholderRoom() < input->viewport()->width());
    QVERIFY(input->placeholderText().startsWith(u"Message Ada"_s));

    // Wide: the keys are told too.
    f.pane.resize(900, 400);
    QTRY_VERIFY(input->placeholderText().contains(u"Shift+Enter"_s));
    QVERIFY(fits());
    // Very narrow: elided, never clipped.
    f.pane.resize(160, 400);
    QTRY_VERIFY(input->placeholderText().endsWith(u"…"_s));
    QVERIFY(fits());
}

void TestChatPane::newestMessageStaysInViewWhenTheInputGrows()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 40));
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QTRY_VERIFY(f.bar()->maximum() > 0);
    QTRY_VERIFY(f.atBottom());
    QVERIFY(f.newestVisible());
    const int viewHeight = f.view()->height();

    f.pane.focusInput();
    QTest::keyClicks(f.pane.input(), u"one"_s);
    for (const QString &line : { u"two"_s, u"three"_s, u"four"_s, u"five"_s }) {
        QTest::keyClick(f.pane.input(), Qt::Key_Return, Qt::ShiftModifier);
        QTest::keyClicks(f.pane.input(), line);
    }
    // The input grew, the view shrank, and the newest message is still there at the bottom.
    QTRY_VERIFY(f.view()->height() < viewHeight - 40);
    QTRY_VERIFY(f.atBottom());
    QVERIFY(f.newestVisible());

    // Scrolled up, the reading place is left alone when the input shrinks again.
    f.bar()->setValue(f.bar()->maximum() / 2);
    const int value = f.bar()->value();
    f.pane.input()->clear();
    QTRY_VERIFY(f.view()->height() > viewHeight - 10);
    QCOMPARE(f.bar()->value(), value);
}

void TestChatPane::newMessagesWhileScrolledUpShowThePill()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 30));
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QTRY_VERIFY(f.atBottom());
    auto *pill = f.pane.newMessagesPill();
    QVERIFY(!pill->isVisible());

    // At the bottom, a new message is followed, without a pill or a divider.
    f.model()->appendDelivered(fromAda(31));
    QTRY_VERIFY(f.atBottom());
    QVERIFY(f.newestVisible());
    QVERIFY(!pill->isVisible());
    QVERIFY(f.pane.messageDelegate()->firstUnreadId().isEmpty());

    // Scrolled up: the view stays, the pill counts, the divider marks the first new one.
    f.bar()->setValue(f.bar()->maximum() / 2);
    const int value = f.bar()->value();
    f.model()->appendDelivered(fromAda(32));
    f.model()->appendDelivered(fromAda(33));
    QTRY_VERIFY(pill->isVisible());
    QCOMPARE(pill->count(), 2);
    QCOMPARE(pill->text(), u"2 new messages ↓"_s);
    QCOMPARE(f.bar()->value(), value);
    QCOMPARE(f.pane.messageDelegate()->firstUnreadId(), fromAda(32).id);
    // Over the bottom of the message area, centred.
    const QRect viewport = f.view()->viewport()->geometry();
    QVERIFY(viewport.contains(pill->geometry()));
    QVERIFY(qAbs(pill->geometry().center().x() - viewport.center().x()) <= 2);
    QVERIFY(pill->geometry().bottom() > viewport.center().y());

    // A click goes down to the newest; the pill goes, the divider stays where it was.
    QTest::mouseClick(pill, Qt::LeftButton);
    QTRY_VERIFY(f.atBottom());
    QVERIFY(f.newestVisible());
    QTRY_VERIFY(!pill->isVisible());
    QCOMPARE(f.pane.messageDelegate()->firstUnreadId(), fromAda(32).id);

    // Up again: the next new one moves the divider; scrolling down by hand hides the pill.
    f.bar()->setValue(0);
    f.model()->appendDelivered(fromAda(34));
    QTRY_VERIFY(pill->isVisible());
    QCOMPARE(pill->text(), u"1 new message ↓"_s);
    QCOMPARE(f.pane.messageDelegate()->firstUnreadId(), fromAda(34).id);
    f.bar()->setValue(f.bar()->maximum());
    QTRY_VERIFY(!pill->isVisible());
}

void TestChatPane::openingWithUnreadPlacesTheDivider()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 40));
    f.friends.setUnreadCount(u"ada"_s, 12);
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    // Above the first of the 12 unread, which is brought into view at the top.
    QCOMPARE(f.pane.messageDelegate()->firstUnreadId(), fromAda(29).id);
    const QModelIndex first = f.row(28);
    QTRY_VERIFY(f.view()->viewport()->rect().contains(f.view()->visualRect(first).topLeft()));
    QVERIFY(!f.atBottom());
    QCOMPARE(f.friends.unreadCount(u"ada"_s), 0);

    // Another friend's chat has no divider.
    f.pane.setFriend(u"ada2"_s);
    QVERIFY(f.pane.messageDelegate()->firstUnreadId().isEmpty());
}

void TestChatPane::sendingClearsTheDivider()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 30));
    f.friends.setUnreadCount(u"ada"_s, 2);
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QCOMPARE(f.pane.messageDelegate()->firstUnreadId(), fromAda(29).id);
    f.pane.focusInput();
    QTest::keyClicks(f.pane.input(), u"On my way"_s);
    QTest::keyClick(f.pane.input(), Qt::Key_Return);
    QCOMPARE(f.model()->rowCount(), 31); // queued: the session is not connected
    QVERIFY(f.pane.messageDelegate()->firstUnreadId().isEmpty());
    QTRY_VERIFY(f.atBottom());
}

void TestChatPane::emptyConversationIsCentred()
{
    PaneFixture f({ 500, 500 });
    f.load({});
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QCOMPARE(f.pane.historyText(), u"No messages with Ada Lovelace yet. Say hello!"_s);
    QTRY_VERIFY(f.pane.emptyState()->isVisible());
    // The words are painted in the middle of the message area.
    QWidget *viewport = f.view()->viewport();
    const QRect box = paintedBox(grabbed(viewport), viewport->palette().color(QPalette::Base));
    QVERIFY(box.isValid());
    const QPoint centre = viewport->rect().center();
    QVERIFY2(qAbs(box.center().x() - centre.x()) <= 4 && qAbs(box.center().y() - centre.y()) <= 4,
        qPrintable(u"%1 in %2"_s.arg(QDebug::toString(box), QDebug::toString(viewport->rect()))));
    QVERIFY(box.width() > 100);

    // The first message takes its place.
    f.model()->appendDelivered(fromAda(1));
    QTRY_VERIFY(!f.pane.emptyState()->isVisible());
    QVERIFY(f.pane.historyText().isEmpty());
}

void TestChatPane::rightClickCopiesWithoutASelectionBand()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 3));
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QApplication::clipboard()->clear();
    const QModelIndex index = f.row(2);
    const QRect row = f.view()->visualRect(index);
    QVERIFY(row.isValid());

    // Choose "Copy text" in the menu the right-click opens.
    bool chosen = false;
    QTimer chooser;
    chooser.setInterval(10);
    connect(&chooser, &QTimer::timeout, &chooser, [&] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        for (QAction *action : menu->actions()) {
            if (action->text() == u"Copy text"_s) {
                chosen = true;
                menu->setActiveAction(action);
                QTest::keyClick(menu, Qt::Key_Return);
            }
        }
        chooser.stop();
    });
    chooser.start();
    const QPoint at(row.left() + 30, row.bottom() - 12);
    QTest::mouseClick(f.view()->viewport(), Qt::RightButton, {}, at);
    if (!chosen) {
        // Platforms that open the menu on release or not at all from synthetic clicks.
        QContextMenuEvent event(
            QContextMenuEvent::Mouse, at, f.view()->viewport()->mapToGlobal(at));
        QApplication::sendEvent(f.view()->viewport(), &event);
    }
    QTRY_VERIFY(chosen);
    QTRY_COMPARE(QApplication::clipboard()->text(), fromAda(3).text);

    // No band across the row: nothing in the highlight colour beside the friend's bubble (a
    // ring on the bubble itself says which message the menu was for).
    const QImage image = grabbed(f.view()->viewport());
    const QColor highlight = f.view()->palette().color(QPalette::Highlight);
    int highlighted = 0;
    for (int y = row.top(); y <= row.bottom(); ++y) {
        for (int x = row.center().x(); x <= row.right(); ++x)
            highlighted += colorDistance(image.pixelColor(x, y), highlight) < 40;
    }
    QCOMPARE(highlighted, 0);
}

void TestChatPane::ctrlCCopiesTheMessageWithTheRing()
{
    PaneFixture f({ 420, 420 });
    f.load(fromAda(1, 20));
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QApplication::setActiveWindow(&f.pane);
    QTRY_VERIFY(f.pane.isActiveWindow());
    const QColor highlight = f.view()->palette().color(QPalette::Highlight);
    const auto ringPixels = [&](int row) {
        const QImage image = grabbed(f.view()->viewport());
        const QRect rect
            = f.view()->visualRect(f.row(row)).intersected(f.view()->viewport()->rect());
        int count = 0;
        for (int y = rect.top(); y <= rect.bottom(); ++y) {
            for (int x = rect.left(); x <= rect.right(); ++x)
                count += colorDistance(image.pixelColor(x, y), highlight) < 40;
        }
        return count;
    };

    // Tabbing into the messages puts the ring on the newest one on screen (not on the oldest
    // held, far above), and Ctrl+C copies exactly that one.
    QApplication::clipboard()->setText(u"before"_s);
    f.view()->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(f.view()->hasFocus());
    QCOMPARE(f.view()->currentIndex().row(), 19);
    QVERIFY2(ringPixels(19) > 20, "the current message has a ring");
    QCOMPARE(ringPixels(18), 0);
    QTest::keyClick(f.view(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), fromAda(20).text);

    // The arrows move the ring; a message scrolled out of sight is not copied.
    QTest::keyClick(f.view(), Qt::Key_Up);
    QCOMPARE(f.view()->currentIndex().row(), 18);
    QVERIFY(ringPixels(18) > 20);
    QCOMPARE(ringPixels(19), 0);
    f.view()->scrollToTop();
    QTRY_VERIFY(!f.view()->visualRect(f.row(18)).intersects(f.view()->viewport()->rect()));
    QApplication::clipboard()->setText(u"before"_s);
    QTest::keyClick(f.view(), Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QApplication::clipboard()->text(), u"before"_s);

    // Without focus in the messages, no ring.
    f.pane.input()->setFocus();
    QTRY_VERIFY(f.pane.input()->hasFocus());
    f.view()->scrollToBottom();
    QTRY_VERIFY(f.newestVisible());
    QCOMPARE(ringPixels(18), 0);
}

void TestChatPane::linksOpenOnClickWithAPointingHand()
{
    LinkCatcher catcher;
    QDesktopServices::setUrlHandler(u"https"_s, &catcher, "open");
    PaneFixture f({ 420, 420 });
    f.load({ fromAda(1, u"https://example.org/menu"_s) });
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    QWidget *viewport = f.view()->viewport();
    const QModelIndex index = f.row(0);
    QStyleOptionViewItem option;
    option.initFrom(f.view());
    option.widget = f.view();
    option.rect = f.view()->visualRect(index);
    const ChatMessageDelegate::BubbleLayout parts = f.pane.messageDelegate()->layout(option, index);
    const QPoint onLink = parts.text.toAlignedRect().center();
    const QPoint offLink = parts.bubble.bottomRight() + QPoint(8, -4);
    QCOMPARE(
        f.pane.linkHandler()->linkAt(onLink), std::optional(QUrl(u"https://example.org/menu"_s)));
    QCOMPARE(f.pane.linkHandler()->linkAt(offLink), std::nullopt);

    const auto moveTo = [viewport](const QPoint &pos) {
        QMouseEvent move(QEvent::MouseMove, pos, viewport->mapToGlobal(pos), Qt::NoButton,
            Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
    };
    moveTo(onLink);
    QCOMPARE(viewport->cursor().shape(), Qt::PointingHandCursor);
    moveTo(offLink);
    QCOMPARE(viewport->cursor().shape(), Qt::ArrowCursor);

    QTest::mouseClick(viewport, Qt::LeftButton, {}, offLink);
    QVERIFY(catcher.opened.isEmpty());
    QTest::mouseClick(viewport, Qt::LeftButton, {}, onLink);
    QTRY_COMPARE(catcher.opened, QList<QUrl> { QUrl(u"https://example.org/menu"_s) });
    QDesktopServices::unsetUrlHandler(u"https"_s);
}

void TestChatPane::headerShowsTheHandle()
{
    // Two friends named Ada Lovelace: the handle tells them apart.
    PaneFixture f({ 420, 420 });
    f.open();
    QVERIFY(QTest::qWaitForWindowExposed(&f.pane));
    auto *header = f.pane.header();
    QCOMPARE(header->handleText(), u"@ada"_s);
    const QRect handle = header->handleRect();
    QVERIFY(handle.isValid());
    QVERIFY(header->rect().contains(handle));
    QVERIFY(header->accessibleName().contains(u"@ada"_s));
    // Painted after the name, on its line.
    const QImage image = grabbed(header);
    const QColor window = header->palette().color(QPalette::Window);
    int painted = 0;
    for (int y = handle.top(); y <= handle.bottom(); ++y) {
        for (int x = handle.left(); x <= handle.right(); ++x)
            painted += colorDistance(image.pixelColor(x, y), window) > 30;
    }
    QVERIFY2(painted > 20, qPrintable(QString::number(painted)));
    QFont bold = header->font();
    bold.setWeight(QFont::DemiBold);
    bold.setPointSizeF(header->font().pointSizeF() * 1.15);
    QVERIFY(handle.left() >= QFontMetrics(bold).horizontalAdvance(u"Ada Lovelace"_s));

    f.pane.setFriend(u"ada2"_s);
    QCOMPARE(header->handleText(), u"@ada2"_s);
}

// What a screen reader says of each row: who wrote it, when and what, by the name the friend
// list shows now.
void TestChatPane::rowsSayWhoWroteWhat()
{
    PaneFixture f;
    f.load(fromAda(1, 2));
    f.open();
    const auto spoken
        = [&f](int row) { return f.row(row).data(Qt::AccessibleTextRole).toString(); };
    for (const int row : { 0, 1 }) {
        QVERIFY2(spoken(row).startsWith(u"Ada Lovelace, "_s), qPrintable(spoken(row)));
        QVERIFY2(spoken(row).endsWith(fromAda(row + 1).text), qPrintable(spoken(row)));
    }
    f.friends.setFriends({ { u"ada"_s, u"Ada King"_s } });
    QVERIFY2(spoken(0).startsWith(u"Ada King, "_s), qPrintable(spoken(0)));
}

QTEST_MAIN(TestChatPane)
void TestChatPane::aGatewayWithoutChatSaysSoAndTakesNoInput()
{
    // V5: against a presence-only gateway the pane invited "Say hello!", then failed the
    // message with "unknown_type" and offered a retry that could never work. Now it says once
    // that this gateway offers no chat, and nothing invites typing.
    Presence::Server::GatewayConfig config = testConfig();
    config.chat = false;
    const auto gateway = startGateway({ { u"ada"_s, { u"bo"_s } }, { u"bo"_s, {} } }, config);
    QVERIFY(gateway);
    GatewaySession session(quickSessionOptions());
    FriendListModel friends;
    ChatController chat(&session, &friends);
    ChatPane pane(&chat, &friends);
    friends.setFriends({ { u"bo"_s, u"Bo Diddley"_s } });
    pane.resize(420, 420);
    pane.show();
    pane.setFriend(u"bo"_s);
    QVERIFY(pane.input()->isEnabled());
    session.open(gateway->url(), tokenOf(u"ada"_s));
    QTRY_VERIFY(!chat.chatOffered());

    QVERIFY(!pane.input()->isEnabled());
    QVERIFY(!pane.sendButton()->isEnabled());
    QVERIFY(pane.emptyState()->isVisible());
    QVERIFY2(pane.historyText().contains(u"offers no chat"_s), qPrintable(pane.historyText()));
    QVERIFY(!pane.historyText().contains(u"Say hello"_s));
    QVERIFY(!pane.input()->placeholderText().contains(u"Message"_s));
    QVERIFY(!pane.input()->placeholderText().isEmpty());
    // Another friend's chat says the same; the notice under the input stays empty.
    friends.setFriends({ { u"bo"_s, u"Bo Diddley"_s }, { u"cy"_s, u"Cy Coleman"_s } });
    pane.setFriend(u"cy"_s);
    QVERIFY(pane.historyText().contains(u"offers no chat"_s));
    QVERIFY(pane.noticeText().isEmpty());
}

#include "tst_chat_pane.moc"
