// AccessibleTextProxy over the real models of a chat and of the list of chats, with the words
// their panes give it: each row's Qt::AccessibleTextRole is the delegate's words for it, told
// when read, by the delegate's clock and the friend's name as they are then, and follows the
// model as rows come and move; every other role, and the rows themselves, are the model's.
// And over the friend list's sort and filter, as the friend list uses it: each row's words are
// the friend delegate's, in the proxy's order (online first) and filter, told by the delegate's
// clock once it has one, and following presence as it changes; the model itself has no such
// words.
// Qt
#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QIdentityProxyModel>
#include <QListView>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/ChatModel.h"
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "models/FriendSortFilterProxy.h"
#include "models/PresenceState.h"
#include "ui/AccessibleTextProxy.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/ConversationDelegate.h"
#include "ui/friends/FriendDelegate.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::ConversationListModel;
using Presence::Models::FriendListModel;
using Presence::Models::FriendSortFilterProxy;
using Presence::Models::PresenceState;
using Presence::Ui::ChatMessageDelegate;
using Presence::Ui::ConversationDelegate;
using Presence::Ui::FriendDelegate;

// The proxies of the chat and of the list of chats, and of the friend list.
using ChatRows = Presence::Ui::AccessibleTextProxy<QIdentityProxyModel>;
using FriendRows = Presence::Ui::AccessibleTextProxy<FriendSortFilterProxy>;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

ChatMessageRecord message(const QString &id, const QString &from, const QString &text, QTime at)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = QDateTime(kNow.date(), at, QTimeZone::utc()).toMSecsSinceEpoch();
    return record;
}

// A conversation with Ada, its delegate on a fixed clock, and the proxy over both, told the
// words as ChatPane tells them.
struct ChatFixture {
    ChatFixture()
        : model(u"me"_s, u"ada"_s)
        , delegate(&view)
        , proxy(&delegate, [this](const QModelIndex &row, const QDateTime &now) {
            return ChatMessageDelegate::accessibleText(row, name, now);
        })
    {
        delegate.setNowFunction([] { return kNow; });
        model.appendDelivered(
            message(u"m1"_s, u"ada"_s, u"Are you coming tonight?"_s, QTime(11, 5)));
        model.appendDelivered(message(u"m2"_s, u"me"_s, u"Yes, at eight."_s, QTime(11, 6)));
        proxy.setSourceModel(&model);
    }
    [[nodiscard]] QString spoken(int row) const
    {
        return proxy.index(row, 0).data(Qt::AccessibleTextRole).toString();
    }

    QString name = u"Ada Lovelace"_s;
    ChatModel model;
    QListView view;
    ChatMessageDelegate delegate;
    ChatRows proxy;
};

} // namespace

class TestAccessibleTextProxy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void chatRowsSayTheDelegatesWords();
    void theNameAndTheClockAreReadWhenSpoken();
    void everythingElseIsTheModels();
    void chatListRowsSayTheDelegatesWordsAsTheListChanges();
    void friendRowsSayTheDelegatesWordsInTheProxysOrder();
    void friendTimesAreToldByTheDelegatesClock();
};

void TestAccessibleTextProxy::chatRowsSayTheDelegatesWords()
{
    ChatFixture f;
    QCOMPARE(f.proxy.rowCount(), 2);
    QCOMPARE(f.spoken(0), u"Ada Lovelace, 11:05: Are you coming tonight?"_s);
    for (int row = 0; row < f.proxy.rowCount(); ++row) {
        QCOMPARE(
            f.spoken(row), ChatMessageDelegate::accessibleText(f.model.index(row), f.name, kNow));
    }
    // The words are the UI's: the model itself has none.
    QVERIFY(!f.model.index(0).data(Qt::AccessibleTextRole).isValid());
}

