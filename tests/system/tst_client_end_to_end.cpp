// The client core end to end: two users' clients wired as the app wires them (session ->
// bridge -> model -> proxy -> list view, with the view's viewport choosing whom to watch),
// against one in-process gateway with a 300 ms grace. What one user does shows up in the
// other's list, only while it is watched, and a lost gateway leaves nothing that looks live.

// C++
#include <algorithm>
#include <chrono>
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
#include "models/PresenceState.h"
#include "session/GatewaySession.h"
#include "ui/friends/ViewportSubscriptions.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::FriendSortFilterProxy;
using Presence::Models::PresenceState;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserPresence;
using Presence::Server::GatewayConfig;
using Presence::Server::PresenceStore;
using Presence::Session::GatewaySession;
using Presence::Ui::ViewportSubscriptionOptions;
using Presence::Ui::ViewportSubscriptions;

namespace {

const QString kAlice = u"alice"_s;
const QString kBob = u"bob"_s;
const QString kZoe = u"zoe"_s;
constexpr int kOthers = 200;

QString otherId(int n)
{
    return u"f%1"_s.arg(n, 3, 10, QLatin1Char('0'));
}

// alice: bob and 200 others, enough to scroll. bob: alice only.
QList<TestUser> population()
{
    TestUser alice { kAlice, { kBob } };
    QList<TestUser> users;
    for (int n = 1; n <= kOthers; ++n) {
        alice.friends.append(otherId(n));
        users.append({ otherId(n), {} });
    }
    users.prepend({ kBob, {} });
    users.prepend(alice);
    users.append({ kZoe, {} }); // nobody's friend, until a test makes her one
    return users;
}

QStringList sorted(const QSet<QString> &ids)
{
    QStringList list(ids.cbegin(), ids.cend());
    list.sort();
    return list;
}

// The ids of the rows a view shows plus one page above and below, worked out from the view.
QSet<QString> windowOf(const QListView &view)
{
    const QAbstractItemModel *model = view.model();
    const int rows = model->rowCount();
    if (rows == 0 || !view.isVisible())
        return {};
    const QRect area = view.viewport()->rect();
    const QModelIndex top = view.indexAt(QPoint(1, area.top()));
    const QModelIndex bottom = view.indexAt(QPoint(1, area.bottom()));
    const int first = top.isValid() ? top.row() : 0;
    const int last = bottom.isValid() ? bottom.row() : rows - 1;
    const int page = last - first + 1;
    QSet<QString> ids;
    for (int row = std::max(0, first - page); row <= std::min(rows - 1, last + page); ++row)
        ids.insert(model->index(row, 0).data(FriendListModel::IdRole).toString());
    return ids;
}

// One user's client as the app wires it.
struct Client {
    explicit Client(QString id)
        : userId(std::move(id))
    {
        proxy.setSourceModel(&model);
        view.setUniformItemSizes(true);
        view.setModel(&proxy);
        view.resize(300, 400);
        ViewportSubscriptionOptions options;
        options.settle = 50ms;
        options.linger = 300ms;
        viewport = std::make_unique<ViewportSubscriptions>(&view, options);
        QObject::connect(viewport.get(), &ViewportSubscriptions::wantedChanged, &session,
            [this](const QSet<QString> &wanted, const QStringList &, const QStringList &) {
                session.setWanted(wanted);
            });
        QObject::connect(&session, &GatewaySession::signedIn, viewport.get(),
            [this] { viewport->setMaxSubscriptions(session.limits().maxSubscriptions); });
        // What the views were told, at the model's flush.
        QObject::connect(&model, &QAbstractItemModel::dataChanged, &view,
            [this](const QModelIndex &first, const QModelIndex &last, const QList<int> &roles) {
                if (!roles.contains(FriendListModel::StatusRole))
                    return;
                for (int row = first.row(); row <= last.row(); ++row) {
                    const QModelIndex index = model.index(row);
                    flushed.insert(index.data(FriendListModel::IdRole).toString(),
                        PresenceState(index.data(FriendListModel::StatusRole).toInt()));
                }
            });
    }

    // Shows the view, signs in and waits for the friend list.
    bool start(const QUrl &url)
    {
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        QSignalSpy loaded(&session, &GatewaySession::friendsLoaded);
        session.open(url, tokenOf(userId));
        return loaded.wait(5000) && model.rowCount() > 0;
    }

