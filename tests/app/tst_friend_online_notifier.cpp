// "A friend came online" notifications: only real transitions from offline or away to a
// live online announce anything (never the first snapshot, a reconnect, a stale row or a
// friend-list reset), bursts make one notification, and disabled means silent. Unit tests
// drive a real FriendListModel; two tests sign in to a real gateway.

// C++
#include <algorithm>
#include <memory>

// Qt
#include <QAbstractItemModelTester>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "TestClient.h"
#include "app/FriendOnlineNotifier.h"
#include "app/SessionModelBridge.h"
#include "models/FriendListModel.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::FriendOnlineNotifier;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::FriendRecord;
using Presence::Models::PresenceState;
using Presence::Server::Gateway;
using Presence::Server::GatewayConfig;
using Presence::Session::GatewaySession;

namespace {

const QString kAlice = u"alice"_s;
const QString kBob = u"bob"_s;
const QString kCarol = u"carol"_s;
const QString kDave = u"dave"_s;
const QString kErin = u"erin"_s;
// Kept out of every scenario: the friend whose notification proves nothing came before.
const QString kZed = u"zed"_s;

QList<FriendRecord> friends()
{
    return { { kAlice, u"Alice"_s }, { kBob, u"Bob"_s }, { kCarol, u"Carol"_s },
        { kDave, u"Dave"_s }, { kErin, u"Erin"_s }, { kZed, u"Zed"_s } };
}

QList<TestUser> population()
{
    return { { u"me"_s, { kAlice, kCarol, kDave } }, { kAlice, {} }, { kCarol, {} },
        { kDave, {} } };
}

} // namespace

class TestFriendOnlineNotifier : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void offByDefault();
    void cameOnlineIsAnnounced_data();
    void cameOnlineIsAnnounced();
    void firstSnapshotIsABaseline();
    void awayAndBackIsAnnounced();
    void burstMakesOneNotification_data();
    void burstMakesOneNotification();
    void oncePerFriendPerWindow();
    void offlineAgainWithinWindowIsNotAnnounced();
    void disabledAnnouncesNothing();
    void reconnectAnnouncesNothing();
    void staleRowsAnnounceNothing();
    void friendListResetAnnouncesNothing();
    void selfIsNeverAnnounced();
    void trayIconMayGoAway();

    void friendSigningInIsAnnouncedEndToEnd();
    void reconnectAnnouncesNothingEndToEnd();
    void unwatchedFriendIsAnnouncedThroughTheAvailabilitySet();

private:
    // A presence event as the session delivers it, then the flush that tells views.
    void live(const QString &id, PresenceState state);
    [[nodiscard]] QString message(qsizetype i) const { return m_spy->at(i).at(1).toString(); }
    // Proves a negative without sleeping: Zed really comes online now, so his must be the
    // next notification, alone. Anything wrongly queued before would come first or with him.
    void verifyNextIsOnlyZed(qsizetype notificationsSoFar);

    std::unique_ptr<FriendListModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    std::unique_ptr<FriendOnlineNotifier> m_notifier;
    std::unique_ptr<QSignalSpy> m_spy;
};

void TestFriendOnlineNotifier::init()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    m_model = std::make_unique<FriendListModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get());
    m_model->setFriends(friends());
    m_notifier = std::make_unique<FriendOnlineNotifier>(m_model.get());
    m_notifier->setCoalescingWindow(50ms);
    m_notifier->setEnabled(true);
    m_spy
        = std::make_unique<QSignalSpy>(m_notifier.get(), &FriendOnlineNotifier::notificationReady);
    QVERIFY(m_spy->isValid());
}

void TestFriendOnlineNotifier::cleanup()
{
    m_spy.reset();
    m_notifier.reset();
    m_tester.reset();
    m_model.reset();
}

void TestFriendOnlineNotifier::live(const QString &id, PresenceState state)
{
    m_model->updatePresence(id, state, std::nullopt);
    m_model->flush();
}

