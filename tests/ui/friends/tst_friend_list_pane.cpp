// FriendListPane as the user sees it: which rows are on screen when presence re-sorts the
// list, where the "N more online ↑" chip sits and what a click on it does, and how long the
// order waits under the hand. Every check asks the view (indexAt, the scroll bar, geometry),
// not only the proxy's order: a list can be sorted right and still show the wrong rows. And what
// a screen reader says of a row, unread count included.

// C++
#include <optional>

// Qt
#include <QCursor>
#include <QDateTime>
#include <QHelpEvent>
#include <QLineEdit>
#include <QListView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>
#include <QToolTip>

// Presence
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "ui/friends/FriendDelegate.h"
#include "ui/friends/FriendListPane.h"
#include "ui/friends/MoreOnlineChip.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::PresenceState;
using Presence::Ui::FriendListPane;

namespace {

constexpr int kFriends = 200;

QString friendId(int n)
{
    return u"f%1"_s.arg(n, 3, 10, QLatin1Char('0'));
}

// The list as the client gets it at sign-in: everyone unknown, by name.
QList<FriendRecord> population()
{
    QList<FriendRecord> friends;
    for (int n = 0; n < kFriends; ++n)
        friends.append({ friendId(n), u"Friend %1"_s.arg(n, 3, 10, QLatin1Char('0')) });
    return friends;
}

// Friends 100-139 online, 140-159 away, everyone else offline: the first friends by name are
// offline, as Ada Abara was in the report.
QHash<QString, PresenceState> availabilitySet()
{
    QHash<QString, PresenceState> states;
    for (int n = 0; n < kFriends; ++n) {
        states.insert(friendId(n),
            n >= 100 && n < 140       ? PresenceState::Online
                : n >= 140 && n < 160 ? PresenceState::Away
                                      : PresenceState::Offline);
    }
    return states;
}

struct Scene {
    FriendListModel model;
    std::optional<FriendListPane> pane;

    Scene()
    {
        model.setFriends(population());
        pane.emplace(&model);
        pane->resize(320, 480);
        pane->show();
    }
    [[nodiscard]] QListView *view() const { return pane->view(); }
    [[nodiscard]] QScrollBar *bar() const { return view()->verticalScrollBar(); }
    [[nodiscard]] QString firstShown() const
    {
        return view()->indexAt(QPoint(1, 1)).data(FriendListModel::IdRole).toString();
    }
    [[nodiscard]] PresenceState firstShownState() const
    {
        return PresenceState(
            view()->indexAt(QPoint(1, 1)).data(FriendListModel::SortStatusRole).toInt());
    }
    void setAvailable(const QHash<QString, PresenceState> &states)
    {
        model.updateAvailability(states, true);
        model.flush();
    }
    void set(int n, PresenceState state)
    {
        model.updatePresence(friendId(n), state, std::nullopt);
        model.flush();
    }
};

} // namespace

class TestFriendListPane : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void opensOnTheOnlineFriends();
    void topStaysAtTheTopWhenItsFriendLeaves();
    void topStaysAtTheTopWithASelectedRow();
    void rowBeingReadKeepsItsPlaceBelowTheTop();
    void chipFloatsAboveTheRowsAndTakesItsClicks();
    void chipCountsOnlyFriendsWhoCameOnline();
    void restingPointerLetsTheOrderSettle();
    void clickAtTheTopOpensTheFriendUnderThePointer();
    void clickRightAfterTheRowChangedOpensNothing();
    void reloadKeepsTheRowBeingReadAndTheSelection();
    void enterInAnEmptySearchOpensNothing();
    void accessibleTextThroughTheListPane();
};

void TestFriendListPane::init()
{
    // A pointer left resting where the last test's list was would be a hand on this one's.
    QCursor::setPos(QPoint(-10'000, -10'000));
}

void TestFriendListPane::opensOnTheOnlineFriends()
{
    // N1: at sign-in the rows are in name order until the availability set says who is
    // online; the view must then show the online block, not follow "Friend 000" (offline)
    // down the list.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    QCOMPARE(scene.firstShown(), friendId(0));
    scene.view()->setFocus(); // the keyboard's current row is the top one
    QTRY_VERIFY(scene.view()->currentIndex().isValid());
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(100));
    QTRY_COMPARE(scene.firstShown(), friendId(100));
    QCOMPARE(scene.firstShownState(), PresenceState::Online);
    QCOMPARE(scene.bar()->value(), scene.bar()->minimum());
}

