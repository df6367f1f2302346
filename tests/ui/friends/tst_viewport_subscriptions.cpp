// ViewportSubscriptions driving a real GatewaySession: a QListView over the proxy over the
// friend list of a user with 10,000 friends, signed in to an in-process gateway. What the
// gateway ends up watching for that user must be exactly the rows on screen plus a page above
// and below (plus rows that left less than `linger` ago), whatever moves the rows: scrolling,
// filtering, sorting, resets, resizing, and never more than the gateway allows.

// C++
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>

// Qt
#include <QElapsedTimer>
#include <QListView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "TestClient.h"
#include "app/SessionModelBridge.h"
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "session/GatewaySession.h"
#include "ui/friends/ViewportSubscriptions.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::FriendSortFilterProxy;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Session::GatewaySession;
using Presence::Ui::ViewportSubscriptionOptions;
using Presence::Ui::ViewportSubscriptions;

namespace {

constexpr int kFriendCount = 10'000;
const QString kMe = u"me"_s;
// Three friends spread through the list whose names carry a word nobody else's does.
constexpr int kMarkers[] = { 2500, 5000, 7500 };

QString friendId(int n)
{
    return u"f%1"_s.arg(n, 5, 10, QLatin1Char('0'));
}

QString friendName(int n)
{
    const bool marker
        = std::find(std::begin(kMarkers), std::end(kMarkers), n) != std::end(kMarkers);
    return marker ? u"Friend %1 Marker"_s.arg(n) : u"Friend %1"_s.arg(n);
}

// "me" with 10,000 friends, who have no other friends.
QList<TestUser> population()
{
    QList<TestUser> users;
    users.reserve(kFriendCount + 1);
    TestUser me { kMe, {} };
    me.friends.reserve(kFriendCount);
    for (int n = 1; n <= kFriendCount; ++n) {
        me.friends.append(friendId(n));
        users.append({ friendId(n), {}, friendName(n) });
    }
    users.prepend(me);
    return users;
}

QStringList sorted(const QSet<QString> &ids)
{
    QStringList list(ids.cbegin(), ids.cend());
    list.sort();
    return list;
}

// The rows a view shows, worked out from the view alone.
struct Window {
    int firstVisible = 0;
    int lastVisible = -1;
    int page = 0; // visible row count
    QSet<QString> visibleIds;
    QSet<QString> ids; // visible rows plus one page above and below, clamped
    QHash<QString, int> rowOf; // row of every id in the model, on demand
};

Window windowOf(const QListView &view, int marginPages = 1)
{
    Window window;
    const QAbstractItemModel *model = view.model();
    const int rows = model->rowCount();
    if (rows == 0 || !view.isVisible())
        return window;
    const QRect area = view.viewport()->rect();
    const QModelIndex top = view.indexAt(QPoint(1, area.top()));
    const QModelIndex bottom = view.indexAt(QPoint(1, area.bottom()));
    window.firstVisible = top.isValid() ? top.row() : 0;
    window.lastVisible = bottom.isValid() ? bottom.row() : rows - 1;
    window.page = window.lastVisible - window.firstVisible + 1;
    const int from = std::max(0, window.firstVisible - window.page * marginPages);
    const int to = std::min(rows - 1, window.lastVisible + window.page * marginPages);
    for (int row = from; row <= to; ++row) {
        const QString id = model->index(row, 0).data(FriendListModel::IdRole).toString();
        window.ids.insert(id);
        if (row >= window.firstVisible && row <= window.lastVisible)
            window.visibleIds.insert(id);
    }
    return window;
}

QString idAtRow(const QListView &view, int row)
{
    return view.model()->index(row, 0).data(FriendListModel::IdRole).toString();
}

// One signed-in client as the app wires it: session -> bridge -> model -> proxy -> view,
// and the viewport watcher feeding the session's wanted set.
struct Scene {
    Scene(Gateway *gateway_, ViewportSubscriptionOptions options)
        : gateway(gateway_)
    {
        proxy.setSourceModel(&model);
        view.setUniformItemSizes(true);
        view.setModel(&proxy);
        view.resize(300, 400);
        viewport = std::make_unique<ViewportSubscriptions>(&view, options);
        QObject::connect(viewport.get(), &ViewportSubscriptions::wantedChanged, &session,
            [this](const QSet<QString> &wanted, const QStringList &, const QStringList &) {
                session.setWanted(wanted);
            });
        QObject::connect(&session, &GatewaySession::signedIn, viewport.get(),
            [this] { viewport->setMaxSubscriptions(session.limits().maxSubscriptions); });
    }