    [[nodiscard]] QModelIndex indexOf(const QString &id) const
    {
        const auto row = model.rowOf(id);
        return row ? model.index(*row) : QModelIndex();
    }
    [[nodiscard]] PresenceState statusOf(const QString &id) const
    {
        return PresenceState(indexOf(id).data(FriendListModel::StatusRole).toInt());
    }
    [[nodiscard]] bool isFresh(const QString &id) const
    {
        return indexOf(id).data(FriendListModel::FreshRole).toBool();
    }
    [[nodiscard]] PresenceState flushedStatusOf(const QString &id) const
    {
        return flushed.value(id, PresenceState::Unknown);
    }
    [[nodiscard]] QString idAtRow(int row) const
    {
        return proxy.index(row, 0).data(FriendListModel::IdRole).toString();
    }

    QString userId;
    FriendListModel model;
    FriendSortFilterProxy proxy;
    GatewaySession session;
    SessionModelBridge bridge { &session, &model };
    QListView view;
    std::unique_ptr<ViewportSubscriptions> viewport;
    QHash<QString, PresenceState> flushed;
};

bool mentions(const QSignalSpy &presenceSpy, const QString &id)
{
    for (const QList<QVariant> &arguments : presenceSpy) {
        const auto batch = arguments.at(0).value<QList<UserPresence>>();
        for (const UserPresence &presence : batch) {
            if (presence.id == id)
                return true;
        }
    }
    return false;
}

// Waits until the store has published `status` for `id` (whoever watches it).
bool waitPublished(QSignalSpy &published, const QString &id, PresenceStatus status)
{
    const auto seen = [&] {
        for (const QList<QVariant> &arguments : std::as_const(published)) {
            const auto presence = arguments.at(0).value<UserPresence>();
            if (presence.id == id && presence.status == status)
                return true;
        }
        return false;
    };
    return QTest::qWaitFor(seen, 5000);
}

} // namespace

// What the gateway watches for alice is the window her view shows, and bob is (not) in it.
#define VERIFY_ALICE_WATCHES(gateway, alice, watchesBob)                                           \
    do {                                                                                           \
        QTRY_VERIFY_WITH_TIMEOUT((alice).viewport->lingeringCount() == 0                           \
                && (alice).viewport->wanted() == windowOf((alice).view),                           \
            5000);                                                                                 \
        QTRY_COMPARE_WITH_TIMEOUT(                                                                 \
            (gateway)->subscriptionsOfUser(kAlice), sorted((alice).viewport->wanted()), 5000);     \
        QCOMPARE((gateway)->subscriptionsOfUser(kAlice).contains(kBob), watchesBob);               \
    } while (false)

class TestClientEndToEnd : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void friendGoesOnlineThenOfflineAfterGrace();
    void friendScrolledOutOfViewIsNotPushed();
    void friendOutOfViewFollowsTheAvailabilitySet();
    void onlineFriendFarDownSortsToTheTop();
    void friendsPastTheCapAreNotCovered();
    void lostGatewayMakesEveryoneUnknownUntilItReturns();
    void friendsChangedWhileConnectedChangeRowsInPlace();
};

void TestClientEndToEnd::initTestCase()
{
    qRegisterMetaType<UserPresence>();
    qRegisterMetaType<QList<UserPresence>>();
}