void TestFriendOnlineNotifier::verifyNextIsOnlyZed(qsizetype notificationsSoFar)
{
    QCOMPARE(m_spy->count(), notificationsSoFar);
    live(kZed, PresenceState::Offline);
    live(kZed, PresenceState::Online);
    QTRY_COMPARE(m_spy->count(), notificationsSoFar + 1);
    QCOMPARE(message(notificationsSoFar), u"Zed is online"_s);
}

void TestFriendOnlineNotifier::offByDefault()
{
    FriendOnlineNotifier notifier(m_model.get());
    QVERIFY(!notifier.isEnabled());
    QCOMPARE(notifier.coalescingWindow(), 2000ms);
}

void TestFriendOnlineNotifier::cameOnlineIsAnnounced_data()
{
    QTest::addColumn<PresenceState>("before");
    QTest::addRow("from offline") << PresenceState::Offline;
    QTest::addRow("from away") << PresenceState::Away;
}

void TestFriendOnlineNotifier::cameOnlineIsAnnounced()
{
    QFETCH(PresenceState, before);
    live(kAlice, before);
    live(kAlice, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(m_spy->count(), 1);
    QCOMPARE(m_spy->at(0).at(0).toString(), u"Friend online"_s);
    QCOMPARE(message(0), u"Alice is online"_s);
}

void TestFriendOnlineNotifier::firstSnapshotIsABaseline()
{
    // Signing in: everybody goes from unknown to their state, several of them online.
    m_model->updatePresence(kAlice, PresenceState::Online, std::nullopt);
    m_model->updatePresence(kBob, PresenceState::Online, std::nullopt);
    m_model->updatePresence(kCarol, PresenceState::Offline, std::nullopt);
    m_model->flush();
    verifyNextIsOnlyZed(0);
}

void TestFriendOnlineNotifier::awayAndBackIsAnnounced()
{
    live(kAlice, PresenceState::Online);
    live(kAlice, PresenceState::Away);
    live(kAlice, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(message(0), u"Alice is online"_s);
    verifyNextIsOnlyZed(1);
}

void TestFriendOnlineNotifier::burstMakesOneNotification_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("expected");
    QTest::addRow("two") << 2 << u"Friends online"_s << u"Alice and Bob are online"_s;
    QTest::addRow("three") << 3 << u"Friends online"_s << u"Alice, Bob and Carol are online"_s;
    QTest::addRow("five") << 5 << u"Friends online"_s << u"Alice, Bob and 3 others are online"_s;
}

void TestFriendOnlineNotifier::burstMakesOneNotification()
{
    QFETCH(int, count);
    QFETCH(QString, title);
    QFETCH(QString, expected);
    const QList<FriendRecord> all = friends();
    for (int i = 0; i < count; ++i)
        live(all.at(i).id, PresenceState::Offline);
    // One after the other, each in its own flush, all within the window.
    for (int i = 0; i < count; ++i)
        live(all.at(i).id, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(m_spy->count(), 1);
    QCOMPARE(m_spy->at(0).at(0).toString(), title);
    QCOMPARE(message(0), expected);
    verifyNextIsOnlyZed(1);
}

void TestFriendOnlineNotifier::oncePerFriendPerWindow()
{
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(message(0), u"Alice is online"_s);
    verifyNextIsOnlyZed(1);
}

void TestFriendOnlineNotifier::offlineAgainWithinWindowIsNotAnnounced()
{
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    live(kAlice, PresenceState::Offline);
    verifyNextIsOnlyZed(0);
}

void TestFriendOnlineNotifier::disabledAnnouncesNothing()
{
    m_notifier->setEnabled(false);
    QVERIFY(!m_notifier->isEnabled());
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    live(kBob, PresenceState::Offline);

    // Enabling replays nothing from before, yet knows Bob was offline.
    m_notifier->setEnabled(true);
    live(kBob, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(m_spy->count(), 1);
    QCOMPARE(message(0), u"Bob is online"_s);

    // Disabled while a notification waits for its window: it is dropped.
    live(kCarol, PresenceState::Offline);
    live(kCarol, PresenceState::Online);
    m_notifier->setEnabled(false);
    m_notifier->setEnabled(true);
    verifyNextIsOnlyZed(1);
}

void TestFriendOnlineNotifier::reconnectAnnouncesNothing()
{
    live(kAlice, PresenceState::Offline);
    live(kBob, PresenceState::Away);
    // The connection is lost, then comes back with a snapshot in which both are online.
    m_model->markAllUnknown();
    m_model->flush();
    m_model->updatePresence(kAlice, PresenceState::Online, std::nullopt);
    m_model->updatePresence(kBob, PresenceState::Online, std::nullopt);
    m_model->flush();
    verifyNextIsOnlyZed(0);
}

void TestFriendOnlineNotifier::staleRowsAnnounceNothing()
{
    live(kAlice, PresenceState::Offline);
    // Scrolled away: no longer watched. She comes online meanwhile, unseen, and is
    // watched again: when she came online is unknown, so it is not news.
    m_model->markStale({ kAlice });
    m_model->flush();
    live(kAlice, PresenceState::Online);
    verifyNextIsOnlyZed(0);
}

void TestFriendOnlineNotifier::friendListResetAnnouncesNothing()
{
    live(kAlice, PresenceState::Offline);
    live(kBob, PresenceState::Offline);
    // Alice comes online, but the list is replaced (in another order, and a new friend)
    // before views hear of it.
    m_model->updatePresence(kAlice, PresenceState::Online, std::nullopt);
    QList<FriendRecord> more = friends();
    std::reverse(more.begin(), more.end());
    more.append({ u"frank"_s, u"Frank"_s });
    QSignalSpy reset(m_model.get(), &FriendListModel::modelReset);
    m_model->setFriends(more);
    QCOMPARE(reset.count(), 1);

    // What was live before the reset stays the baseline: Bob coming online is news.
    live(kBob, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(m_spy->count(), 1);
    QCOMPARE(message(0), u"Bob is online"_s);

    // A friend removed from the list (in place, while connected) while waiting for the
    // window is not announced.
    live(kCarol, PresenceState::Offline);
    live(kCarol, PresenceState::Online);
    QList<FriendRecord> withoutCarol = more;
    withoutCarol.removeIf([](const FriendRecord &f) { return f.id == kCarol; });
    m_model->setFriends(withoutCarol);
    QCOMPARE(reset.count(), 1);
    verifyNextIsOnlyZed(1);
}

void TestFriendOnlineNotifier::selfIsNeverAnnounced()
{
    m_notifier->setSelfId(kAlice);
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    verifyNextIsOnlyZed(0);
}

void TestFriendOnlineNotifier::trayIconMayGoAway()
{
    auto tray = std::make_unique<QSystemTrayIcon>();
    m_notifier->setTrayIcon(tray.get());
    QCOMPARE(m_notifier->trayIcon(), tray.get());
    tray.reset();
    QCOMPARE(m_notifier->trayIcon(), nullptr);
    live(kAlice, PresenceState::Offline);
    live(kAlice, PresenceState::Online);
    QVERIFY(m_spy->wait());
    QCOMPARE(message(0), u"Alice is online"_s);
}

void TestFriendOnlineNotifier::friendSigningInIsAnnouncedEndToEnd()
{
    const std::unique_ptr<Gateway> gateway = startGateway(population());
    QVERIFY(gateway);
    // Carol is online before we sign in.
    TestClient carol;
    QVERIFY(!carol.login(gateway->url(), tokenOf(kCarol)).isEmpty());

    GatewaySession session;
    FriendListModel model;
    SessionModelBridge bridge(&session, &model);
    FriendOnlineNotifier notifier(&model);
    notifier.setCoalescingWindow(200ms);
    notifier.setEnabled(true);
    connect(&session, &GatewaySession::signedIn, &notifier,
        [&notifier](const Presence::Protocol::UserInfo &self) { notifier.setSelfId(self.id); });
    QSignalSpy spy(&notifier, &FriendOnlineNotifier::notificationReady);
    QVERIFY(spy.isValid());
    const auto stateOf = [&model](const QString &id) {
        const std::optional<int> row = model.rowOf(id);
        return row ? model.stateAt(*row) : PresenceState::Unknown;
    };

    session.open(gateway->url(), tokenOf(u"me"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    session.setWanted({ kAlice, kCarol, kDave });
    QTRY_COMPARE(model.rowCount(), 3);
    // The snapshot at sign-in is a baseline: Carol online is not news.
    QTRY_COMPARE(stateOf(kCarol), PresenceState::Online);
    QTRY_COMPARE(stateOf(kAlice), PresenceState::Offline);
    QTRY_COMPARE(stateOf(kDave), PresenceState::Offline);

    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), tokenOf(kAlice)).isEmpty());
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), u"Friend online"_s);
    QCOMPARE(spy.at(0).at(1).toString(), u"Alice is online"_s);

    // Nothing else was waiting: Dave signing in is the next notification, alone.
    TestClient dave;
    QVERIFY(!dave.login(gateway->url(), tokenOf(kDave)).isEmpty());
    QTRY_COMPARE(spy.count(), 2);
    QCOMPARE(spy.at(1).at(1).toString(), u"Dave is online"_s);
}

void TestFriendOnlineNotifier::reconnectAnnouncesNothingEndToEnd()
{
    std::unique_ptr<Gateway> gateway = startGateway(population());
    QVERIFY(gateway);
    GatewaySession session;
    FriendListModel model;
    SessionModelBridge bridge(&session, &model);
    FriendOnlineNotifier notifier(&model);
    notifier.setCoalescingWindow(200ms);
    notifier.setEnabled(true);
    QSignalSpy spy(&notifier, &FriendOnlineNotifier::notificationReady);
    QVERIFY(spy.isValid());

    session.open(gateway->url(), tokenOf(u"me"_s));
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    session.setWanted({ kAlice, kCarol, kDave });
    QTRY_COMPARE(model.countIn(PresenceState::Offline), 3);

    // The gateway goes away; Alice signs in to it when it is back, before we reconnect.
    const quint16 port = gateway->port();
    gateway.reset();
    QTRY_COMPARE(model.countIn(PresenceState::Unknown), 3);
    GatewayConfig config = testConfig();
    config.port = port;
    gateway = startGateway(population(), config);
    QVERIFY(gateway);
    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), tokenOf(kAlice)).isEmpty());
    session.retryNow();
    QTRY_COMPARE(session.state(), GatewaySession::State::Online);
    QTRY_COMPARE(model.countIn(PresenceState::Online), 1);
    QTRY_COMPARE(model.countIn(PresenceState::Offline), 2);

    // Only what happens after the reconnect is news.
    TestClient dave;
    QVERIFY(!dave.login(gateway->url(), tokenOf(kDave)).isEmpty());
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(1).toString(), u"Dave is online"_s);
}