    // Shows the view, signs in and waits for the whole friend list.
    bool start()
    {
        if (!gateway)
            return false;
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        QSignalSpy loaded(&session, &GatewaySession::friendsLoaded);
        session.open(gateway->url(), tokenOf(kMe));
        if (!loaded.wait(10'000) || model.rowCount() != kFriendCount)
            return false;
        // The view lays the new rows out on a later turn; until then it cannot scroll.
        return QTest::qWaitFor([this] { return scrollBar()->maximum() > 0; });
    }

    [[nodiscard]] QStringList atGateway() const { return gateway->subscriptionsOfUser(kMe); }
    QScrollBar *scrollBar() const { return view.verticalScrollBar(); }

    Gateway *gateway;
    FriendListModel model;
    FriendSortFilterProxy proxy;
    GatewaySession session;
    SessionModelBridge bridge { &session, &model };
    QListView view;
    std::unique_ptr<ViewportSubscriptions> viewport;
};

ViewportSubscriptionOptions quickOptions(std::chrono::milliseconds linger = 300ms)
{
    ViewportSubscriptionOptions options;
    options.settle = 50ms;
    options.linger = linger;
    return options;
}

} // namespace

// Waits until nothing lingers and both the watcher and the gateway hold exactly the window the
// view shows now (worked out again on every try).
#define VERIFY_SETTLED(scene)                                                                      \
    do {                                                                                           \
        QTRY_VERIFY_WITH_TIMEOUT((scene).viewport->lingeringCount() == 0, 5000);                   \
        QTRY_COMPARE_WITH_TIMEOUT(                                                                 \
            sorted((scene).viewport->wanted()), sorted(windowOf((scene).view).ids), 5000);         \
        QTRY_COMPARE_WITH_TIMEOUT((scene).atGateway(), sorted(windowOf((scene).view).ids), 5000);  \
        QCOMPARE(sorted((scene).session.subscribed()), (scene).atGateway());                       \
        QCOMPARE((scene).viewport->lingeringCount(), 0);                                           \
    } while (false)

class TestViewportSubscriptions : public QObject {
    Q_OBJECT

    // Shared by the tests that need no special limits; each test signs in afresh.
    std::unique_ptr<Gateway> m_gateway;

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void windowFollowsScrolling_data();
    void windowFollowsScrolling();
    void rowsThatLeaveLingerThenGo();
    void scrollingBackWithinLingerDoesNotChurn();
    void fastScrollIsThrottled();
    void requestsArePacedUnderTheRateLimit();
    void filteringNarrowsTheSet();
    void sortModeChangeRecomputes_data();
    void sortModeChangeRecomputes();
    void modelResetRecomputes();
    void tallerViewWatchesMore();
    void capKeepsRowsNearestTheViewport_data();
    void capKeepsRowsNearestTheViewport();
};

void TestViewportSubscriptions::initTestCase()
{
    m_gateway = startGateway(population());
    QVERIFY(m_gateway);
}

void TestViewportSubscriptions::cleanup()
{
    // The next test's session must be the user's only connection.
    QTRY_COMPARE(m_gateway->connectionCount(), 0);
}

void TestViewportSubscriptions::windowFollowsScrolling_data()
{
    using Move = std::function<void(QListView &)>;
    QTest::addColumn<Move>("move");
    QTest::addColumn<int>("expectedFirstVisible"); // -1: anywhere but the ends

    QTest::addRow("stay at the top") << Move([](QListView &) {}) << 0;
    QTest::addRow("one row down") << Move([](QListView &view) {
        view.verticalScrollBar()->setValue(1);
    }) << 1;
    QTest::addRow("middle by scrollTo") << Move([](QListView &view) {
        view.scrollTo(
            view.model()->index(kFriendCount / 2, 0), QAbstractItemView::PositionAtCenter);
    }) << -1;
    QTest::addRow("middle by scroll bar") << Move([](QListView &view) {
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 2);
    }) << -1;
    QTest::addRow("a quarter down by scroll bar") << Move([](QListView &view) {
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum() / 4);
    }) << -1;
    QTest::addRow("bottom by scrollToBottom")
        << Move([](QListView &view) { view.scrollToBottom(); }) << -2;
    QTest::addRow("bottom by scroll bar") << Move([](QListView &view) {
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->maximum());
    }) << -2;
}