void TestFriendListPane::topStaysAtTheTopWhenItsFriendLeaves()
{
    // N2: left alone at the top, the list stays there when the top row's friend goes offline
    // (or away), and under churn.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(scene.firstShown(), friendId(100));

    scene.set(100, PresenceState::Offline);
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(101));
    QTRY_COMPARE(scene.firstShown(), friendId(101));
    QCOMPARE(scene.bar()->value(), scene.bar()->minimum());

    scene.set(101, PresenceState::Away);
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(102));
    QTRY_COMPARE(scene.firstShown(), friendId(102));

    // Churn: the top row's friend leaves and another comes; whoever sorts first is shown.
    for (int n = 102; n < 120; ++n) {
        scene.set(n, PresenceState::Offline);
        scene.set(n - 100, PresenceState::Online); // friends 2..19 come online in turn
        QCoreApplication::processEvents();
    }
    QTRY_COMPARE(scene.firstShown(), friendId(2));
    QCOMPARE(scene.firstShownState(), PresenceState::Online);
    QCOMPARE(scene.bar()->value(), scene.bar()->minimum());
}

void TestFriendListPane::topStaysAtTheTopWithASelectedRow()
{
    // The open chat's friend is selected in the first row; they go offline. The list at the
    // top keeps showing the top, with the selection going down with its row.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(scene.firstShown(), friendId(100));
    scene.pane->showFriend(friendId(100));
    scene.set(100, PresenceState::Offline);
    QTRY_COMPARE(scene.firstShown(), friendId(101));
    QCOMPARE(scene.bar()->value(), scene.bar()->minimum());
    QCOMPARE(scene.view()->currentIndex().data(FriendListModel::IdRole).toString(), friendId(100));
}

void TestFriendListPane::rowBeingReadKeepsItsPlaceBelowTheTop()
{
    // Scrolled into the offline block, the row the user reads stays where it is on screen
    // when a friend above it comes online.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(scene.firstShown(), friendId(100));
    scene.bar()->setValue(scene.bar()->maximum() / 2);
    QTRY_VERIFY(!scene.pane->proxy()->movesHeld()); // the hand left the scroll bar
    const QString read = scene.firstShown();
    scene.set(0, PresenceState::Online);
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(0));
    QCOMPARE(scene.firstShown(), read);
}

void TestFriendListPane::chipFloatsAboveTheRowsAndTakesItsClicks()
{
    // N3: the chip is not one of the rows: it stays put while they scroll, covers none of
    // them, and a click on it scrolls to the top and opens no chat.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(scene.firstShown(), friendId(100));
    scene.bar()->setValue(scene.bar()->maximum());
    QTRY_VERIFY(!scene.pane->proxy()->movesHeld());
    auto *chip = scene.pane->moreOnlineChip();
    QVERIFY(!chip->isVisible());
    scene.set(5, PresenceState::Online);
    scene.set(6, PresenceState::Online);
    QTRY_VERIFY(chip->isVisible());
    QCOMPARE(chip->count(), 2);
    QCOMPARE(chip->text(), u"2 more online ↑"_s);

    const auto chipRect
        = [&] { return QRect(chip->mapTo(&*scene.pane, QPoint(0, 0)), chip->size()); };
    const auto rowsRect = [&] {
        QWidget *rows = scene.view()->viewport();
        return QRect(rows->mapTo(&*scene.pane, QPoint(0, 0)), rows->size());
    };
    QTRY_VERIFY(!chipRect().intersects(rowsRect()));
    QVERIFY(!scene.view()->viewport()->isAncestorOf(chip));
    const QRect before = chipRect();
    QVERIFY(before.bottom() <= rowsRect().top()); // at the top edge of the rows
    scene.bar()->setValue(scene.bar()->maximum() - 5);
    QCOMPARE(chipRect(), before);
    QVERIFY(chip->isVisible());
    QTRY_VERIFY(!scene.pane->proxy()->movesHeld());

    QSignalSpy chats(&*scene.pane, &FriendListPane::chatRequested);
    QVERIFY(chats.isValid());
    const QStringList order = [&] {
        QStringList ids;
        for (int row = 0; row < scene.pane->proxy()->rowCount(); ++row)
            ids << scene.pane->proxy()->index(row, 0).data(FriendListModel::IdRole).toString();
        return ids;
    }();
    QTest::mouseClick(chip, Qt::LeftButton, {}, chip->rect().center());
    QCOMPARE(scene.bar()->value(), scene.bar()->minimum());
    QCOMPARE(scene.firstShown(), friendId(5));
    QVERIFY(!chip->isVisible());
    QCoreApplication::processEvents();
    QCOMPARE(chats.count(), 0);
    QCOMPARE(scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(),
        order.constFirst()); // the click changed nothing else
}

