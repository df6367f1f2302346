// AccessibleChatProxy over a real ChatModel: each row's Qt::AccessibleTextRole is the delegate's
// words for it, by the friend's name as it is when read and by the delegate's clock; every
// other role, and the rows themselves, are the model's.
// Qt
#include <QAbstractItemModelTester>
#include <QListView>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/ChatModel.h"
#include "ui/AccessibleChatProxy.h"
#include "ui/ChatMessageDelegate.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Ui::AccessibleChatProxy;
using Presence::Ui::ChatMessageDelegate;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

ChatMessageRecord message(const QString &id, const QString &from, const QString &text, int minute)
{
    ChatMessageRecord record;
    record.id = id;
    record.from = from;
    record.text = text;
    record.ts = QDateTime(kNow.date(), QTime(11, minute), QTimeZone::utc()).toMSecsSinceEpoch();
    return record;
}

// A conversation with Ada, its delegate on a fixed clock, and the proxy over both.
struct Fixture {
    Fixture()
        : model(u"me"_s, u"ada"_s)
        , delegate(&view)
        , proxy(&delegate, [this] { return name; })
    {
        delegate.setNowFunction([] { return kNow; });
        model.appendDelivered(message(u"m1"_s, u"ada"_s, u"Are you coming tonight?"_s, 5));
        model.appendDelivered(message(u"m2"_s, u"me"_s, u"Yes, at eight."_s, 6));
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
    AccessibleChatProxy proxy;
};

} // namespace

class TestAccessibleChatProxy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rowsSayTheDelegatesWords();
    void theNameAndTheClockAreReadWhenSpoken();
    void everythingElseIsTheModels();
};

void TestAccessibleChatProxy::rowsSayTheDelegatesWords()
{
    Fixture f;
    QCOMPARE(f.proxy.rowCount(), 2);
    QCOMPARE(f.spoken(0), u"Ada Lovelace, 11:05: Are you coming tonight?"_s);
    for (int row = 0; row < f.proxy.rowCount(); ++row) {
        QCOMPARE(
            f.spoken(row), ChatMessageDelegate::accessibleText(f.model.index(row), f.name, kNow));
    }
    // The words are the UI's: the model itself has none.
    QVERIFY(!f.model.index(0).data(Qt::AccessibleTextRole).isValid());
}

void TestAccessibleChatProxy::theNameAndTheClockAreReadWhenSpoken()
{
    Fixture f;
    f.name = u"Ada King"_s; // renamed while the conversation is open
    QVERIFY2(f.spoken(0).startsWith(u"Ada King, 11:05: "_s), qPrintable(f.spoken(0)));
    f.delegate.setNowFunction([] { return kNow.addDays(1); }); // the day after: a date appears
    QVERIFY2(!f.spoken(0).startsWith(u"Ada King, 11:05: "_s), qPrintable(f.spoken(0)));
    QCOMPARE(f.spoken(0),
        ChatMessageDelegate::accessibleText(f.model.index(0), f.name, kNow.addDays(1)));
}

void TestAccessibleChatProxy::everythingElseIsTheModels()
{
    Fixture f;
    QAbstractItemModelTester tester(
        &f.proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&f.proxy, &QAbstractItemModel::rowsInserted);
    f.model.appendDelivered(message(u"m3"_s, u"ada"_s, u"Great!"_s, 7));
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(f.proxy.rowCount(), 3);
    for (const int role : { int(ChatModel::TextRole), int(ChatModel::IdRole),
             int(ChatModel::FromRole), int(ChatModel::OutgoingRole), int(Qt::DisplayRole) }) {
        QCOMPARE(f.proxy.index(2, 0).data(role), f.model.index(2).data(role));
    }
    QCOMPARE(f.spoken(2), u"Ada Lovelace, 11:07: Great!"_s);
    QVERIFY(f.proxy.data({}, Qt::AccessibleTextRole).isNull());
}

QTEST_MAIN(TestAccessibleChatProxy)
#include "tst_accessible_chat_proxy.moc"
