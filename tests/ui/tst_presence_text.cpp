// PresenceText: the words for each presence against an injected "now" (last seen, in the zone of
// now), stale rows saying how old they are, and the unread count in the summary.

// C++
#include <optional>

// Qt
#include <QDateTime>
#include <QLocale>
#include <QTest>
#include <QTimeZone>

// Presence
#include "models/FriendListModel.h"
#include "models/PresenceState.h"
#include "ui/PresenceText.h"

using namespace Qt::StringLiterals;
using Presence::Models::FriendListModel;
using Presence::Models::PresenceState;
using Presence::Ui::FriendPresence;
using Presence::Ui::PresenceText;

namespace {

const QDateTime kNow(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());

} // namespace

class TestPresenceText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();

    void statusLine_data();
    void statusLine();
    void statusLineFollowsTheZoneOfNow();
    void staleRowsSayHowOld();
    void unreadInTheSummary_data();
    void unreadInTheSummary();
};

void TestPresenceText::initTestCase()
{
    // The words are English; dates in them follow the default locale.
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedKingdom));
}

void TestPresenceText::statusLine_data()
{
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<PresenceState>("state");
    QTest::addColumn<QDateTime>("lastSeen"); // invalid: none
    QTest::addColumn<QString>("expected");

    const auto at = [](int y, int m, int d, int h, int min, int s = 0) {
        return QDateTime(QDate(y, m, d), QTime(h, min, s), QTimeZone::utc());
    };
    const QDateTime none;
    const QDateTime now = at(2024, 3, 20, 12, 0);

    QTest::addRow("online") << now << PresenceState::Online << none << u"online"_s;
    QTest::addRow("online ignores last seen")
        << now << PresenceState::Online << at(2024, 3, 1, 8, 0) << u"online"_s;
    QTest::addRow("away") << now << PresenceState::Away << none << u"away"_s;
    QTest::addRow("unknown") << now << PresenceState::Unknown << none << u"status unknown"_s;
    QTest::addRow("unknown ignores last seen")
        << now << PresenceState::Unknown << at(2024, 3, 20, 11, 0) << u"status unknown"_s;
    QTest::addRow("offline, never seen") << now << PresenceState::Offline << none << u"offline"_s;

    const auto offline = [&](const char *name, const QDateTime &n, const QDateTime &seen,
                             const QString &expected) {
        QTest::addRow("%s", name) << n << PresenceState::Offline << seen << expected;
    };
    offline("0 s", now, now, u"last seen just now"_s);
    offline("59 s", now, at(2024, 3, 20, 11, 59, 1), u"last seen just now"_s);
    offline("in the future", now, at(2024, 3, 20, 12, 10), u"last seen just now"_s);
    offline("60 s", now, at(2024, 3, 20, 11, 59), u"last seen 1 min ago"_s);
    offline("5 min", now, at(2024, 3, 20, 11, 55), u"last seen 5 min ago"_s);
    offline("59 min 59 s", now, at(2024, 3, 20, 11, 0, 1), u"last seen 59 min ago"_s);
    offline("60 min", now, at(2024, 3, 20, 11, 0), u"last seen 1 h ago"_s);
    offline("3 h 59 min", now, at(2024, 3, 20, 8, 1), u"last seen 3 h ago"_s);
    offline("11 h 30 min, same day", now, at(2024, 3, 20, 0, 30), u"last seen 11 h ago"_s);
    offline(
        "23 h, same day", at(2024, 3, 20, 23, 30), at(2024, 3, 20, 0, 10), u"last seen 23 h ago"_s);
    offline("6 h across midnight", at(2024, 3, 20, 2, 0), at(2024, 3, 19, 20, 0),
        u"last seen 6 h ago"_s);
    offline("13 h across midnight", now, at(2024, 3, 19, 23, 0), u"last seen yesterday"_s);
    offline("start of yesterday", now, at(2024, 3, 19, 0, 5), u"last seen yesterday"_s);
    offline("end of the day before", now, at(2024, 3, 18, 23, 59), u"last seen 18 Mar"_s);
    offline("this year", now, at(2024, 3, 12, 9, 0), u"last seen 12 Mar"_s);
    offline("new year's day", now, at(2024, 1, 1, 0, 0), u"last seen 1 Jan"_s);
    offline(
        "last year", at(2024, 1, 2, 12, 0), at(2023, 12, 25, 18, 0), u"last seen 25 Dec 2023"_s);
}

void TestPresenceText::statusLine()
{
    QFETCH(QDateTime, now);
    QFETCH(PresenceState, state);
    QFETCH(QDateTime, lastSeen);
    QFETCH(QString, expected);

    const std::optional<qint64> seen
        = lastSeen.isValid() ? std::optional(lastSeen.toMSecsSinceEpoch()) : std::nullopt;
    QCOMPARE(PresenceText::statusLine(state, seen, now), expected);
    FriendPresence presence { u"x"_s, u"Xavier"_s, state, seen, true };
    QCOMPARE(PresenceText::statusLine(presence, now), expected);
    QCOMPARE(PresenceText::summary(presence, now), u"Xavier (@x) — "_s + expected);
}

