// ChatRowContext over a real ChatModel, without a view: where a day starts (in the time zone
// of "now"), where the "New messages" divider goes, which rows group with their neighbours
// (sender, day, at most kGroupGap apart, no divider between) and which show their time. The
// delegate's test (tst_chat_message_delegate) checks how these are painted.
// Qt
#include <QLocale>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/ChatModel.h"
#include "ui/chat/ChatRowContext.h"

using namespace Qt::StringLiterals;
using Presence::Models::ChatMessageRecord;
using Presence::Models::ChatModel;
using Presence::Models::Delivery;
using Presence::Ui::ChatRowContext;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

// A conversation of me with Ada; messages are added by their UTC time.
struct Conversation {
    ChatModel model { u"me"_s, u"ada"_s };
    int next = 0;

    QString add(const QString &from, const QDateTime &at)
    {
        ChatMessageRecord record;
        record.id = u"m%1"_s.arg(++next);
        record.from = from;
        record.text = u"text"_s;
        record.ts = at.toMSecsSinceEpoch();
        model.appendDelivered(record);
        return record.id;
    }
    [[nodiscard]] ChatRowContext at(
        int row, const QDateTime &now = kNow, const QString &firstUnread = {}) const
    {
        return ChatRowContext::of(model.index(row), now, firstUnread);
    }
};

QDateTime utc(int day, int hour, int minute)
{
    return QDateTime(QDate(2024, 3, day), QTime(hour, minute), QTimeZone::utc());
}

} // namespace

class TestChatRowContext : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void daysStartInTheTimeZoneOfNow();
    void groups_data();
    void groups();
    void theUnreadDividerBreaksAGroup();
    void theTimeShowsUnderAGroupsLastRowAndUnderEveryPendingOne();
    void ownMessagesInFlightGroupDespiteTheirLocalClock();
    void dayText();
    void anInvalidIndexHasNoContext();
};

void TestChatRowContext::daysStartInTheTimeZoneOfNow()
{
    Conversation c;
    c.add(u"ada"_s, utc(19, 23, 59));
    c.add(u"ada"_s, utc(20, 0, 1));
    QCOMPARE(c.at(0).dayStarts, QDate(2024, 3, 19));
    QCOMPARE(c.at(1).dayStarts, QDate(2024, 3, 20)); // midnight UTC
    QVERIFY(!c.at(0).joinsNext); // two minutes apart, but on two days
    QVERIFY(!c.at(1).joinsPrevious);

    // Two hours east of UTC both fall on the 20th, at 01:59 and 02:01: one day, one group.
    const QDateTime eastNow = kNow.toTimeZone(QTimeZone(2 * 3600));
    QCOMPARE(c.at(0, eastNow).dayStarts, QDate(2024, 3, 20));
    QCOMPARE(c.at(1, eastNow).dayStarts, std::nullopt);
    QVERIFY(c.at(0, eastNow).joinsNext);
    QVERIFY(c.at(1, eastNow).joinsPrevious);
}

void TestChatRowContext::groups_data()
{
    QTest::addColumn<QString>("secondFrom");
    QTest::addColumn<int>("secondsApart");
    QTest::addColumn<bool>("grouped");
    QTest::newRow("same sender, a minute apart") << u"ada"_s << 60 << true;
    QTest::newRow("same sender, exactly the gap") << u"ada"_s << 300 << true;
    QTest::newRow("same sender, a second past the gap") << u"ada"_s << 301 << false;
    QTest::newRow("the other sender, a minute apart") << u"me"_s << 60 << false;
}

void TestChatRowContext::groups()
{
    QFETCH(QString, secondFrom);
    QFETCH(int, secondsApart);
    QFETCH(bool, grouped);
    Conversation c;
    c.add(u"ada"_s, utc(20, 10, 0));
    c.add(secondFrom, utc(20, 10, 0).addSecs(secondsApart));
    QCOMPARE(c.at(0).joinsNext, grouped);
    QCOMPARE(c.at(1).joinsPrevious, grouped);
    QVERIFY(!c.at(0).joinsPrevious);
    QVERIFY(!c.at(1).joinsNext);
    QCOMPARE(c.at(1).dayStarts, std::nullopt); // the same day either way
}