void TestViewportSubscriptions::windowFollowsScrolling()
{
    QFETCH(const std::function<void(QListView &)>, move);
    QFETCH(const int, expectedFirstVisible);

    Scene scene(m_gateway.get(), quickOptions());
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);
    const Window top = windowOf(scene.view);
    QCOMPARE(top.firstVisible, 0);
    QVERIFY2(top.page > 5, "the view shows too few rows for this test to mean anything");
    // At the top there is nothing above: the visible rows and one page below.
    QCOMPARE(top.ids.size(), 2 * top.page);

    move(scene.view);
    VERIFY_SETTLED(scene);
    const Window now = windowOf(scene.view);
    if (expectedFirstVisible >= 0) {
        QCOMPARE(now.firstVisible, expectedFirstVisible);
    } else if (expectedFirstVisible == -1) {
        QVERIFY(now.firstVisible > now.page);
        QVERIFY(now.lastVisible < kFriendCount - 1 - now.page);
        QCOMPARE(now.ids.size(), 3 * now.page);
    } else {
        // At the bottom: the last row is on screen, nothing below it.
        QCOMPARE(now.lastVisible, kFriendCount - 1);
        QVERIFY(now.ids.contains(idAtRow(scene.view, kFriendCount - 1)));
        QVERIFY(!now.ids.contains(idAtRow(scene.view, now.firstVisible - now.page - 1)));
    }
    QVERIFY(now.ids.contains(idAtRow(scene.view, now.firstVisible)));
    QCOMPARE(scene.session.state(), GatewaySession::State::Online);
}

void TestViewportSubscriptions::rowsThatLeaveLingerThenGo()
{
    // A longer linger than elsewhere, so "still there" can be seen before it passes.
    const auto linger = 1000ms;
    Scene scene(m_gateway.get(), quickOptions(linger));
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);
    const Window before = windowOf(scene.view);
    const int unsubscribesBefore = scene.session.unsubscribeRequestsSent();

    // Three pages down: the rows above the new window's margin have left it.
    QElapsedTimer sinceScroll;
    sinceScroll.start();
    scene.scrollBar()->setValue(3 * before.page);
    const Window after = windowOf(scene.view);
    QSet<QString> left = before.ids;
    left.subtract(after.ids);
    QCOMPARE(left.size(), 2 * before.page);

    // The new window is watched...
    QTRY_VERIFY_WITH_TIMEOUT(
        scene.session.subscribed().contains(after.ids) &&
            [&] {
                const QStringList gateway = scene.atGateway();
                return std::all_of(after.ids.cbegin(), after.ids.cend(),
                    [&](const QString &id) { return gateway.contains(id); });
            }(),
        5000);
    // ...while the rows that left still are, until the linger passes.
    const QStringList meanwhile = scene.atGateway();
    const auto observedAt = sinceScroll.elapsed();
    QVERIFY2(observedAt < linger.count(), "too slow to see the lingering rows");
    QCOMPARE(meanwhile, sorted(before.ids + after.ids));
    QCOMPARE(scene.viewport->lingeringCount(), left.size());
    QCOMPARE(scene.session.unsubscribeRequestsSent(), unsubscribesBefore);

    // Then they go, all at once, and not before the linger.
    QTRY_COMPARE_WITH_TIMEOUT(scene.atGateway(), sorted(after.ids), int(linger.count()) + 5000);
    QVERIFY2(sinceScroll.elapsed() >= linger.count(),
        qPrintable(u"unsubscribed after %1 ms"_s.arg(sinceScroll.elapsed())));
    QCOMPARE(scene.viewport->lingeringCount(), 0);
    QCOMPARE(scene.session.unsubscribeRequestsSent(), unsubscribesBefore + 1);
    VERIFY_SETTLED(scene);
}