void TestFriendListPane::chipCountsOnlyFriendsWhoCameOnline()
{
    // The chip says who came online while the user was away from the top, not who was
    // online already: at sign-in with an open chat in the middle of the list (--open-chat),
    // the availability set makes 40 friends known to be online, none of them news.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.pane->showFriend(friendId(150));
    QTRY_VERIFY(scene.bar()->value() > scene.bar()->minimum());
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(100));
    QTRY_VERIFY(scene.bar()->value() > scene.bar()->minimum());
    QCoreApplication::processEvents();
    auto *chip = scene.pane->moreOnlineChip();
    QCOMPARE(chip->count(), 0);
    QVERIFY(!chip->isVisible());

    // A reconnect makes everyone unknown, then known again: still no news.
    scene.model.markAllUnknown();
    scene.model.flush();
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(100));
    QCoreApplication::processEvents();
    QCOMPARE(chip->count(), 0);

    // An offline friend coming online is.
    scene.set(3, PresenceState::Online);
    QTRY_COMPARE(chip->count(), 1);

    // V8: under churn the count is of those online now, not of all who ever came: it goes
    // down as they leave, offline or away.
    scene.set(4, PresenceState::Online);
    scene.set(5, PresenceState::Online);
    QTRY_COMPARE(chip->count(), 3);
    scene.set(3, PresenceState::Offline);
    QTRY_COMPARE(chip->count(), 2);
    scene.set(4, PresenceState::Away);
    QTRY_COMPARE(chip->count(), 1);
    scene.set(5, PresenceState::Offline);
    QTRY_COMPARE(chip->count(), 0);
    QVERIFY(!chip->isVisible());
}

void TestFriendListPane::restingPointerLetsTheOrderSettle()
{
    // N4: a pointer resting on the list holds the order only for the settle time (about
    // 1.5 s), and the hovered row keeps its place on screen when the rows move.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QTRY_COMPARE(scene.firstShown(), friendId(100));
    scene.bar()->setValue(scene.bar()->maximum() / 2);
    QWidget *rows = scene.view()->viewport();
    const QPoint point(rows->width() / 2, rows->height() / 2);
    QTest::mouseMove(rows, point);
    QTRY_VERIFY(rows->underMouse());
    QTRY_VERIFY(scene.pane->proxy()->movesHeld());
    const QModelIndex hovered = scene.view()->indexAt(point);
    const QString hoveredId = hovered.data(FriendListModel::IdRole).toString();
    const int hoveredTop = scene.view()->visualRect(hovered).top();

    scene.set(1, PresenceState::Online);
    scene.set(2, PresenceState::Online);
    QCOMPARE(scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(),
        friendId(100)); // held: the dots change, the rows wait
    QTRY_COMPARE_WITH_TIMEOUT(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(1),
        5000);
    QVERIFY(!scene.pane->proxy()->movesHeld());
    const QModelIndex after = scene.view()->indexAt(point);
    QCOMPARE(after.data(FriendListModel::IdRole).toString(), hoveredId);
    QCOMPARE(scene.view()->visualRect(after).top(), hoveredTop);

    // Still resting there: a later change sorts at once.
    scene.set(1, PresenceState::Offline);
    QTRY_COMPARE(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(2));
}

