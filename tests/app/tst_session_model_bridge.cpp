// SessionModelBridge: what a session reports lands in the friend list as the list shows it.
// The session is not connected: the test emits its signals, as its frames would.

// C++
#include <chrono>

// Qt
#include <QTest>

// Presence
#include "app/SessionModelBridge.h"
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "session/GatewaySession.h"

using namespace Qt::StringLiterals;
using Presence::App::SessionModelBridge;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Protocol::PresenceStatus;
using Presence::Protocol::UserInfo;
using Presence::Protocol::UserPresence;
using Presence::Session::GatewaySession;

namespace {

// Long enough that the flush timer never fires while a test calls flush() by hand.
constexpr auto kManualFlush = std::chrono::hours(1);

PresenceState stateOf(const FriendListModel &model, const QString &id)
{
    const auto row = model.rowOf(id);
    return row ? model.stateAt(*row) : PresenceState::Unknown;
}

} // namespace

class TestSessionModelBridge : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shownStateFollowsTheProtocolsAvailabilityOrder();
    void feedsTheFriendList();
};

void TestSessionModelBridge::shownStateFollowsTheProtocolsAvailabilityOrder()
{
    // Models include nothing of the protocol, so the list keeps a sort rank of its own (lower
    // sorts first); through the mapping the app uses it must say what the protocol's order says
    // (kAvailabilityOrder).
    QCOMPARE(SessionModelBridge::shownState(PresenceStatus::Online), PresenceState::Online);
    QCOMPARE(SessionModelBridge::shownState(PresenceStatus::Away), PresenceState::Away);
    QCOMPARE(SessionModelBridge::shownState(PresenceStatus::Offline), PresenceState::Offline);
    for (const PresenceStatus a : Presence::Protocol::kAvailabilityOrder) {
        for (const PresenceStatus b : Presence::Protocol::kAvailabilityOrder) {
            const int byProtocol
                = Presence::Protocol::availability(b) - Presence::Protocol::availability(a);
            const int byList = Presence::Models::availabilityRank(SessionModelBridge::shownState(a))
                - Presence::Models::availabilityRank(SessionModelBridge::shownState(b));
            QCOMPARE((byList > 0) - (byList < 0), (byProtocol > 0) - (byProtocol < 0));
        }
    }
    // Unknown (never heard of) sorts beside offline.
    QCOMPARE(Presence::Models::availabilityRank(PresenceState::Unknown),
        Presence::Models::availabilityRank(PresenceState::Offline));
}

void TestSessionModelBridge::feedsTheFriendList()
{
    GatewaySession session;
    FriendListModel model;
    model.setFlushInterval(kManualFlush);
    SessionModelBridge bridge(&session, &model);

    Q_EMIT session.friendsLoaded({ UserInfo { u"a"_s, u"Ann"_s }, UserInfo { u"b"_s, u"Ben"_s },
        UserInfo { u"c"_s, u"Cid"_s } });
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(
        model.index(*model.rowOf(u"b"_s)).data(FriendListModel::NameRole).toString(), u"Ben"_s);

    // Exact pushes, with when an offline friend was last seen.
    Q_EMIT session.presenceReceived({ UserPresence { u"a"_s, PresenceStatus::Online, 1, {} },
        UserPresence { u"b"_s, PresenceStatus::Offline, 2, 1'700'000'000'000 } });
    model.flush();
    QCOMPARE(stateOf(model, u"a"_s), PresenceState::Online);
    QCOMPARE(stateOf(model, u"b"_s), PresenceState::Offline);
    QCOMPARE(model.index(*model.rowOf(u"b"_s)).data(FriendListModel::LastSeenRole).toLongLong(),
        1'700'000'000'000);
    QCOMPARE(stateOf(model, u"c"_s), PresenceState::Unknown);

    // The coarse availability set covers the rest.
    Q_EMIT session.availabilityReceived({ { u"c"_s, PresenceStatus::Away } }, false);
    model.flush();
    QCOMPARE(stateOf(model, u"c"_s), PresenceState::Away);

    // No live connection: nobody's presence is known any more.
    Q_EMIT session.presenceLost();
    model.flush();
    for (const QString &id : { u"a"_s, u"b"_s, u"c"_s })
        QCOMPARE(stateOf(model, id), PresenceState::Unknown);
}

QTEST_GUILESS_MAIN(TestSessionModelBridge)
#include "tst_session_model_bridge.moc"