void TestViewportSubscriptions::scrollingBackWithinLingerDoesNotChurn()
{
    const auto linger = 1000ms;
    Scene scene(m_gateway.get(), quickOptions(linger));
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);
    const Window top = windowOf(scene.view);
    const int subscribesBefore = scene.session.subscribeRequestsSent();
    const int unsubscribesBefore = scene.session.unsubscribeRequestsSent();

    QElapsedTimer sinceScroll;
    sinceScroll.start();
    scene.scrollBar()->setValue(3 * top.page);
    const Window down = windowOf(scene.view);
    QTRY_VERIFY_WITH_TIMEOUT(scene.viewport->wanted().contains(down.ids), 5000);
    QTRY_COMPARE(scene.session.subscribeRequestsSent(), subscribesBefore + 1);

    // Back at the top before the linger passes: the top rows were never let go.
    scene.scrollBar()->setValue(0);
    QTRY_COMPARE_WITH_TIMEOUT(scene.viewport->lingeringCount(), down.ids.size(), 5000);
    QVERIFY2(sinceScroll.elapsed() < linger.count(), "too slow to scroll back within the linger");
    QCOMPARE(scene.session.subscribeRequestsSent(), subscribesBefore + 1);
    QCOMPARE(scene.session.unsubscribeRequestsSent(), unsubscribesBefore);

    // The rows further down go once their linger passes.
    VERIFY_SETTLED(scene);
    QCOMPARE(scene.atGateway(), sorted(top.ids));
    QCOMPARE(scene.session.subscribeRequestsSent(), subscribesBefore + 1);
    QCOMPARE(scene.session.unsubscribeRequestsSent(), unsubscribesBefore + 1);
}

void TestViewportSubscriptions::fastScrollIsThrottled()
{
    const ViewportSubscriptionOptions options = quickOptions();
    Scene scene(m_gateway.get(), options);
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);
    QSignalSpy errors(&scene.session, &GatewaySession::errorReceived);
    QVERIFY(errors.isValid());

    // Every update is checked against the view as it is when the update is announced.
    int updates = 0;
    int hurried = 0; // updates less than half a settle interval after the previous one
    QElapsedTimer sinceUpdate;
    qsizetype largestChange = 0;
    QStringList violations;
    QObject::connect(scene.viewport.get(), &ViewportSubscriptions::wantedChanged, &scene.view,
        [&](const QSet<QString> &wanted, const QStringList &added, const QStringList &removed) {
            ++updates;
            if (sinceUpdate.isValid() && sinceUpdate.elapsed() < options.settle.count() / 2)
                ++hurried;
            sinceUpdate.start();
            largestChange = std::max({ largestChange, added.size(), removed.size() });
            const Window window = windowOf(scene.view);
            const qsizetype bound = window.page * 3 + scene.viewport->lingeringCount();
            if (wanted.size() > bound) {
                violations.append(u"update %1: %2 wanted, more than %3 visible + 2 pages + %4 "
                                  u"lingering"_s.arg(updates)
                                      .arg(wanted.size())
                                      .arg(window.page)
                                      .arg(scene.viewport->lingeringCount()));
            }
            if (!wanted.contains(window.ids))
                violations.append(u"update %1: the window is not all wanted"_s.arg(updates));
        });

    const int viewportSubscribes = scene.viewport->subscribeBatches();
    const int viewportUnsubscribes = scene.viewport->unsubscribeBatches();
    const int sessionSubscribes = scene.session.subscribeRequestsSent();
    const int sessionUnsubscribes = scene.session.unsubscribeRequestsSent();

    // Top to bottom in 500 steps, one every 2 ms (about a second, longer on a busy machine),
    // processing events in between.
    constexpr int steps = 500;
    QScrollBar *bar = scene.scrollBar();
    const int maximum = bar->maximum();
    QVERIFY(maximum > kFriendCount / 2);
    QElapsedTimer clock;
    clock.start();
    for (int step = 1; step <= steps; ++step) {
        bar->setValue(int(qint64(maximum) * step / steps));
        do {
            QCoreApplication::processEvents();
        } while (clock.elapsed() < 2 * step);
    }
    QCOMPARE(bar->value(), maximum);
    VERIFY_SETTLED(scene);
    const qint64 duration = clock.elapsed();
    QCOMPARE(windowOf(scene.view).lastVisible, kFriendCount - 1);

    const qint64 updatesAllowed = duration / options.settle.count() + 5;
    const int chunkSize = scene.session.limits().maxIdsPerRequest;
    const qint64 chunks = std::max<qint64>(1, (largestChange + chunkSize - 1) / chunkSize);
    const auto report = u"%1 steps over %2 ms, %3 updates (%11 within half a settle interval "
                        u"of the previous), largest change %4 ids; viewport "
                        u"batches +%5/-%6, session requests +%7/-%8, allowed %9 x %10"_s.arg(steps)
                            .arg(duration)
                            .arg(updates)
                            .arg(largestChange)
                            .arg(scene.viewport->subscribeBatches() - viewportSubscribes)
                            .arg(scene.viewport->unsubscribeBatches() - viewportUnsubscribes)
                            .arg(scene.session.subscribeRequestsSent() - sessionSubscribes)
                            .arg(scene.session.unsubscribeRequestsSent() - sessionUnsubscribes)
                            .arg(updatesAllowed)
                            .arg(chunks)
                            .arg(hurried);
    qInfo("%s", qPrintable(report));
    QVERIFY2(violations.isEmpty(), qPrintable(violations.join(u"; "_s)));
    QVERIFY2(steps > 4 * updatesAllowed, qPrintable(report)); // a scroll worth throttling
    QVERIFY2(updates <= updatesAllowed, qPrintable(report));
    QVERIFY2(scene.viewport->subscribeBatches() - viewportSubscribes <= updatesAllowed,
        qPrintable(report));
    QVERIFY2(scene.viewport->unsubscribeBatches() - viewportUnsubscribes <= updatesAllowed,
        qPrintable(report));
    QVERIFY2(scene.session.subscribeRequestsSent() - sessionSubscribes <= updatesAllowed * chunks,
        qPrintable(report));
    QVERIFY2(
        scene.session.unsubscribeRequestsSent() - sessionUnsubscribes <= updatesAllowed * chunks,
        qPrintable(report));
    QVERIFY2(errors.isEmpty(),
        qPrintable(errors.isEmpty() ? QString() : errors.first().at(0).toString()));
    QCOMPARE(scene.session.state(), GatewaySession::State::Online);
}

