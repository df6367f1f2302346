// PresenceRules, pure: devices to a status, and what to publish when, for every status, change
// and cause.

// Qt
#include <QTest>

// Presence
#include "protocol/PresenceStatus.h"
#include "server-mock/presence/PresenceRules.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using Presence::Protocol::ChosenStatus;
using Presence::Protocol::PresenceStatus;

namespace {

QString nameOf(Publication publication)
{
    switch (publication) {
    case Publication::Nothing:
        return u"Nothing"_s;
    case Publication::Now:
        return u"Now"_s;
    case Publication::AfterGrace:
        return u"AfterGrace"_s;
    }
    return u"?"_s;
}

QString nameOf(ChangeCause cause)
{
    switch (cause) {
    case ChangeCause::StatusChosen:
        return u"StatusChosen"_s;
    case ChangeCause::DeviceJoined:
        return u"DeviceJoined"_s;
    case ChangeCause::DeviceLeft:
        return u"DeviceLeft"_s;
    case ChangeCause::GraceExpired:
        return u"GraceExpired"_s;
    }
    return u"?"_s;
}

} // namespace

class TestPresenceRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aggregate_data();
    void aggregate();
    void tallyVisible();
    void decide_data();
    void decide();
};

void TestPresenceRules::aggregate_data()
{
    QTest::addColumn<int>("online");
    QTest::addColumn<int>("away");
    QTest::addColumn<int>("invisible");
    QTest::addColumn<QString>("expected");

    QTest::addRow("no devices") << 0 << 0 << 0 << u"offline"_s;
    QTest::addRow("one invisible") << 0 << 0 << 1 << u"offline"_s;
    QTest::addRow("many invisible") << 0 << 0 << 3 << u"offline"_s;
    QTest::addRow("one online") << 1 << 0 << 0 << u"online"_s;
    QTest::addRow("one away") << 0 << 1 << 0 << u"away"_s;
    QTest::addRow("online beats away") << 1 << 2 << 0 << u"online"_s;
    QTest::addRow("online beats invisible") << 1 << 0 << 2 << u"online"_s;
    QTest::addRow("all three") << 2 << 1 << 1 << u"online"_s;
    QTest::addRow("away beats invisible") << 0 << 2 << 3 << u"away"_s;
}

void TestPresenceRules::aggregate()
{
    QFETCH(int, online);
    QFETCH(int, away);
    QFETCH(int, invisible);
    QFETCH(QString, expected);

    // Built through add() as the store does, so the tally bookkeeping is covered as well.
    DeviceTally tally;
    for (int i = 0; i < online; ++i)
        tally.add(ChosenStatus::Online, +1);
    for (int i = 0; i < away; ++i)
        tally.add(ChosenStatus::Away, +1);
    for (int i = 0; i < invisible; ++i)
        tally.add(ChosenStatus::Invisible, +1);
    QCOMPARE(tally.online, online);
    QCOMPARE(tally.away, away);
    QCOMPARE(tally.invisible, invisible);
    QCOMPARE(Presence::Protocol::toString(Presence::Server::aggregate(tally)), expected);
    QCOMPARE(tally.visible(), online + away > 0);
}

void TestPresenceRules::tallyVisible()
{
    DeviceTally tally;
    tally.add(ChosenStatus::Invisible, +1);
    QVERIFY(!tally.visible());
    tally.add(ChosenStatus::Away, +1);
    QVERIFY(tally.visible());
    tally.add(ChosenStatus::Away, -1);
    QVERIFY(!tally.visible());
    tally.add(ChosenStatus::Online, +1);
    QVERIFY(tally.visible());
    tally.add(ChosenStatus::Online, -1);
    tally.add(ChosenStatus::Invisible, -1);
    QCOMPARE(tally.online, 0);
    QCOMPARE(tally.away, 0);
    QCOMPARE(tally.invisible, 0);
}

void TestPresenceRules::decide_data()
{
    QTest::addColumn<PresenceStatus>("published");
    QTest::addColumn<PresenceStatus>("current");
    QTest::addColumn<ChangeCause>("cause");
    QTest::addColumn<Publication>("expected");

    const PresenceStatus statuses[]
        = { PresenceStatus::Online, PresenceStatus::Away, PresenceStatus::Offline };
    const ChangeCause causes[] = { ChangeCause::StatusChosen, ChangeCause::DeviceJoined,
        ChangeCause::DeviceLeft, ChangeCause::GraceExpired };
    // Every combination, the expectation spelled out from the protocol's presence semantics.
    for (const PresenceStatus published : statuses) {
        for (const PresenceStatus current : statuses) {
            for (const ChangeCause cause : causes) {
                Publication expected = Publication::Now;
                // Branches with the same outcome stay apart: each has its own reason.
                // NOLINTBEGIN(bugprone-branch-clone)
                if (current == published)
                    expected = Publication::Nothing; // nothing visible changed
                else if (cause == ChangeCause::GraceExpired)
                    expected = Publication::Now; // the grace is over: say what is true now
                else if (current == PresenceStatus::Online)
                    expected = Publication::Now; // more available: at once
                else if (current == PresenceStatus::Away && published == PresenceStatus::Offline)
                    expected = Publication::Now; // more available: at once
                else if (current == PresenceStatus::Offline)
                    expected = Publication::AfterGrace; // leaving or invisible: after grace
                else if (cause == ChangeCause::DeviceLeft)
                    expected = Publication::AfterGrace; // online -> away because a device left
                else
                    expected = Publication::Now; // online -> away chosen
                // NOLINTEND(bugprone-branch-clone)
                QTest::addRow("%s->%s by %s", qPrintable(Presence::Protocol::toString(published)),
                    qPrintable(Presence::Protocol::toString(current)), qPrintable(nameOf(cause)))
                    << published << current << cause << expected;
            }
        }
    }
}

void TestPresenceRules::decide()
{
    QFETCH(PresenceStatus, published);
    QFETCH(PresenceStatus, current);
    QFETCH(ChangeCause, cause);
    QFETCH(Publication, expected);

    QCOMPARE(nameOf(Presence::Server::decide(published, current, cause)), nameOf(expected));
}

QTEST_GUILESS_MAIN(TestPresenceRules)
#include "tst_presence_rules.moc"
