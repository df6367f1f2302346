// AccessibleFriendProxy over a real FriendListModel: each row's Qt::AccessibleTextRole is the
// friend delegate's words for it, in the proxy's order (online first) and filter, told by the
// delegate's clock once it has one, and following presence as it changes; the model itself
// has no such words.
// Qt
#include <QDateTime>
#include <QListView>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "ui/friends/AccessibleFriendProxy.h"
#include "ui/friends/FriendDelegate.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Ui::AccessibleFriendProxy;
using Presence::Ui::FriendDelegate;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

} // namespace

class TestAccessibleFriendProxy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsSayTheDelegatesWordsInTheProxysOrder();
    void timesAreToldByTheDelegatesClock();
};

void TestAccessibleFriendProxy::rowsSayTheDelegatesWordsInTheProxysOrder()
{
    FriendListModel model;
    model.setFriends({ { u"ada"_s, u"Ada"_s }, { u"bob"_s, u"Bob"_s }, { u"cy"_s, u"Cy"_s } });
    model.updatePresence(u"cy"_s, PresenceState::Online, std::nullopt);
    model.updatePresence(u"ada"_s, PresenceState::Offline, std::nullopt);
    model.updatePresence(u"bob"_s, PresenceState::Away, std::nullopt);
    model.flush();
    QListView view;
    FriendDelegate delegate(&view);
    delegate.setNowFunction([] { return kNow; });
    AccessibleFriendProxy proxy;
    proxy.setClock(&delegate);
    proxy.setSourceModel(&model);
    proxy.applyPendingMoves();
    const auto spoken
        = [&proxy](int row) { return proxy.index(row, 0).data(Qt::AccessibleTextRole).toString(); };

    QCOMPARE(proxy.rowCount(), 3);
    for (int row = 0; row < proxy.rowCount(); ++row) {
        QCOMPARE(spoken(row),
            FriendDelegate::accessibleText(proxy.mapToSource(proxy.index(row, 0)), kNow));
    }
    // Online first, then away, then offline: the words follow the rows.
    QVERIFY2(spoken(0).startsWith(u"Cy (@cy)"_s), qPrintable(spoken(0)));
    QVERIFY2(spoken(1).startsWith(u"Bob (@bob)"_s), qPrintable(spoken(1)));
    QVERIFY2(spoken(2).startsWith(u"Ada (@ada)"_s), qPrintable(spoken(2)));
    QVERIFY(!model.index(0).data(Qt::AccessibleTextRole).isValid()); // the words are the UI's

    // A search leaves only Bob, read out as before.
    proxy.setSearchText(u"bob"_s);
    QCOMPARE(proxy.rowCount(), 1);
    QVERIFY2(spoken(0).startsWith(u"Bob (@bob)"_s), qPrintable(spoken(0)));
    // Unread messages are read out too.
    model.setUnreadCount(u"bob"_s, 2);
    QVERIFY2(spoken(0).endsWith(u"2 unread messages"_s), qPrintable(spoken(0)));
    QVERIFY(proxy.data({}, Qt::AccessibleTextRole).isNull());
}

void TestAccessibleFriendProxy::timesAreToldByTheDelegatesClock()
{
    // Seen 5 minutes before the delegate's "now", which is years from the system's: the
    // spoken words must match what the row paints, so they read the delegate's clock.
    FriendListModel model;
    model.setFriends({ { u"ada"_s, u"Ada"_s } });
    model.updatePresence(
        u"ada"_s, PresenceState::Offline, kNow.addSecs(-5 * 60).toMSecsSinceEpoch());
    model.flush();
    QListView view;
    FriendDelegate delegate(&view);
    delegate.setNowFunction([] { return kNow; });
    AccessibleFriendProxy proxy;
    proxy.setSourceModel(&model);
    const QModelIndex row = proxy.index(0, 0);

    proxy.setClock(&delegate);
    const QString byTheDelegate = row.data(Qt::AccessibleTextRole).toString();
    QCOMPARE(byTheDelegate, FriendDelegate::accessibleText(model.index(0), kNow));
    QVERIFY(byTheDelegate
        != FriendDelegate::accessibleText(model.index(0), QDateTime::currentDateTime()));
    delegate.setNowFunction([] { return kNow.addSecs(55 * 60); }); // an hour after she left
    QCOMPARE(row.data(Qt::AccessibleTextRole).toString(),
        FriendDelegate::accessibleText(model.index(0), kNow.addSecs(55 * 60)));
    QVERIFY(row.data(Qt::AccessibleTextRole).toString() != byTheDelegate);

    // Without a clock it is the system's.
    proxy.setClock(nullptr);
    QCOMPARE(row.data(Qt::AccessibleTextRole).toString(),
        FriendDelegate::accessibleText(model.index(0), QDateTime::currentDateTime()));
}

QTEST_MAIN(TestAccessibleFriendProxy)
#include "tst_accessible_friend_proxy.moc"
