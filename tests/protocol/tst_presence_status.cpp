// PresenceStatus: the wire names of statuses, chosen statuses, and the availability order.

// Qt
#include <QTest>

// Presence
#include "tests/protocol/ProtocolSamples.h"

using namespace Qt::StringLiterals;
using namespace Presence::Protocol;
using namespace ProtocolSamples;

class TestPresenceStatus : public QObject {
    Q_OBJECT

private slots:
    void presenceStatusNames_data();
    void presenceStatusNames();
    void chosenStatusNames_data();
    void chosenStatusNames();
    void statusNamesRejectOthers();
    void availabilityOrder();
};

void TestPresenceStatus::presenceStatusNames_data()
{
    QTest::addColumn<PresenceStatus>("status");
    QTest::addColumn<QString>("name");

    QTest::addRow("online") << PresenceStatus::Online << u"online"_s;
    QTest::addRow("away") << PresenceStatus::Away << u"away"_s;
    QTest::addRow("offline") << PresenceStatus::Offline << u"offline"_s;
}

void TestPresenceStatus::presenceStatusNames()
{
    QFETCH(PresenceStatus, status);
    QFETCH(QString, name);

    QCOMPARE(toString(status), name);
    const auto parsed = presenceStatusFromString(name);
    QVERIFY(parsed.has_value());
    QCOMPARE(int(*parsed), int(status));
}

void TestPresenceStatus::chosenStatusNames_data()
{
    QTest::addColumn<ChosenStatus>("status");
    QTest::addColumn<QString>("name");

    QTest::addRow("online") << ChosenStatus::Online << u"online"_s;
    QTest::addRow("away") << ChosenStatus::Away << u"away"_s;
    QTest::addRow("invisible") << ChosenStatus::Invisible << u"invisible"_s;
}

void TestPresenceStatus::chosenStatusNames()
{
    QFETCH(ChosenStatus, status);
    QFETCH(QString, name);

    QCOMPARE(toString(status), name);
    const auto parsed = chosenStatusFromString(name);
    QVERIFY(parsed.has_value());
    QCOMPARE(int(*parsed), int(status));
}

void TestPresenceStatus::statusNamesRejectOthers()
{
    // Invisible is never shown to others; offline is never chosen.
    QVERIFY(!presenceStatusFromString(u"invisible").has_value());
    QVERIFY(!chosenStatusFromString(u"offline").has_value());
    for (const QStringView text : { u"", u"Online", u"busy", u"online ", u"AWAY" }) {
        QVERIFY2(!presenceStatusFromString(text).has_value(), qPrintable(text.toString()));
        QVERIFY2(!chosenStatusFromString(text).has_value(), qPrintable(text.toString()));
    }
}

void TestPresenceStatus::availabilityOrder()
{
    QVERIFY(availability(PresenceStatus::Offline) < availability(PresenceStatus::Away));
    QVERIFY(availability(PresenceStatus::Away) < availability(PresenceStatus::Online));
}

QTEST_GUILESS_MAIN(TestPresenceStatus)
#include "tst_presence_status.moc"
