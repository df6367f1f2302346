// AccessibleConversationProxy over a real ConversationListModel: each row's
// Qt::AccessibleTextRole is the delegate's words for the chat, by the delegate's clock, and
// follows the model as chats move and counts change; every other role is the model's.
// Qt
#include <QAbstractItemModelTester>
#include <QListView>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/ConversationListModel.h"
#include "ui/AccessibleConversationProxy.h"
#include "ui/ConversationDelegate.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ConversationListModel;
using Presence::Ui::AccessibleConversationProxy;
using Presence::Ui::ConversationDelegate;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

ChatMessageRecord message(const QString &id, const QString &from, const QString &text, int hour)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = QDateTime(kNow.date(), QTime(hour, 0), QTimeZone::utc()).toMSecsSinceEpoch();
    return record;
}

} // namespace

class TestAccessibleConversationProxy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsSayTheDelegatesWordsAsTheListChanges();
};

void TestAccessibleConversationProxy::rowsSayTheDelegatesWordsAsTheListChanges()
{
    ConversationListModel model;
    model.setSelfId(u"me"_s);
    model.setConversations({ { u"bob"_s, message(u"1"_s, u"me"_s, u"see you"_s, 9), 0 },
        { u"dave"_s, message(u"2"_s, u"dave"_s, u"hello"_s, 10), 2 } });
    QListView view;
    ConversationDelegate delegate(&view);
    delegate.setNowFunction([] { return kNow; });
    AccessibleConversationProxy proxy(&delegate);
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
    model.noteMessage(u"bob"_s, message(u"3"_s, u"bob"_s, u"again"_s, 11));
    model.setUnread(u"bob"_s, 1);
    QVERIFY2(spoken(0).startsWith(u"bob"_s) && spoken(0).contains(u"1 unread"_s)
            && spoken(0).contains(u"again"_s),
        qPrintable(spoken(0)));
    QCOMPARE(spoken(1), ConversationDelegate::accessibleText(model.index(1), kNow));
    QVERIFY(proxy.data({}, Qt::AccessibleTextRole).isNull());
}

QTEST_MAIN(TestAccessibleConversationProxy)
#include "tst_accessible_conversation_proxy.moc"