namespace {

QString idAt(const QListView *view, QPoint point)
{
    return view->indexAt(point).data(FriendListModel::IdRole).toString();
}

// What a resting pointer shows: the tooltip of the row under it.
QString showTooltip(QListView *view, QPoint point)
{
    QHelpEvent help(QEvent::ToolTip, point, view->viewport()->mapToGlobal(point));
    QCoreApplication::sendEvent(view->viewport(), &help);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

// The list at its top with the availability set in, and the pointer resting on the middle of
// proxy row `row`, with that row's tooltip shown: where the pointer is.
QPoint restOnRow(Scene &scene, int row, const QString &expectedId, const QString &expectedName)
{
    if (!QTest::qWaitForWindowExposed(&*scene.pane))
        return {};
    scene.setAvailable(availabilitySet());
    if (!QTest::qWaitFor([&] { return scene.firstShown() == friendId(100); }))
        return {};
    QListView *view = scene.view();
    QWidget *rows = view->viewport();
    const QPoint point = view->visualRect(scene.pane->proxy()->index(row, 0)).center();
    QTest::mouseMove(rows, point);
    if (!QTest::qWaitFor([rows] { return rows->underMouse(); }) || idAt(view, point) != expectedId
        || !showTooltip(view, point).contains(expectedName))
        return {};
    return point;
}

} // namespace

void TestFriendListPane::clickAtTheTopOpensTheFriendUnderThePointer()
{
    // V3: the list at its top, the pointer resting on the third row with its tooltip shown.
    // Two friends who sort above it come online; once the order settles, the rows must not
    // slide under the pointer: the tooltip, the row under the pointer and the chat a click
    // opens all stay that friend's.
    Scene scene;
    const QPoint point = restOnRow(scene, 2, friendId(102), u"Friend 102"_s);
    QVERIFY(!point.isNull());
    QListView *view = scene.view();
    QWidget *rows = view->viewport();
    // Where the row is in the window: the rows' area itself must not move either.
    const auto rowTop = [&] {
        const QModelIndex row = view->indexAt(point);
        return rows->mapTo(&*scene.pane, view->visualRect(row).topLeft()).y();
    };
    const int top = rowTop();

    scene.set(0, PresenceState::Online);
    scene.set(1, PresenceState::Online);
    QTRY_COMPARE_WITH_TIMEOUT(
        scene.pane->proxy()->index(0, 0).data(FriendListModel::IdRole).toString(), friendId(0),
        5000); // past the settle time
    QCoreApplication::processEvents();
    QCOMPARE(idAt(view, point), friendId(102));
    QVERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(u"Friend 102"_s));
    // The two above are out of sight: the chip says so, and the rows did not move for it.
    QTRY_COMPARE(scene.pane->moreOnlineChip()->count(), 2);
    QVERIFY(scene.pane->moreOnlineChip()->isVisible());
    QCOMPARE(idAt(view, point), friendId(102));
    QCOMPARE(rowTop(), top);

    QSignalSpy chats(&*scene.pane, &FriendListPane::chatRequested);
    QTest::mouseClick(rows, Qt::LeftButton, {}, point);
    QCOMPARE(chats.count(), 1);
    QCOMPARE(chats.at(0).at(0).toString(), friendId(102));

    // The hand leaves: the list it found at its top goes back there, online first.
    QTest::mouseMove(scene.pane->searchBox(), scene.pane->searchBox()->rect().center());
    QTRY_VERIFY(!rows->underMouse());
    QTRY_COMPARE(scene.bar()->value(), scene.bar()->minimum());
    QCOMPARE(scene.firstShown(), friendId(0));
    QTRY_COMPARE(scene.pane->moreOnlineChip()->count(), 0);
}

void TestFriendListPane::clickRightAfterTheRowChangedOpensNothing()
{
    // The friend under a resting pointer leaves the list and the next one slides into place:
    // a click in that moment was aimed at someone else, so it opens nothing and selects
    // nothing. Once the pointer moves, the user sees whom they point at, and a click opens it.
    Scene scene;
    const QPoint point = restOnRow(scene, 4, friendId(104), u"Friend 104"_s);
    QVERIFY(!point.isNull());
    QListView *view = scene.view();
    QWidget *rows = view->viewport();

    QList<FriendRecord> friends = population();
    friends.removeAt(104); // unfriended while pointed at
    scene.model.setFriends(friends);
    QCOMPARE(idAt(view, point), friendId(105));
    QVERIFY(QToolTip::isVisible());
    QVERIFY(QToolTip::text().contains(u"Friend 105"_s)); // the tip speaks of whom it is over

    QSignalSpy chats(&*scene.pane, &FriendListPane::chatRequested);
    QTest::mouseClick(rows, Qt::LeftButton, {}, point);
    QTest::mouseDClick(rows, Qt::LeftButton, {}, point);
    QCoreApplication::processEvents();
    QCOMPARE(chats.count(), 0);
    QVERIFY(!view->selectionModel()->hasSelection());

    QTest::mouseMove(rows, point + QPoint(3, 1));
    QTest::mouseClick(rows, Qt::LeftButton, {}, point + QPoint(3, 1));
    QCOMPARE(chats.count(), 1);
    QCOMPARE(chats.at(0).at(0).toString(), friendId(105));
}