void TestViewportSubscriptions::requestsArePacedUnderTheRateLimit()
{
    // A gateway that allows few frames per second: enough to sign in and load the list, not
    // enough for a subscribe and an unsubscribe at every stop of a quick scroll. The session
    // paces itself to the welcome's limits, so nothing is dropped as rate_limited, and the
    // deferred changes still converge on the window.
    GatewayConfig config = testConfig();
    config.maxFramesPerSecond = 5;
    config.frameBurst = 20;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    Scene scene(gateway.get(), quickOptions());
    QSignalSpy errors(&scene.session, &GatewaySession::errorReceived);
    QVERIFY(errors.isValid());
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);

    QSignalSpy updates(scene.viewport.get(), &ViewportSubscriptions::wantedChanged);
    QVERIFY(updates.isValid());
    for (int stop = 1; stop <= 20; ++stop) {
        scene.scrollBar()->setValue(stop * kFriendCount / 40);
        QVERIFY(updates.wait(2000));
    }

    // Once the scrolling stops, the gateway must end up watching exactly the window, and the
    // rows on screen must show live presence. (A short timeout: a failing QTRY waits three.)
    QTRY_VERIFY_WITH_TIMEOUT(scene.viewport->lingeringCount() == 0
            && scene.viewport->wanted() == windowOf(scene.view).ids,
        5000);
    const Window window = windowOf(scene.view);
    QTRY_COMPARE_WITH_TIMEOUT(scene.atGateway(), sorted(window.ids), 1500);
    QCOMPARE(sorted(scene.session.subscribed()), sorted(window.ids));
    for (int row = window.firstVisible; row <= window.lastVisible; ++row) {
        QTRY_VERIFY2_WITH_TIMEOUT(
            scene.proxy.index(row, 0).data(FriendListModel::FreshRole).toBool(),
            qPrintable(idAtRow(scene.view, row)), 1500);
    }
    QCOMPARE(scene.session.state(), GatewaySession::State::Online);
    QVERIFY2(errors.isEmpty(),
        qPrintable(errors.isEmpty() ? QString() : errors.first().at(0).toString()));
}

void TestViewportSubscriptions::filteringNarrowsTheSet()
{
    Scene scene(m_gateway.get(), quickOptions());
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);

    scene.proxy.setSearchText(u"marker"_s);
    QTRY_COMPARE(scene.proxy.rowCount(), 3);
    VERIFY_SETTLED(scene);
    QStringList markers;
    for (const int n : kMarkers)
        markers.append(friendId(n));
    QCOMPARE(scene.atGateway(), markers);

    // Clearing the search brings back the top of the full list.
    scene.proxy.setSearchText(QString());
    QTRY_COMPARE(scene.proxy.rowCount(), kFriendCount);
    VERIFY_SETTLED(scene);
    QCOMPARE(scene.atGateway().size(), 2 * windowOf(scene.view).page);
    QVERIFY(scene.atGateway().contains(friendId(1)));
}

