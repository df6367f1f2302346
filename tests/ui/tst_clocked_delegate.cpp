// ClockedDelegate: the clock a delegate's rows tell times by, the system's until a test sets
// another, and the system's again when that is taken away; and the focus frame its rows share,
// drawn around the row with the focus only.
// Qt
#include <QImage>
#include <QListView>
#include <QPainter>
#include <QTest>
#include <QTimeZone>

// Presence
#include "ui/ClockedDelegate.h"

using Presence::Ui::ClockedDelegate;

class TestClockedDelegate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theSystemsClockUntilOneIsSet();
    void theFocusFrameIsAroundTheRowWithTheFocusOnly();
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

void TestClockedDelegate::theFocusFrameIsAroundTheRowWithTheFocusOnly()
{
    QListView view; // the style and the palette a row is painted with
    QStyleOptionViewItem option;
    option.initFrom(&view);
    option.widget = &view;
    option.rect = QRect(0, 0, 160, 40);
    const QColor background = option.palette.color(QPalette::Base);
    const auto painted = [&](bool hasFocus) {
        QStyleOptionViewItem row = option;
        row.state.setFlag(QStyle::State_HasFocus, hasFocus);
        QImage image(row.rect.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(background);
        QPainter painter(&image);
        ClockedDelegate::paintFocusFrame(&painter, row, background);
        painter.end();
        return image;
    };
    QImage bare(option.rect.size(), QImage::Format_ARGB32_Premultiplied);
    bare.fill(background);

    QCOMPARE(painted(false), bare); // a row without the focus is left as it was
    QVERIFY(painted(true) != bare); // the keyboard's row shows where the keyboard is
}

QTEST_MAIN(TestClockedDelegate)
#include "tst_clocked_delegate.moc"