void TestFriendListPane::reloadKeepsTheRowBeingReadAndTheSelection()
{
    // A friend list reloaded with its order changed resets the model: the rows the user reads
    // and the selected friend stay where they were on screen, deep in a list of 10,000 too
    // (laid out in batches after a reset).
    FriendListModel model;
    QList<FriendRecord> friends;
    for (int n = 0; n < 10'000; ++n)
        friends.append({ u"g%1"_s.arg(n, 5, 10, QLatin1Char('0')),
            u"Friend %1"_s.arg(n, 5, 10, QLatin1Char('0')) });
    model.setFriends(friends);
    FriendListPane pane(&model);
    pane.resize(320, 480);
    pane.show();
    QVERIFY(QTest::qWaitForWindowExposed(&pane));
    QListView *view = pane.view();
    // Rows are laid out in batches: scroll once row 6,000 has its place.
    QTRY_VERIFY((view->scrollTo(pane.proxy()->index(6'000, 0), QAbstractItemView::PositionAtTop),
        idAt(view, QPoint(1, 1)) == u"g06000"_s));
    QTRY_VERIFY(!pane.proxy()->movesHeld());
    const QString read = idAt(view, QPoint(1, 1));
    const QModelIndex selected = pane.proxy()->index(
        pane.proxy()->mapFromSource(model.index(*model.rowOf(read))).row() + 2, 0);
    view->selectionModel()->setCurrentIndex(selected, QItemSelectionModel::ClearAndSelect);
    const QString selectedId = selected.data(FriendListModel::IdRole).toString();
    const int selectedTop = view->visualRect(selected).top();

    QSignalSpy resets(pane.proxy(), &QAbstractItemModel::modelReset);
    std::reverse(friends.begin(), friends.end());
    friends[0].name = u"Aaron First"_s; // and a rename, sorting first
    model.setFriends(friends);
    QCOMPARE(resets.count(), 1);

    QCOMPARE(idAt(view, QPoint(1, 1)), read);
    QCOMPARE(view->currentIndex().data(FriendListModel::IdRole).toString(), selectedId);
    QVERIFY(view->selectionModel()->isSelected(view->currentIndex()));
    QCOMPARE(view->visualRect(view->currentIndex()).top(), selectedTop);
    // Once every batch is laid out, still there.
    QScrollBar *bar = view->verticalScrollBar();
    const int rowsPerPage = bar->pageStep();
    const auto laidOut
        = [&] { return bar->maximum() >= pane.proxy()->rowCount() - rowsPerPage - 1; };
    QTRY_VERIFY(laidOut());
    QCOMPARE(idAt(view, QPoint(1, 1)), read);

    // One friend removed above, then one added above, live: each an edit, not a reset, and
    // the rows being read stay put through the view's batched layout.
    const int maximum = bar->maximum();
    friends.removeIf([](const FriendRecord &f) { return f.id == u"g00010"_s; }); // sorts above
    model.setFriends(friends);
    QCOMPARE(resets.count(), 1);
    QTRY_COMPARE(bar->maximum(), maximum - 1);
    QCOMPARE(idAt(view, QPoint(1, 1)), read);
    QCOMPARE(view->currentIndex().data(FriendListModel::IdRole).toString(), selectedId);
    friends.insert(3, { u"newcomer"_s, u"Aaron Second"_s });
    model.setFriends(friends);
    QCOMPARE(resets.count(), 1);
    QTRY_COMPARE(bar->maximum(), maximum);
    QCOMPARE(idAt(view, QPoint(1, 1)), read);
    QCOMPARE(view->visualRect(view->currentIndex()).top(), selectedTop);
}

void TestFriendListPane::enterInAnEmptySearchOpensNothing()
{
    // N14: Enter opens the top match; with nothing typed there is no match to open.
    Scene scene;
    QVERIFY(QTest::qWaitForWindowExposed(&*scene.pane));
    scene.setAvailable(availabilitySet());
    QSignalSpy chats(&*scene.pane, &FriendListPane::chatRequested);
    QVERIFY(chats.isValid());
    QLineEdit *search = scene.pane->searchBox();
    search->setFocus();
    QTest::keyClick(search, Qt::Key_Return);
    search->setText(u"   "_s);
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(chats.count(), 0);
    search->setText(u"Friend 042"_s);
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(chats.count(), 1);
    QCOMPARE(chats.at(0).at(0).toString(), friendId(42));
}

void TestFriendListPane::accessibleTextThroughTheListPane()
{
    // What a screen reader says of a row of the real friend list: Qt::AccessibleTextRole of
    // the view's model, which the pane describes with FriendDelegate::accessibleText.
    FriendListModel model;
    model.setFriends({
        { u"alice"_s, u"Alice Smith"_s },
        { u"bob"_s, u"Bob Jones"_s },
        { u"erin"_s, u"Erin"_s },
    });
    model.updatePresence(u"alice"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"bob"_s, PresenceState::Away, std::nullopt);
    model.updatePresence(u"erin"_s, PresenceState::Offline, std::nullopt);
    model.flush();
    Presence::Ui::FriendListPane pane(&model);
    const QAbstractItemModel *viewModel = pane.view()->model();
    QVERIFY(viewModel);
    QCOMPARE(viewModel->rowCount(), 3);
    const auto spoken = [viewModel](const QString &id) {
        for (int row = 0; row < viewModel->rowCount(); ++row) {
            const QModelIndex index = viewModel->index(row, 0);
            if (index.data(FriendListModel::IdRole).toString() == id)
                return index.data(Qt::AccessibleTextRole).toString();
        }
        return u"(no row for %1)"_s.arg(id);
    };

    QCOMPARE(spoken(u"alice"_s), u"Alice Smith (@alice) — online"_s);
    QCOMPARE(spoken(u"bob"_s), u"Bob Jones (@bob) — away"_s);
    QCOMPARE(spoken(u"erin"_s), u"Erin (@erin) — offline"_s);

    // The view hears of each change, naming the unread role, so it repaints the badge.
    QSignalSpy changed(viewModel, &QAbstractItemModel::dataChanged);
    QVERIFY(changed.isValid());
    model.setUnreadCount(u"alice"_s, 2);
    model.setUnreadCount(u"bob"_s, 1);
    QCOMPARE(changed.count(), 2);
    for (const QList<QVariant> &signal : std::as_const(changed))
        QVERIFY(signal.at(2).value<QList<int>>().contains(FriendListModel::UnreadRole));

    QCOMPARE(spoken(u"alice"_s), u"Alice Smith (@alice) — online, 2 unread messages"_s);
    QCOMPARE(spoken(u"bob"_s), u"Bob Jones (@bob) — away, 1 unread message"_s);
    QCOMPARE(spoken(u"erin"_s), u"Erin (@erin) — offline"_s);

    // Read: the count leaves the words.
    model.setUnreadCount(u"alice"_s, 0);
    QCOMPARE(spoken(u"alice"_s), u"Alice Smith (@alice) — online"_s);

    // "Last seen" is told by the row delegate's clock, the one the row is painted by.
    auto *delegate = qobject_cast<Presence::Ui::FriendDelegate *>(pane.view()->itemDelegate());
    QVERIFY(delegate);
    static const QDateTime then(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());
    delegate->setNowFunction([] { return then; });
    model.updatePresence(
        u"erin"_s, PresenceState::Offline, then.addSecs(-5 * 60).toMSecsSinceEpoch());
    model.flush();
    const QModelIndex erin = model.index(*model.rowOf(u"erin"_s));
    QCOMPARE(spoken(u"erin"_s), Presence::Ui::FriendDelegate::accessibleText(erin, then));
    QVERIFY(spoken(u"erin"_s)
        != Presence::Ui::FriendDelegate::accessibleText(erin, QDateTime::currentDateTime()));
}

QTEST_MAIN(TestFriendListPane)
#include "tst_friend_list_pane.moc"