void TestViewportSubscriptions::sortModeChangeRecomputes_data()
{
    using Mode = FriendSortFilterProxy::SortMode;
    QTest::addColumn<Mode>("from");
    QTest::addColumn<Mode>("to");
    QTest::addRow("availability to name") << Mode::Availability << Mode::Name;
    QTest::addRow("name to availability") << Mode::Name << Mode::Availability;
}

void TestViewportSubscriptions::sortModeChangeRecomputes()
{
    using Mode = FriendSortFilterProxy::SortMode;
    QFETCH(const Mode, from);
    QFETCH(const Mode, to);

    Scene scene(m_gateway.get(), quickOptions());
    scene.proxy.setSortMode(from);
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);

    // Three friends from the middle of the list come online, far from the rows on screen.
    // They are among the first 5000 friends, which the availability set covers, so they are
    // known (and sort online) without being seen; past the cap they would sort as unknown.
    const QStringList online = { friendId(4500), friendId(4501), friendId(4502) };
    std::vector<std::unique_ptr<TestClient>> clients;
    for (const QString &id : online) {
        clients.push_back(std::make_unique<TestClient>());
        QVERIFY(!clients.back()->login(scene.gateway->url(), tokenOf(id)).isEmpty());
    }
    for (const QString &id : online) {
        QTRY_COMPARE(scene.model.index(*scene.model.rowOf(id)).data(FriendListModel::StatusRole),
            QVariant(int(Presence::Models::PresenceState::Online)));
    }
    const QSet<QString> onlineSet(online.cbegin(), online.cend());
    const auto topThree = [&] {
        return QSet<QString>(
            { idAtRow(scene.view, 0), idAtRow(scene.view, 1), idAtRow(scene.view, 2) });
    };

    // By availability they are the top of the list; by name, the top is others only.
    const auto verifyTop = [&](Mode mode) {
        scene.scrollBar()->setValue(0);
        if (mode == Mode::Availability)
            QTRY_COMPARE(topThree(), onlineSet);
        else
            QTRY_VERIFY(!topThree().intersects(onlineSet));
        VERIFY_SETTLED(scene);
        for (const QString &id : online)
            QCOMPARE(scene.atGateway().contains(id), mode == Mode::Availability);
        QVERIFY(scene.atGateway().contains(idAtRow(scene.view, 0)));
    };
    verifyTop(from);
    if (QTest::currentTestFailed())
        return;
    const QStringList before = scene.atGateway();

    scene.proxy.setSortMode(to);
    verifyTop(to);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(scene.atGateway() != before);
}

void TestViewportSubscriptions::modelResetRecomputes()
{
    Scene scene(m_gateway.get(), quickOptions());
    QVERIFY(scene.start());
    VERIFY_SETTLED(scene);
    QSignalSpy resets(&scene.proxy, &QAbstractItemModel::modelReset);
    QVERIFY(resets.isValid());

    // A new list without its first thousand friends, the others in another order (a reset):
    // the top rows are others now.
    QList<FriendRecord> rest;
    for (int n = kFriendCount; n > 1000; --n)
        rest.append({ friendId(n), friendName(n) });
    scene.model.setFriends(rest);
    QCOMPARE(resets.size(), 1);
    VERIFY_SETTLED(scene);
    QCOMPARE(scene.atGateway().first(), friendId(1001));
    QVERIFY(!scene.atGateway().contains(friendId(1)));

    // A thousand more removed in place (friends removed while connected): no reset, and the
    // rows that come up are watched the same.
    rest.remove(rest.size() - 1000, 1000);
    scene.model.setFriends(rest);
    QCOMPARE(resets.size(), 1);
    VERIFY_SETTLED(scene);
    QCOMPARE(scene.atGateway().first(), friendId(2001));
    QVERIFY(!scene.atGateway().contains(friendId(1001)));
}

