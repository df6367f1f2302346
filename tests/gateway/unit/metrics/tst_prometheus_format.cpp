// PrometheusFormat: how values, HELP texts and label values are written in the Prometheus text
// format, checked on what MetricsRegistry renders and read back with PrometheusText.
// C++
#include <cmath>
#include <limits>

// Qt
#include <QTest>

// Presence
#include "PrometheusText.h"
#include "server-mock/metrics/MetricsRegistry.h"
#include "server-mock/metrics/PrometheusFormat.h"

using namespace Qt::StringLiterals;
using namespace Presence::Server;
using namespace Presence::TestSupport;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

class TestPrometheusFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void labelValuesAreEscaped_data();
    void labelValuesAreEscaped();
    void helpIsEscaped();
    void valuesArePrintedForPrometheus_data();
    void valuesArePrintedForPrometheus();
};

void TestPrometheusFormat::labelValuesAreEscaped_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("written");

    QTest::addRow("plain") << u"subscribe"_s << "subscribe"_ba;
    QTest::addRow("backslash") << u"C:\\path"_s << "C:\\\\path"_ba;
    QTest::addRow("double quote") << u"say \"hi\""_s << "say \\\"hi\\\""_ba;
    QTest::addRow("newline") << u"two\nlines"_s << "two\\nlines"_ba;
    QTest::addRow("all three") << u"\\\"\n"_s << "\\\\\\\"\\n"_ba;
    QTest::addRow("non-ASCII as UTF-8") << u"zoë 😀"_s << "zo\xc3\xab \xf0\x9f\x98\x80"_ba;
    QTest::addRow("empty") << QString() << QByteArray();
    QTest::addRow("braces and comma") << u"a},b=\"c"_s << "a},b=\\\"c"_ba;
}

void TestPrometheusFormat::labelValuesAreEscaped()
{
    QFETCH(QString, value);
    QFETCH(QByteArray, written);

    MetricsRegistry registry;
    registry.counterFamily("presence_errors_total", "Errors sent.", { "code" })
        .series({ value })
        .increment();
    const QByteArray text = registry.render();
    QVERIFY2(
        text.contains("presence_errors_total{code=\"" + written + "\"} 1\n"), text.constData());
    // And a reader gets the value back as it was.
    QCOMPARE(
        PrometheusText::parseInTest(text).value("presence_errors_total", { { "code", value } }),
        1.0);
}

void TestPrometheusFormat::helpIsEscaped()
{
    MetricsRegistry registry;
    registry.gauge(
        "presence_connections", "Open connections.\nSee C:\\docs \"metrics\".", [] { return 3.0; });
    const QByteArray text = registry.render();
    // In HELP only backslash and newline are escaped; a double quote stays as it is.
    QVERIFY2(text.startsWith(
                 "# HELP presence_connections Open connections.\\nSee C:\\\\docs \"metrics\".\n"),
        text.constData());
    QCOMPARE(PrometheusText::parseInTest(text).family("presence_connections")->help,
        u"Open connections.\nSee C:\\docs \"metrics\"."_s);
}

void TestPrometheusFormat::valuesArePrintedForPrometheus_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QByteArray>("written");

    QTest::addRow("zero") << 0.0 << "0"_ba;
    QTest::addRow("negative zero") << -0.0 << "0"_ba;
    QTest::addRow("whole") << 1234567.0 << "1234567"_ba;
    QTest::addRow("negative whole") << -3.0 << "-3"_ba;
    QTest::addRow("2^53, still exact") << 9007199254740992.0 << "9007199254740992"_ba;
    QTest::addRow("beyond 2^53") << 1e20 << "1e+20"_ba;
    QTest::addRow("fraction") << 2.5 << "2.5"_ba;
    QTest::addRow("small bound") << 0.0005 << "0.0005"_ba;
    QTest::addRow("smaller") << 0.00005 << "5e-05"_ba;
    QTest::addRow("shortest round trip") << 0.1 + 0.2 << "0.30000000000000004"_ba;
    QTest::addRow("NaN") << kNaN << "NaN"_ba;
    QTest::addRow("+Inf") << kInf << "+Inf"_ba;
    QTest::addRow("-Inf") << -kInf << "-Inf"_ba;
}

void TestPrometheusFormat::valuesArePrintedForPrometheus()
{
    QFETCH(double, value);
    QFETCH(QByteArray, written);

    QCOMPARE(PrometheusFormat::formatValue(value), written);
    // Read back, it is the same double (NaN compares unequal to itself).
    const std::optional<double> back = PrometheusText::parseValue(written);
    QVERIFY(back);
    if (std::isnan(value))
        QVERIFY(std::isnan(*back));
    else
        QCOMPARE(*back, value);
}

QTEST_APPLESS_MAIN(TestPrometheusFormat)
#include "tst_prometheus_format.moc"
