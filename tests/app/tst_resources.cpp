// Tests for Presence::Resources: the application icon is compiled in, is an SVG that any
// renderer draws the same, and Qt turns it into a window/taskbar icon at every usual size.

// Qt
#include <QColor>
#include <QFile>
#include <QIcon>
#include <QImage>
#include <QPixmap>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

const QString iconPath = u":/presence/presence-chat.svg"_s;

} // namespace

class TestResources : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void iconIsCompiledIn();
    void iconIsAPlainScalableSvg();
    void iconRenders_data();
    void iconRenders();
    void iconShowsTheGreenPresenceDot();
};

void TestResources::iconIsCompiledIn()
{
    // Linking Presence::Resources is enough: no Q_INIT_RESOURCE in main().
    QVERIFY(QFile::exists(iconPath));
    QFile file(iconPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.size() > 0);
}

void TestResources::iconIsAPlainScalableSvg()
{
    QFile file(iconPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);

    QVERIFY2(xml.readNextStartElement(), qPrintable(xml.errorString()));
    QCOMPARE(xml.name(), u"svg"_s);
    QCOMPARE(xml.namespaceUri(), u"http://www.w3.org/2000/svg"_s);
    const QStringList viewBox
        = xml.attributes().value(u"viewBox"_s).toString().split(u' ', Qt::SkipEmptyParts);
    QCOMPARE(viewBox.size(), 4);
    for (const QString &number : viewBox) {
        bool ok = false;
        number.toDouble(&ok);
        QVERIFY2(ok, qPrintable(u"viewBox holds '%1'"_s.arg(number)));
    }
    QVERIFY(viewBox.at(2).toDouble() > 0);
    QVERIFY(viewBox.at(3).toDouble() > 0);

    // Text needs fonts the desktop may not have; styles, filters and scripts are beyond
    // what QtSvg (SVG Tiny) draws. Shapes only, so the icon looks the same everywhere.
    const QSet<QString> avoided { u"text"_s, u"style"_s, u"filter"_s, u"script"_s,
        u"foreignObject"_s, u"image"_s };
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement) {
            QVERIFY2(!avoided.contains(xml.name().toString()),
                qPrintable(u"the icon uses <%1>"_s.arg(xml.name())));
            QVERIFY2(!xml.attributes().hasAttribute(u"style"_s),
                qPrintable(u"<%1> has a style attribute"_s.arg(xml.name())));
        }
    }
    QVERIFY2(
        !xml.hasError(), qPrintable(u"line %1: %2"_s.arg(xml.lineNumber()).arg(xml.errorString())));
}

void TestResources::iconRenders_data()
{
    QTest::addColumn<int>("size");
    for (const int size : { 16, 22, 32, 48, 64, 256 })
        QTest::addRow("%dx%d", size, size) << size;
}

void TestResources::iconRenders()
{
    QFETCH(int, size);
    const QIcon icon(iconPath);
    QVERIFY(!icon.isNull());
    const QPixmap pixmap = icon.pixmap(QSize(size, size));
    QVERIFY2(
        !pixmap.isNull(), "no pixmap: Qt's SVG icon engine is missing (Debian package libqt6svg6)");
    QCOMPARE(pixmap.deviceIndependentSize().toSize(), QSize(size, size));

    // Drawn, and shaped: some pixels opaque, the corners outside the bubble transparent.
    const QImage image = pixmap.toImage().convertToFormat(QImage::Format_ARGB32);
    int opaque = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (qAlpha(image.pixel(x, y)) == 255)
                ++opaque;
        }
    }
    const int pixels = image.width() * image.height();
    QVERIFY2(
        opaque > pixels / 4, qPrintable(u"only %1 of %2 pixels drawn"_s.arg(opaque).arg(pixels)));
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    QCOMPARE(qAlpha(image.pixel(image.width() - 1, 0)), 0);
}

void TestResources::iconShowsTheGreenPresenceDot()
{
    const QImage image
        = QIcon(iconPath).pixmap(QSize(64, 64)).toImage().convertToFormat(QImage::Format_ARGB32);
    QVERIFY(!image.isNull());
    const auto at = [&image](double x, double y) {
        // Coordinates in the SVG's 128-unit viewBox.
        return QColor::fromRgba(
            image.pixel(int(x * image.width() / 128), int(y * image.height() / 128)));
    };
    const QColor dot = at(100, 98);
    QCOMPARE(dot.alpha(), 255);
    QVERIFY2(dot.green() > dot.red() + 60 && dot.green() > dot.blue() + 60,
        qPrintable(u"the presence dot is %1, not green"_s.arg(dot.name())));
    const QColor bubble = at(20, 30);
    QCOMPARE(bubble.alpha(), 255);
    QVERIFY2(bubble.blue() > bubble.red() + 60,
        qPrintable(u"the bubble is %1, not blue"_s.arg(bubble.name())));
}

QTEST_MAIN(TestResources)
#include "tst_resources.moc"