void TestViewportSubscriptions::tallerViewWatchesMore()
{
    Scene scene(m_gateway.get(), quickOptions());
    QVERIFY(scene.start());
    scene.scrollBar()->setValue(kFriendCount / 2);
    VERIFY_SETTLED(scene);
    const Window small = windowOf(scene.view);

    scene.view.resize(300, 800);
    QTRY_VERIFY(windowOf(scene.view).page > small.page);
    VERIFY_SETTLED(scene);
    const Window tall = windowOf(scene.view);
    QVERIFY(tall.page >= 2 * small.page - 1);
    QCOMPARE(tall.ids.size(), 3 * tall.page);
    QCOMPARE(scene.atGateway().size(), tall.ids.size());
    QVERIFY(tall.ids.contains(small.visibleIds));
}

void TestViewportSubscriptions::capKeepsRowsNearestTheViewport_data()
{
    QTest::addColumn<int>("cap");
    QTest::addRow("the visible rows fit") << 50;
    QTest::addRow("not even the visible rows fit") << 10;
}

void TestViewportSubscriptions::capKeepsRowsNearestTheViewport()
{
    QFETCH(const int, cap);
    GatewayConfig config = testConfig();
    config.maxSubscriptions = cap;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    Scene scene(gateway.get(), quickOptions());
    QSignalSpy errors(&scene.session, &GatewaySession::errorReceived);
    QVERIFY(errors.isValid());

    qsizetype largest = 0;
    QObject::connect(scene.viewport.get(), &ViewportSubscriptions::wantedChanged, &scene.view,
        [&](const QSet<QString> &wanted) { largest = std::max(largest, wanted.size()); });
    QVERIFY(scene.start());
    QCOMPARE(scene.viewport->options().maxSubscriptions, cap);

    // Middle of the list, then a few pages further, then back, so rows linger meanwhile.
    const auto check = [&] {
        // Settled: nothing lingers, the room is full, and it is spent on the rows on screen.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const Window window = windowOf(scene.view);
                const QSet<QString> &wanted = scene.viewport->wanted();
                return scene.viewport->lingeringCount() == 0 && wanted.size() == cap
                    && (window.visibleIds.size() <= cap ? wanted.contains(window.visibleIds)
                                                        : window.visibleIds.contains(wanted));
            }(),
            5000);
        QTRY_COMPARE_WITH_TIMEOUT(scene.atGateway(), sorted(scene.viewport->wanted()), 5000);
        const Window window = windowOf(scene.view);
        QVERIFY(window.ids.size() > cap);
        QVERIFY(window.firstVisible > 0); // rows on both sides compete for the room
        const QSet<QString> &wanted = scene.viewport->wanted();
        QCOMPARE(wanted.size(), cap);
        if (window.visibleIds.size() <= cap) {
            QVERIFY(wanted.contains(window.visibleIds));
        } else {
            QVERIFY(window.visibleIds.contains(wanted));
        }
        // Nothing kept is farther from the visible rows than anything dropped.
        const auto distance = [&](int row) {
            return row < window.firstVisible ? window.firstVisible - row
                : row > window.lastVisible   ? row - window.lastVisible
                                             : 0;
        };
        int farthestKept = 0;
        int nearestDropped = std::numeric_limits<int>::max();
        const int from = std::max(0, window.firstVisible - window.page);
        const int to = std::min(kFriendCount - 1, window.lastVisible + window.page);
        for (int row = from; row <= to; ++row) {
            if (wanted.contains(idAtRow(scene.view, row)))
                farthestKept = std::max(farthestKept, distance(row));
            else
                nearestDropped = std::min(nearestDropped, distance(row));
        }
        QVERIFY2(farthestKept <= nearestDropped,
            qPrintable(u"kept a row %1 rows away, dropped one %2 rows away"_s.arg(farthestKept)
                           .arg(nearestDropped)));
    };
    scene.scrollBar()->setValue(kFriendCount / 2);
    check();
    if (QTest::currentTestFailed())
        return;
    scene.scrollBar()->setValue(kFriendCount / 2 + 5 * windowOf(scene.view).page);
    check();
    if (QTest::currentTestFailed())
        return;
    scene.scrollBar()->setValue(kFriendCount / 2);
    check();
    if (QTest::currentTestFailed())
        return;

    QCOMPARE(largest, cap);
    QVERIFY2(errors.isEmpty(),
        qPrintable(errors.isEmpty() ? QString() : errors.first().at(0).toString()));
    QCOMPARE(scene.session.subscribed().size(), cap);
}

QTEST_MAIN(TestViewportSubscriptions)
#include "tst_viewport_subscriptions.moc"