void TestClientEndToEnd::friendGoesOnlineThenOfflineAfterGrace()
{
    const auto gateway = startGateway(population());
    QVERIFY(gateway);
    const auto grace = gateway->config().grace;
    QCOMPARE(grace, 300ms);

    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    QCOMPARE(alice.model.rowCount(), kOthers + 1);
    VERIFY_ALICE_WATCHES(gateway, alice, true);
    // Never seen: offline, once the snapshot is in.
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Offline);
    QVERIFY(alice.isFresh(kBob));

    Client bob(kBob);
    QVERIFY(bob.start(gateway->url()));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);
    QCOMPARE(alice.statusOf(kBob), PresenceState::Online);
    QCOMPARE(alice.idAtRow(0), kBob);
    // And bob sees alice online too.
    QTRY_COMPARE(bob.flushedStatusOf(kAlice), PresenceState::Online);

    // Bob stays online for alice through the grace: the first moment her list says anything
    // else is noted as it happens, so a slow machine can only note it later, never fail.
    QElapsedTimer sinceClose;
    qint64 notOnlineAfter = -1;
    connect(&alice.model, &QAbstractItemModel::dataChanged, this, [&] {
        if (notOnlineAfter < 0 && alice.statusOf(kBob) != PresenceState::Online)
            notOnlineAfter = sinceClose.elapsed();
    });
    sinceClose.start();
    bob.session.close();
    QCOMPARE(bob.session.state(), GatewaySession::State::Disconnected);
    QTRY_COMPARE(gateway->authenticatedCount(), 1); // the gateway has seen him go

    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Offline);
    QVERIFY2(notOnlineAfter >= grace.count(),
        qPrintable(u"not online after %1 ms, within the grace of %2 ms"_s.arg(notOnlineAfter)
                       .arg(grace.count())));
    QVERIFY(alice.indexOf(kBob).data(FriendListModel::LastSeenRole).isValid());
    QVERIFY(alice.isFresh(kBob));
}

void TestClientEndToEnd::friendScrolledOutOfViewIsNotPushed()
{
    // Exact subscriptions alone, as for friends past the availability cap: with the
    // availability set off, nothing keeps a row live once it leaves the screen.
    GatewayConfig config = testConfig();
    config.maxAvailabilityFriends = 0;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    QSignalSpy published(gateway->store(), &PresenceStore::presencePublished);
    QVERIFY(published.isValid());

    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    Client bob(kBob);
    QVERIFY(bob.start(gateway->url()));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);

    // Alice scrolls to the bottom: bob, at the top, leaves her window and then the gateway's
    // set once the linger has passed.
    QTRY_VERIFY(alice.view.verticalScrollBar()->maximum() > 0);
    alice.view.verticalScrollBar()->setValue(alice.view.verticalScrollBar()->maximum());
    QTRY_VERIFY(!alice.viewport->wanted().contains(kBob));
    VERIFY_ALICE_WATCHES(gateway, alice, false);
    QVERIFY(!alice.session.subscribed().contains(kBob));
    // What alice holds of bob is no longer live.
    QTRY_VERIFY(!alice.isFresh(kBob));
    QCOMPARE(alice.statusOf(kBob), PresenceState::Online);

    // Bob goes away. Then a friend in alice's window comes online: that push reaches alice,
    // and anything about bob would have reached her before it.
    QSignalSpy received(&alice.session, &GatewaySession::presenceReceived);
    QVERIFY(received.isValid());
    bob.session.setChosenStatus(ChosenStatus::Away);
    QVERIFY(waitPublished(published, kBob, PresenceStatus::Away));
    const QString carol = alice.idAtRow(alice.proxy.rowCount() - 1);
    QVERIFY(gateway->subscriptionsOfUser(kAlice).contains(carol));
    TestClient carolClient;
    QVERIFY(!carolClient.login(gateway->url(), tokenOf(carol)).isEmpty());
    QTRY_VERIFY(mentions(received, carol));
    QVERIFY(!mentions(received, kBob));
    QCOMPARE(alice.statusOf(kBob), PresenceState::Online);
    QVERIFY(!gateway->subscriptionsOfUser(kAlice).contains(kBob));

    // Back at the top, alice watches bob again and sees him as he is now.
    alice.view.verticalScrollBar()->setValue(0);
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Away);
    QVERIFY(alice.isFresh(kBob));
    QVERIFY(mentions(received, kBob));
    VERIFY_ALICE_WATCHES(gateway, alice, true);
}