void TestFriendOnlineNotifier::unwatchedFriendIsAnnouncedThroughTheAvailabilitySet()
{
    GatewayConfig config = testConfig();
    config.availabilityInterval = 100ms;
    const std::unique_ptr<Gateway> gateway = startGateway(population(), config);
    QVERIFY(gateway);
    GatewaySession session;
    FriendListModel model;
    SessionModelBridge bridge(&session, &model);
    FriendOnlineNotifier notifier(&model);
    notifier.setCoalescingWindow(200ms);
    notifier.setEnabled(true);
    QSignalSpy spy(&notifier, &FriendOnlineNotifier::notificationReady);
    QVERIFY(spy.isValid());

    // Nothing subscribed at all (no rows on screen): the availability set alone knows.
    session.open(gateway->url(), tokenOf(u"me"_s));
    QTRY_COMPARE(model.coveredCount(), 3);
    QTRY_COMPARE(model.countLiveIn(PresenceState::Offline), 3);
    QVERIFY(session.subscribed().isEmpty());
    TestClient alice;
    QVERIFY(!alice.login(gateway->url(), tokenOf(kAlice)).isEmpty());
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(1).toString(), u"Alice is online"_s);
}

QTEST_MAIN(TestFriendOnlineNotifier)
#include "tst_friend_online_notifier.moc"