void TestAccessibleTextProxy::theNameAndTheClockAreReadWhenSpoken()
{
    ChatFixture f;
    f.name = u"Ada King"_s; // renamed while the conversation is open
    QVERIFY2(f.spoken(0).startsWith(u"Ada King, 11:05: "_s), qPrintable(f.spoken(0)));
    f.delegate.setNowFunction([] { return kNow.addDays(1); }); // the day after: a date appears
    QVERIFY2(!f.spoken(0).startsWith(u"Ada King, 11:05: "_s), qPrintable(f.spoken(0)));
    QCOMPARE(f.spoken(0),
        ChatMessageDelegate::accessibleText(f.model.index(0), f.name, kNow.addDays(1)));
}

void TestAccessibleTextProxy::everythingElseIsTheModels()
{
    ChatFixture f;
    QAbstractItemModelTester tester(
        &f.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&f.proxy, &QAbstractItemModel::rowsInserted);
    f.model.appendDelivered(message(u"m3"_s, u"ada"_s, u"Great!"_s, QTime(11, 7)));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(f.proxy.rowCount(), 3);
    for (const int role : { int(ChatModel::TextRole), int(ChatModel::IdRole),
             int(ChatModel::FromRole), int(ChatModel::OutgoingRole), int(Qt::DisplayRole) }) {
        QCOMPARE(f.proxy.index(2, 0).data(role), f.model.index(2).data(role));
    }
    QCOMPARE(f.spoken(2), u"Ada Lovelace, 11:07: Great!"_s);
    QVERIFY(f.proxy.data({}, Qt::AccessibleTextRole).isNull());
}

void TestAccessibleTextProxy::chatListRowsSayTheDelegatesWordsAsTheListChanges()
{
    ConversationListModel model;
    model.setSelfId(u"me"_s);
    model.setConversations({ { u"bob"_s, message(u"1"_s, u"me"_s, u"see you"_s, QTime(9, 0)), 0 },
        { u"dave"_s, message(u"2"_s, u"dave"_s, u"hello"_s, QTime(10, 0)), 2 } });
    QListView view;
    ConversationDelegate delegate(&view);
    delegate.setNowFunction([] { return kNow; });
    ChatRows proxy(&delegate, &ConversationDelegate::accessibleText);
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto spoken
        = [&proxy](int row) { return proxy.index(row, 0).data(Qt::AccessibleTextRole).toString(); };

    QCOMPARE(proxy.rowCount(), 2);
    for (int row = 0; row < proxy.rowCount(); ++row) {
        QCOMPARE(spoken(row), ConversationDelegate::accessibleText(model.index(row), kNow));
        QCOMPARE(proxy.index(row, 0).data(ConversationListModel::FriendIdRole),
            model.index(row).data(ConversationListModel::FriendIdRole));
    }
    QVERIFY2(spoken(0).startsWith(u"dave"_s) && spoken(0).contains(u"2 unread"_s),
        qPrintable(spoken(0)));
    QVERIFY(!model.index(0).data(Qt::AccessibleTextRole).isValid()); // the words are the UI's

    // Bob writes: his chat moves to the top and is read out with its news.
    model.noteMessage(u"bob"_s, message(u"3"_s, u"bob"_s, u"again"_s, QTime(11, 0)));
    model.setUnread(u"bob"_s, 1);
    QVERIFY2(spoken(0).startsWith(u"bob"_s) && spoken(0).contains(u"1 unread"_s)
            && spoken(0).contains(u"again"_s),
        qPrintable(spoken(0)));
    QCOMPARE(spoken(1), ConversationDelegate::accessibleText(model.index(1), kNow));
    QVERIFY(proxy.data({}, Qt::AccessibleTextRole).isNull());
}

void TestAccessibleTextProxy::friendRowsSayTheDelegatesWordsInTheProxysOrder()
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
    FriendRows proxy(nullptr, &FriendDelegate::accessibleText);
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

void TestAccessibleTextProxy::friendTimesAreToldByTheDelegatesClock()
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
    FriendRows proxy(nullptr, &FriendDelegate::accessibleText);
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

QTEST_MAIN(TestAccessibleTextProxy)
#include "tst_accessible_text_proxy.moc"