void TestClientEndToEnd::friendOutOfViewFollowsTheAvailabilitySet()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 100ms;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    QSignalSpy published(gateway->store(), &PresenceStore::presencePublished);
    QVERIFY(published.isValid());

    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    QTRY_COMPARE(alice.model.coveredCount(), kOthers + 1);
    Client bob(kBob);
    QVERIFY(bob.start(gateway->url()));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);

    // Out of alice's window, bob is no longer watched exactly, and still known live.
    QTRY_VERIFY(alice.view.verticalScrollBar()->maximum() > 0);
    alice.view.verticalScrollBar()->setValue(alice.view.verticalScrollBar()->maximum());
    QTRY_VERIFY(!alice.viewport->wanted().contains(kBob));
    VERIFY_ALICE_WATCHES(gateway, alice, false);
    QVERIFY(alice.isFresh(kBob));
    QCOMPARE(alice.statusOf(kBob), PresenceState::Online);
    QCOMPARE(alice.model.countLiveIn(PresenceState::Online), 1);

    // His changes reach her through the availability set, coalesced, without a subscription.
    QSignalSpy exact(&alice.session, &GatewaySession::presenceReceived);
    QVERIFY(exact.isValid());
    bob.session.setChosenStatus(ChosenStatus::Away);
    QVERIFY(waitPublished(published, kBob, PresenceStatus::Away));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Away);
    QVERIFY(alice.isFresh(kBob));
    bob.session.close();
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Offline);
    QVERIFY(alice.isFresh(kBob));
    QVERIFY(!mentions(exact, kBob));
    QVERIFY(!gateway->subscriptionsOfUser(kAlice).contains(kBob));
    QCOMPARE(alice.model.countLiveIn(PresenceState::Online), 0);
}

void TestClientEndToEnd::onlineFriendFarDownSortsToTheTop()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 100ms;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    // A friend at the bottom of the name order signs in first: "online first" must show them
    // at the top although nobody looks at their row.
    const QString last = otherId(kOthers);
    TestClient far;
    QVERIFY(!far.login(gateway->url(), tokenOf(last)).isEmpty());

    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    QCOMPARE(alice.proxy.sortMode(), FriendSortFilterProxy::SortMode::Availability);
    QTRY_COMPARE(alice.idAtRow(0), last);
    QCOMPARE(alice.statusOf(last), PresenceState::Online);

    // And one who comes online later, far down the list, moves up too.
    const QString other = otherId(kOthers - 1);
    QVERIFY(!alice.viewport->wanted().contains(other));
    TestClient later;
    QVERIFY(!later.login(gateway->url(), tokenOf(other)).isEmpty());
    QTRY_VERIFY(alice.idAtRow(0) == other || alice.idAtRow(1) == other);
    QCOMPARE(alice.model.countLiveIn(PresenceState::Online), 2);
}

void TestClientEndToEnd::friendsPastTheCapAreNotCovered()
{
    GatewayConfig config = testConfig();
    config.maxAvailabilityFriends = 10; // bob and the first 9 others, in friends order
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    QTRY_COMPARE(alice.model.coveredCount(), 10);
    QTRY_VERIFY(alice.isFresh(otherId(9)));
    // Past the cap, only rows on screen are known: the bottom of the list is not.
    QVERIFY(!alice.viewport->wanted().contains(otherId(kOthers)));
    QVERIFY(!alice.isFresh(otherId(kOthers)));
    QCOMPARE(alice.statusOf(otherId(kOthers)), PresenceState::Unknown);
}

