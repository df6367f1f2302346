// Automatic away against a real gateway: idle input makes an online user away for a
// friend watching, input makes them online again, and a status chosen by hand is left alone.
// With the desktop's idle time (a fake DesktopIdle here; tst_freedesktop_idle checks the D-Bus
// side), typing in another application keeps the user online, and a locked screen or a
// suspend makes them away at once.

// C++
#include <memory>

// Qt
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QWidget>

// Presence
#include "GatewayFixture.h"
#include "app/DesktopIdle.h"
#include "app/IdleAwayController.h"
#include "app/SessionModelBridge.h"
#include "models/FriendListModel.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::IdleAwayController;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Protocol::ChosenStatus;
using Presence::Server::Gateway;
using Presence::Session::GatewaySession;

namespace {

// The desktop as a test wants it: an idle time it reports when asked, on the next turn.
class FakeDesktopIdle : public Presence::App::DesktopIdle {
public:
    [[nodiscard]] bool knowsIdleTime() const override { return true; }
    void queryIdleTime() override
    {
        ++queries;
        QTimer::singleShot(0, this, [this] { Q_EMIT idleTimeReported(idle); });
    }

    std::chrono::milliseconds idle { 0 };
    int queries = 0;
};

} // namespace

class TestIdleAwayController : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void idleMakesAwayAndInputMakesOnline();
    void handChosenStatusIsLeftAlone();
    void inputElsewhereOnTheDesktopKeepsOnline();
    void lockAndSuspendMakeAwayAtOnce();

private:
    // Input as the user gives it: a key press delivered through the application.
    void type() { QTest::keyClick(&m_widget, Qt::Key_A); }
    [[nodiscard]] PresenceState aliceAsBobSeesHer() const { return m_bobModel.stateAt(0); }

    std::unique_ptr<Gateway> m_gateway;
    std::unique_ptr<GatewaySession> m_alice;
    std::unique_ptr<GatewaySession> m_bob;
    FriendListModel m_bobModel;
    std::unique_ptr<SessionModelBridge> m_bridge;
    QWidget m_widget;
};

void TestIdleAwayController::init()
{
    QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    m_gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } });
    QVERIFY(m_gateway);
    m_alice = std::make_unique<GatewaySession>();
    m_bob = std::make_unique<GatewaySession>();
    m_bridge = std::make_unique<SessionModelBridge>(m_bob.get(), &m_bobModel);
    m_alice->open(m_gateway->url(), tokenOf(u"alice"_s));
    m_bob->open(m_gateway->url(), tokenOf(u"bob"_s));
    QTRY_COMPARE(m_bob->state(), GatewaySession::State::Online);
    m_bob->setWanted({ u"alice"_s });
    QTRY_COMPARE(m_bobModel.rowCount(), 1);
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Online);
    m_widget.show();
}

void TestIdleAwayController::idleMakesAwayAndInputMakesOnline()
{
    IdleAwayController idle(m_alice.get(), 300ms);
    QElapsedTimer sinceStart;
    sinceStart.start();
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Away);
    QVERIFY(sinceStart.elapsed() >= 300);
    QVERIFY(idle.isAutoAway());

    type();
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Online);
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Online);

    // Input keeps her online: typing every 100 ms for twice the idle time, her status never
    // leaves online, not even for a moment between two keys, and Bob never sees her away.
    m_bobModel.flush(); // her return to online, told
    QSignalSpy statusChanges(m_alice.get(), &GatewaySession::chosenStatusChanged);
    QSignalSpy bobTold(&m_bobModel, &QAbstractItemModel::dataChanged);
    QElapsedTimer typing;
    typing.start();
    while (typing.elapsed() < 600) {
        QTest::qWait(100);
        type();
        QVERIFY(!idle.isAutoAway());
    }
    QCOMPARE(statusChanges.count(), 0);
    m_bobModel.flush();
    QCOMPARE(aliceAsBobSeesHer(), PresenceState::Online);
    QCOMPARE(bobTold.count(), 0); // no away and back again in between
}

void TestIdleAwayController::handChosenStatusIsLeftAlone()
{
    IdleAwayController idle(m_alice.get(), 300ms);
    m_alice->setChosenStatus(ChosenStatus::Invisible); // chosen from the header
    // Idle well past the limit, then input: invisible stays invisible.
    QTest::qWait(600);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Invisible);
    type();
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Invisible);

    // Away by hand is not undone by input either.
    m_alice->setChosenStatus(ChosenStatus::Away);
    type();
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Away);
    QVERIFY(!idle.isAutoAway());
}

void TestIdleAwayController::inputElsewhereOnTheDesktopKeepsOnline()
{
    FakeDesktopIdle desktop;
    IdleAwayController idle(m_alice.get(), 300ms);
    idle.setDesktop(&desktop);
    QElapsedTimer sinceStart;
    sinceStart.start();

    // No input in this application, but the desktop says the user types elsewhere: online,
    // across many checks and well past the idle time.
    QTRY_VERIFY(desktop.queries >= 10 && sinceStart.elapsed() > 600);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Online);
    QCOMPARE(aliceAsBobSeesHer(), PresenceState::Online);

    // The desktop idles too: away.
    desktop.idle = 10min;
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Away);
    QVERIFY(idle.isAutoAway());

    // Input in another application brings her back, without a key in this one.
    desktop.idle = 0ms;
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Online);
    QVERIFY(!idle.isAutoAway());
}

void TestIdleAwayController::lockAndSuspendMakeAwayAtOnce()
{
    FakeDesktopIdle desktop;
    IdleAwayController idle(m_alice.get(), 1h); // no idle time could explain an away
    idle.setDesktop(&desktop);

    Q_EMIT desktop.lockChanged(true);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Away);
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Away);
    // While locked, input seen by the desktop (a mouse nudged the lock screen) changes nothing.
    Q_EMIT desktop.idleTimeReported(0ms);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Away);

    Q_EMIT desktop.lockChanged(false);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Online);
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Online);

    Q_EMIT desktop.sleepStarted();
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Away);
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Away);
    type(); // back from suspend, at the keyboard
    QTRY_COMPARE(aliceAsBobSeesHer(), PresenceState::Online);

    // A status chosen by hand survives a lock and an unlock.
    m_alice->setChosenStatus(ChosenStatus::Invisible);
    Q_EMIT desktop.lockChanged(true);
    Q_EMIT desktop.lockChanged(false);
    QVERIFY(m_alice->chosenStatus() == ChosenStatus::Invisible);
}

QTEST_MAIN(TestIdleAwayController)
#include "tst_idle_away_controller.moc"
