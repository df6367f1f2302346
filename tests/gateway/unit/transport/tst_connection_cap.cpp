// ConnectionCap: connections counted in total and per source address, places given back by
// their tickets, IPv4 in either spelling one address and IPv6 counted by its /64.

// C++
#include <utility>
#include <vector>

// Qt
#include <QHostAddress>
#include <QTest>

// Presence
#include "server-mock/transport/ConnectionCap.h"

using namespace Qt::StringLiterals;
using Presence::Server::ConnectionCap;
using Verdict = ConnectionCap::Verdict;

namespace {

const QHostAddress kFirst(u"127.0.0.1"_s);
const QHostAddress kSecond(u"127.0.0.2"_s);

} // namespace

class TestConnectionCap : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void noLimitsAdmitsAndCounts();
    void totalCapRefusesPastItAndReopens();
    void perAddressCapLeavesOtherAddressesAlone();
    void bothCapsTheTotalFirst();
    void movedTicketsGiveThePlaceBackOnce();
    void addressKeys_data();
    void addressKeys();
};

void TestConnectionCap::noLimitsAdmitsAndCounts()
{
    ConnectionCap cap;
    QVERIFY(!cap.capsAddresses());
    std::vector<ConnectionCap::Ticket> held;
    for (int i = 0; i < 1000; ++i) {
        ConnectionCap::Admission admission = cap.admit(kFirst);
        QCOMPARE(admission.verdict, Verdict::Admitted);
        QVERIFY(admission.ticket.isHeld());
        held.push_back(std::move(admission.ticket));
    }
    QCOMPARE(cap.count(), 1000);
    held.clear();
    QCOMPARE(cap.count(), 0);
}

void TestConnectionCap::totalCapRefusesPastItAndReopens()
{
    ConnectionCap cap({ 3, 0 });
    std::vector<ConnectionCap::Ticket> held;
    for (const QHostAddress &peer : { kFirst, kSecond, kFirst })
        held.push_back(cap.admit(peer).ticket);
    QCOMPARE(cap.count(), 3);
    ConnectionCap::Admission refused = cap.admit(kSecond);
    QCOMPARE(refused.verdict, Verdict::Full);
    QVERIFY(!refused.ticket.isHeld());
    QCOMPARE(cap.count(), 3); // a refusal takes no place

    held.front().release();
    QCOMPARE(cap.count(), 2);
    ConnectionCap::Admission again = cap.admit(kSecond);
    QCOMPARE(again.verdict, Verdict::Admitted);
    QCOMPARE(cap.count(), 3);
}

void TestConnectionCap::perAddressCapLeavesOtherAddressesAlone()
{
    ConnectionCap cap({ 0, 2 });
    QVERIFY(cap.capsAddresses());
    ConnectionCap::Ticket a = cap.admit(kFirst).ticket;
    ConnectionCap::Ticket b = cap.admit(kFirst).ticket;
    QVERIFY(a.isHeld() && b.isHeld());
    QCOMPARE(cap.admit(kFirst).verdict, Verdict::AddressFull);
    QCOMPARE(cap.countFrom(kFirst), 2);

    ConnectionCap::Admission other = cap.admit(kSecond);
    QCOMPARE(other.verdict, Verdict::Admitted);
    QCOMPARE(cap.countFrom(kSecond), 1);
    QCOMPARE(cap.count(), 3);

    b.release();
    QCOMPARE(cap.countFrom(kFirst), 1);
    QCOMPARE(cap.admit(kFirst).verdict, Verdict::Admitted); // and released at once
    a.release();
    other.ticket.release();
    QCOMPARE(cap.count(), 0);
    QCOMPARE(cap.countFrom(kFirst), 0);
    QCOMPARE(cap.countFrom(kSecond), 0);
}

void TestConnectionCap::bothCapsTheTotalFirst()
{
    ConnectionCap cap({ 2, 1 });
    ConnectionCap::Ticket a = cap.admit(kFirst).ticket;
    QCOMPARE(cap.admit(kFirst).verdict, Verdict::AddressFull);
    ConnectionCap::Ticket b = cap.admit(kSecond).ticket;
    QVERIFY(b.isHeld());
    // Full for everyone now, whatever the address.
    QCOMPARE(cap.admit(QHostAddress(u"127.0.0.3"_s)).verdict, Verdict::Full);
    QCOMPARE(cap.admit(kFirst).verdict, Verdict::Full);
    QCOMPARE(cap.countFrom(QHostAddress(u"127.0.0.3"_s)), 0);
}

void TestConnectionCap::movedTicketsGiveThePlaceBackOnce()
{
    ConnectionCap cap({ 0, 5 });
    ConnectionCap::Ticket first = cap.admit(kFirst).ticket;
    ConnectionCap::Ticket moved = std::move(first);
    QVERIFY(!first.isHeld()); // NOLINT(bugprone-use-after-move): the moved-from state is the point
    QVERIFY(moved.isHeld());
    QCOMPARE(cap.count(), 1);
    {
        ConnectionCap::Ticket second = cap.admit(kSecond).ticket;
        moved = std::move(second); // gives moved's own place back, takes second's
        QCOMPARE(cap.count(), 1);
        QCOMPARE(cap.countFrom(kFirst), 0);
        QCOMPARE(cap.countFrom(kSecond), 1);
    }
    QCOMPARE(cap.count(), 1); // second was moved from: its end releases nothing
    moved.release();
    moved.release();
    QCOMPARE(cap.count(), 0);
    QCOMPARE(cap.countFrom(kSecond), 0);
}

void TestConnectionCap::addressKeys_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::addRow("IPv4 and its mapped IPv6 spelling")
        << u"192.0.2.7"_s << u"::ffff:192.0.2.7"_s << true;
    QTest::addRow("two IPv4 addresses") << u"192.0.2.7"_s << u"192.0.2.8"_s << false;
    QTest::addRow("one IPv6 /64") << u"2001:db8:1:2::1"_s << u"2001:db8:1:2:ffff::9"_s << true;
    QTest::addRow("two IPv6 /64s") << u"2001:db8:1:2::1"_s << u"2001:db8:1:3::1"_s << false;
    QTest::addRow("IPv4 is not IPv6 zero") << u"0.0.0.1"_s << u"::1"_s << false;
}

void TestConnectionCap::addressKeys()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    QCOMPARE(ConnectionCap::keyOf(QHostAddress(a)) == ConnectionCap::keyOf(QHostAddress(b)), same);

    // And the cap counts them that way.
    ConnectionCap cap({ 0, 1 });
    ConnectionCap::Ticket held = cap.admit(QHostAddress(a)).ticket;
    QCOMPARE(cap.admit(QHostAddress(b)).verdict, same ? Verdict::AddressFull : Verdict::Admitted);
}

QTEST_GUILESS_MAIN(TestConnectionCap)
#include "tst_connection_cap.moc"