void TestClientEndToEnd::lostGatewayMakesEveryoneUnknownUntilItReturns()
{
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    const QUrl url = gateway->url();

    Client alice(kAlice);
    QVERIFY(alice.start(url));
    Client bob(kBob);
    QVERIFY(bob.start(url));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);
    VERIFY_ALICE_WATCHES(gateway, alice, true);
    const QSet<QString> watched = alice.viewport->wanted();
    QVERIFY(watched.size() > 1);
    const QString other = *std::find_if(
        watched.cbegin(), watched.cend(), [](const QString &id) { return id != kBob; });
    QTRY_COMPARE(alice.flushedStatusOf(other), PresenceState::Offline);

    // The gateway goes away: nothing alice holds is live any more, and unknown is not offline.
    QSignalSpy lost(&alice.session, &GatewaySession::presenceLost);
    QVERIFY(lost.isValid());
    QSignalSpy retries(&alice.session, &GatewaySession::retryScheduled);
    QVERIFY(retries.isValid());
    gateway.reset();
    QVERIFY(lost.wait(5000));
    QTRY_COMPARE(alice.model.countIn(PresenceState::Unknown), alice.model.rowCount());
    QCOMPARE(alice.model.countIn(PresenceState::Offline), 0);
    QCOMPARE(alice.model.countIn(PresenceState::Online), 0);
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Unknown);
    QTRY_COMPARE(alice.flushedStatusOf(other), PresenceState::Unknown);
    for (int row = 0; row < alice.model.rowCount(); ++row)
        QVERIFY(!alice.model.index(row).data(FriendListModel::FreshRole).toBool());
    // At least one attempt finds nobody listening; still unknown, not offline.
    QTRY_VERIFY_WITH_TIMEOUT(retries.size() >= 2, 5000);
    QCOMPARE(retries.at(1).at(0).toInt(), 2);
    QCOMPARE(alice.model.countIn(PresenceState::Unknown), alice.model.rowCount());
    QCOMPARE(alice.session.state(), GatewaySession::State::Reconnecting);

    // It comes back on the same port: both clients reconnect by themselves and the rows
    // alice watches are live again.
    GatewayConfig config = testConfig();
    config.port = port;
    gateway = startGateway(population(), config);
    QVERIFY(gateway);
    QTRY_COMPARE_WITH_TIMEOUT(alice.session.state(), GatewaySession::State::Online, 10'000);
    QTRY_COMPARE_WITH_TIMEOUT(bob.session.state(), GatewaySession::State::Online, 10'000);
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);
    QTRY_COMPARE(alice.flushedStatusOf(other), PresenceState::Offline);
    VERIFY_ALICE_WATCHES(gateway, alice, true);
    QCOMPARE(alice.viewport->wanted(), watched);
    for (const QString &id : watched) {
        QTRY_VERIFY(alice.isFresh(id));
        QVERIFY(alice.statusOf(id) != PresenceState::Unknown);
    }
    QCOMPARE(alice.model.rowCount(), kOthers + 1);
}

void TestClientEndToEnd::friendsChangedWhileConnectedChangeRowsInPlace()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 100ms;
    const auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    Client alice(kAlice);
    QVERIFY(alice.start(gateway->url()));
    Client bob(kBob);
    QVERIFY(bob.start(gateway->url()));
    QTRY_COMPARE(alice.flushedStatusOf(kBob), PresenceState::Online);
    QCOMPARE(alice.idAtRow(0), kBob);

    // Alice has scrolled down and picked a friend there.
    QScrollBar *scroll = alice.view.verticalScrollBar();
    QTRY_VERIFY(scroll->maximum() > 0);
    scroll->setValue(scroll->maximum() / 2);
    const QModelIndex picked = alice.view.indexAt(alice.view.viewport()->rect().center());
    QVERIFY(picked.isValid());
    alice.view.setCurrentIndex(picked);
    const QString pickedId = picked.data(FriendListModel::IdRole).toString();
    const int scrolled = scroll->value();
    QSignalSpy resets(&alice.proxy, &QAbstractItemModel::modelAboutToBeReset);
    QVERIFY(resets.isValid());

    // bob and alice are friends no more; zoe is alice's friend now.
    const auto &directory = gateway->directory();
    const int a = *directory.indexOfId(kAlice);
    QCOMPARE(gateway->friendships().changeFriendships({ { a, *directory.indexOfId(kBob), false },
                 { a, *directory.indexOfId(kZoe), true } }),
        2);
    QTRY_VERIFY(alice.model.rowOf(kZoe).has_value());
    QCOMPARE(alice.model.rowOf(kBob), std::nullopt);
    QCOMPARE(alice.model.rowCount(), kOthers + 1);
    QTRY_VERIFY(!bob.model.rowOf(kAlice).has_value());
    // Rows came and went around the others: no reset, alice's place and pick are kept.
    QCOMPARE(resets.count(), 0);
    QCOMPARE(alice.view.currentIndex().data(FriendListModel::IdRole).toString(), pickedId);
    QVERIFY2(std::abs(scroll->value() - scrolled) <= 1,
        qPrintable(u"scrolled to %1, was %2"_s.arg(scroll->value()).arg(scrolled)));

    // The availability set covers the new list: zoe, off screen, comes online and rises.
    TestClient zoe;
    QVERIFY(!zoe.login(gateway->url(), tokenOf(kZoe)).isEmpty());
    QTRY_COMPARE(alice.flushedStatusOf(kZoe), PresenceState::Online);
    QTRY_COMPARE(alice.idAtRow(0), kZoe);
    QVERIFY(!gateway->subscriptionsOfUser(kAlice).contains(kBob));
}

QTEST_MAIN(TestClientEndToEnd)
#include "tst_client_end_to_end.moc"
