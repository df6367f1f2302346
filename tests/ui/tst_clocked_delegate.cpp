// ClockedDelegate: the clock a delegate's rows tell times by, the system's until a test sets
// another, and the system's again when that is taken away.
// Qt
#include <QTest>
#include <QTimeZone>

// Presence
#include "ui/ClockedDelegate.h"

using Presence::Ui::ClockedDelegate;

class TestClockedDelegate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theSystemsClockUntilOneIsSet();
};

void TestClockedDelegate::theSystemsClockUntilOneIsSet()
{
    ClockedDelegate delegate;
    const auto isSystemTime = [&delegate] {
        const QDateTime before = QDateTime::currentDateTime();
        const QDateTime now = delegate.now();
        return before <= now && now <= QDateTime::currentDateTime();
    };
    QVERIFY(isSystemTime());

    QDateTime fixed(QDate(2024, 3, 20), QTime(12, 0), QTimeZone::utc());
    int asked = 0;
    delegate.setNowFunction([&] {
        ++asked;
        return fixed;
    });
    QCOMPARE(delegate.now(), fixed);
    QCOMPARE(delegate.now(), fixed);
    QCOMPARE(asked, 2); // asked every time: a test's clock may move

    delegate.setNowFunction({});
    QVERIFY(isSystemTime());
    QCOMPARE(asked, 2);
}

QTEST_MAIN(TestClockedDelegate)
#include "tst_clocked_delegate.moc"
