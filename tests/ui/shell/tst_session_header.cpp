// Tests for the SessionHeader as a user sees it: every choice of the own-status box is shown
// whole, in the box and in its popup, in a narrow and a wide window, in English and German.

// Qt
#include <QAbstractItemView>
#include <QComboBox>
#include <QStyleOptionMenuItem>
#include <QTest>
#include <QVBoxLayout>

// Presence
#include "app/Translations.h"
#include "ui/shell/SessionHeader.h"

using namespace Qt::StringLiterals;
using Presence::Ui::ConnectionState;
using Presence::Ui::SessionHeader;

class TestSessionHeader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void statusChoicesAreShownWhole_data();
    void statusChoicesAreShownWhole();
};

void TestSessionHeader::statusChoicesAreShownWhole_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("width");
    for (const QString &language : { u"en"_s, u"de"_s }) {
        for (const int width : { 600, 1000 })
            QTest::addRow("%s, %d px", qPrintable(language), width) << language << width;
    }
}

void TestSessionHeader::statusChoicesAreShownWhole()
{
    QFETCH(QString, language);
    QFETCH(int, width);
    Presence::App::Translations translations;
    if (language != u"en"_s)
        QVERIFY(translations.install(QLocale(language)));

    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *header = new SessionHeader(&window);
    layout->addWidget(header);
    layout->addStretch(1);
    header->setSelf(u"user0"_s, u"Tara Tanaka"_s);
    header->setConnection(ConnectionState::Online, 0, {});
    window.resize(width, 200);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QComboBox *box = header->statusChooser();
    QVERIFY(box->isVisible());
    // The box: its widest choice fits (it is never squeezed below what it asked for).
    QVERIFY2(box->width() >= box->sizeHint().width(),
        qPrintable(
            u"the box is %1 px, asks for %2"_s.arg(box->width()).arg(box->sizeHint().width())));

    // The popup: each choice is drawn as a menu item, which needs room for the style's check
    // column and margins as well as its icon and text; less, and the text is elided.
    QAbstractItemView *view = box->view();
    box->showPopup();
    QTRY_VERIFY(view->isVisible());
    QStyleOptionMenuItem item;
    item.initFrom(view);
    item.menuItemType = QStyleOptionMenuItem::Normal;
    item.checkType = QStyleOptionMenuItem::NonExclusive;
    item.maxIconWidth = box->iconSize().width() + 4;
    for (int row = 0; row < box->count(); ++row) {
        item.text = box->itemText(row);
        item.icon = box->itemIcon(row);
        const QSize text(
            view->fontMetrics().horizontalAdvance(item.text), view->fontMetrics().height());
        const int needed
            = box->style()->sizeFromContents(QStyle::CT_MenuItem, &item, text, view).width();
        QVERIFY2(view->viewport()->width() >= needed,
            qPrintable(u"\"%1\" needs %2 px in the popup, has %3"_s.arg(item.text).arg(needed).arg(
                view->viewport()->width())));
    }
    box->hidePopup();
}

QTEST_MAIN(TestSessionHeader)
#include "tst_session_header.moc"