void TestChatRowContext::theUnreadDividerBreaksAGroup()
{
    Conversation c;
    c.add(u"ada"_s, utc(20, 10, 0));
    const QString firstUnread = c.add(u"ada"_s, utc(20, 10, 1));
    c.add(u"ada"_s, utc(20, 10, 2));
    QVERIFY(c.at(0).joinsNext); // without a divider, one group of three
    const ChatRowContext first = c.at(0, kNow, firstUnread);
    const ChatRowContext divided = c.at(1, kNow, firstUnread);
    const ChatRowContext after = c.at(2, kNow, firstUnread);
    QVERIFY(!first.unreadDivider);
    QVERIFY(!first.joinsNext);
    QVERIFY(first.showsMeta); // it ends its group now
    QVERIFY(divided.unreadDivider);
    QVERIFY(!divided.joinsPrevious);
    QVERIFY(divided.joinsNext);
    QVERIFY(!after.unreadDivider);
    QVERIFY(after.joinsPrevious);
}

void TestChatRowContext::theTimeShowsUnderAGroupsLastRowAndUnderEveryPendingOne()
{
    Conversation c;
    c.add(u"me"_s, utc(20, 11, 0));
    c.add(u"me"_s, utc(20, 11, 1));
    c.model.appendOwn(
        u"k1"_s, u"on its way"_s, utc(20, 11, 2).toMSecsSinceEpoch(), Delivery::Sending);
    c.model.appendOwn(u"k2"_s, u"queued"_s, utc(20, 11, 3).toMSecsSinceEpoch(), Delivery::Queued);
    QCOMPARE(c.model.rowCount(), 4);
    QVERIFY(!c.at(0).showsMeta); // delivered, and the group goes on
    QVERIFY(!c.at(1).showsMeta);
    QVERIFY(c.at(2).showsMeta); // pending: its state must show, though the group goes on
    QVERIFY(c.at(2).joinsNext);
    QVERIFY(c.at(3).showsMeta); // the last of the group
    QVERIFY(c.at(3).joinsPrevious);
}

void TestChatRowContext::ownMessagesInFlightGroupDespiteTheirLocalClock()
{
    // A message of ours not acknowledged yet carries this machine's clock, which may run a
    // little behind the gateway's: it still joins the group it follows.
    Conversation c;
    c.add(u"me"_s, utc(20, 11, 0));
    c.model.appendOwn(
        u"k1"_s, u"late clock"_s, utc(20, 10, 58).toMSecsSinceEpoch(), Delivery::Sending);
    QVERIFY(c.at(0).joinsNext);
    QVERIFY(c.at(1).joinsPrevious);
    c.model.appendOwn(
        u"k2"_s, u"far too late"_s, utc(20, 10, 50).toMSecsSinceEpoch(), Delivery::Sending);
    QVERIFY(!c.at(2).joinsPrevious);
}

void TestChatRowContext::dayText()
{
    const QLocale saved;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
    const QDate today(2024, 3, 20);
    QCOMPARE(ChatRowContext::dayText(today, today), u"Today"_s);
    QCOMPARE(ChatRowContext::dayText(today.addDays(-1), today), u"Yesterday"_s);
    QCOMPARE(ChatRowContext::dayText(today.addDays(-2), today),
        QLocale().toString(today.addDays(-2), QLocale::LongFormat));
    QVERIFY(ChatRowContext::dayText(today.addDays(-2), today).contains(u"2024"_s));
    // A day after "today" (a clock set back) is a date, never "Tomorrow" or "Today".
    QCOMPARE(ChatRowContext::dayText(today.addDays(1), today),
        QLocale().toString(today.addDays(1), QLocale::LongFormat));
    QLocale::setDefault(saved);
}

void TestChatRowContext::anInvalidIndexHasNoContext()
{
    const ChatRowContext context = ChatRowContext::of({}, kNow, u"m1"_s);
    QCOMPARE(context.dayStarts, std::nullopt);
    QVERIFY(!context.unreadDivider);
    QVERIFY(!context.joinsPrevious);
    QVERIFY(!context.joinsNext);
    QVERIFY(context.showsMeta);
}

QTEST_GUILESS_MAIN(TestChatRowContext)
#include "tst_chat_row_context.moc"