void TestPresenceText::staleRowsSayHowOld()
{
    // No longer watched nor covered: never "online" as if it were now.
    const qint64 now = kNow.toMSecsSinceEpoch();
    const auto stale = [&](PresenceState state, std::optional<qint64> since,
                           std::optional<qint64> seen = std::nullopt) {
        FriendPresence presence { u"x"_s, u"Xavier"_s, state, seen, false };
        presence.staleSince = since;
        return PresenceText::statusLine(presence, kNow);
    };
    QCOMPARE(stale(PresenceState::Online, now - 3 * 60'000), u"online 3 min ago"_s);
    QCOMPARE(stale(PresenceState::Online, now - 10'000), u"online moments ago"_s);
    QCOMPARE(stale(PresenceState::Away, now - 2 * 3'600'000 - 5), u"away 2 h ago"_s);
    QCOMPARE(stale(PresenceState::Online, std::nullopt), u"status unknown"_s);
    // An offline row's last-seen time stays true after it stops being watched.
    QCOMPARE(stale(PresenceState::Offline, now, now - 5 * 60'000), u"last seen 5 min ago"_s);

    // The model says since when, from the moment the row stopped being live.
    FriendListModel model;
    model.setFriends({ { u"x"_s, u"Xavier"_s } });
    model.updatePresence(u"x"_s, PresenceState::Online, std::nullopt);
    QVERIFY(!model.index(0).data(FriendListModel::StaleSinceRole).isValid());
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    model.markStale({ u"x"_s });
    const qint64 since = model.index(0).data(FriendListModel::StaleSinceRole).toLongLong();
    QVERIFY(since >= before && since <= QDateTime::currentMSecsSinceEpoch());
    QCOMPARE(FriendPresence::fromIndex(model.index(0)).staleSince, std::optional(since));
    model.updatePresence(u"x"_s, PresenceState::Online, std::nullopt);
    QVERIFY(!model.index(0).data(FriendListModel::StaleSinceRole).isValid());
}

void TestPresenceText::statusLineFollowsTheZoneOfNow()
{
    // The calendar words use the zone of now. 16 h before now: the same day in UTC, the
    // day before at UTC+10.
    const QDateTime nowUtc(QDate(2024, 3, 19), QTime(22, 0), QTimeZone::utc());
    const qint64 seen
        = QDateTime(QDate(2024, 3, 19), QTime(6, 0), QTimeZone::utc()).toMSecsSinceEpoch();
    QCOMPARE(PresenceText::lastSeen(seen, nowUtc), u"last seen 16 h ago"_s);
    const QDateTime nowPlus10 = nowUtc.toTimeZone(QTimeZone(10 * 3600));
    QCOMPARE(nowPlus10.date(), QDate(2024, 3, 20));
    QCOMPARE(PresenceText::lastSeen(seen, nowPlus10), u"last seen yesterday"_s);

    // 22 h 30 min before now: the day before in UTC, the same day at UTC+10.
    const QDateTime laterUtc(QDate(2024, 3, 20), QTime(13, 0), QTimeZone::utc());
    const qint64 earlier
        = QDateTime(QDate(2024, 3, 19), QTime(14, 30), QTimeZone::utc()).toMSecsSinceEpoch();
    QCOMPARE(PresenceText::lastSeen(earlier, laterUtc), u"last seen yesterday"_s);
    QCOMPARE(PresenceText::lastSeen(earlier, laterUtc.toTimeZone(QTimeZone(10 * 3600))),
        u"last seen 22 h ago"_s);
}

void TestPresenceText::unreadInTheSummary_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("unread");
    QTest::addColumn<QString>("expected");
    const QString xavier = u"Xavier"_s;
    QTest::newRow("none") << xavier << 0 << u"Xavier (@x) — online"_s;
    QTest::newRow("one") << xavier << 1 << u"Xavier (@x) — online, 1 unread message"_s;
    QTest::newRow("two") << xavier << 2 << u"Xavier (@x) — online, 2 unread messages"_s;
    // The words give the real count, not the badge's "99+".
    QTest::newRow("150") << xavier << 150 << u"Xavier (@x) — online, 150 unread messages"_s;
    // A name is the user's to choose: one that reads like a placeholder stays itself.
    QTest::newRow("%2 in the name")
        << u"Xavier %2"_s << 3 << u"Xavier %2 (@x) — online, 3 unread messages"_s;
}

void TestPresenceText::unreadInTheSummary()
{
    QFETCH(QString, name);
    QFETCH(int, unread);
    QFETCH(QString, expected);
    FriendPresence presence { u"x"_s, name, PresenceState::Online, std::nullopt, true };
    presence.unread = unread;
    QCOMPARE(PresenceText::summary(presence, kNow), expected);
}

QTEST_GUILESS_MAIN(TestPresenceText)
#include "tst_presence_text.moc"
