// PrometheusText, the strict reader of the Prometheus text format that the /metrics tests share:
// what it accepts and what it refuses.
// C++
#include <limits>
#include <optional>

// Qt
#include <QTest>

// Presence
#include "PrometheusText.h"

using namespace Qt::StringLiterals;
using namespace Presence::TestSupport;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

class TestPrometheusText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readerAcceptsValidText_data();
    void readerAcceptsValidText();
    void readerRejectsMalformedText_data();
    void readerRejectsMalformedText();
};

void TestPrometheusText::readerAcceptsValidText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("sample");
    QTest::addColumn<double>("value");

    QTest::addRow("untyped, no HELP") << "x 1\n"_ba
                                      << "x"_ba << 1.0;
    QTest::addRow("nothing at all") << QByteArray() << QByteArray() << 0.0;
    QTest::addRow("comment") << "# a comment\nx 1\n"_ba
                             << "x"_ba << 1.0;
    QTest::addRow("timestamp") << "x 2 1700000000000\n"_ba
                               << "x"_ba << 2.0;
    QTest::addRow("empty braces") << "x{} 3\n"_ba
                                  << "x"_ba << 3.0;
    QTest::addRow("trailing comma") << "x{a=\"b\",} 4\n"_ba
                                    << "x"_ba << 4.0;
    QTest::addRow("exponent") << "x 1.5e3\n"_ba
                              << "x"_ba << 1500.0;
    QTest::addRow("negative") << "x -0.25\n"_ba
                              << "x"_ba << -0.25;
    QTest::addRow("-Inf") << "x -Inf\n"_ba
                          << "x"_ba << -kInf;
    QTest::addRow("empty HELP") << "# HELP x\n# TYPE x gauge\nx 5\n"_ba
                                << "x"_ba << 5.0;
    QTest::addRow("summary") << "# TYPE s summary\ns{quantile=\"0.5\"} 1\ns_sum 2\ns_count 3\n"_ba
                             << "s_count"_ba << 3.0;
    QTest::addRow("histogram")
        << "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 3\n"
           "h_count 2\n"_ba
        << "h_count"_ba << 2.0;
}

void TestPrometheusText::readerAcceptsValidText()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, sample);
    QFETCH(double, value);

    const PrometheusText exposition = PrometheusText::parseInTest(text);
    if (sample.isEmpty()) {
        QVERIFY(exposition.familyNames().isEmpty());
        return;
    }
    std::optional<double> found;
    for (const QByteArray &name : exposition.familyNames()) {
        for (const PrometheusSample &one : exposition.family(name)->samples) {
            if (one.name == sample)
                found = one.value;
        }
    }
    QCOMPARE(found, value);
}

void TestPrometheusText::readerRejectsMalformedText_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::addRow("no final newline") << "x 1"_ba;
    QTest::addRow("blank line") << "x 1\n\ny 2\n"_ba;
    QTest::addRow("no value") << "x\n"_ba;
    QTest::addRow("two spaces") << "x  1\n"_ba;
    QTest::addRow("trailing space") << "x 1 \n"_ba;
    QTest::addRow("not a number") << "x one\n"_ba;
    QTest::addRow("inf in lower case") << "x inf\n"_ba;
    QTest::addRow("hex") << "x 0x10\n"_ba;
    QTest::addRow("bad timestamp") << "x 1 12.5\n"_ba;
    QTest::addRow("name starts with a digit") << "9x 1\n"_ba;
    QTest::addRow("unterminated braces") << "x{a=\"b\" 1\n"_ba;
    QTest::addRow("unterminated value") << "x{a=\"b} 1\n"_ba;
    QTest::addRow("unquoted value") << "x{a=b} 1\n"_ba;
    QTest::addRow("space in braces") << "x{a=\"b\", c=\"d\"} 1\n"_ba;
    QTest::addRow("unknown escape") << "x{a=\"b\\t\"} 1\n"_ba;
    QTest::addRow("label twice") << "x{a=\"1\",a=\"2\"} 1\n"_ba;
    QTest::addRow("reserved label") << "x{__name__=\"x\"} 1\n"_ba;
    QTest::addRow("not UTF-8") << "x{a=\"\xff\"} 1\n"_ba;
    QTest::addRow("unknown type") << "# TYPE x countre\nx 1\n"_ba;
    QTest::addRow("TYPE twice") << "# TYPE x counter\n# TYPE x counter\nx 1\n"_ba;
    QTest::addRow("HELP twice") << "# HELP x a\n# HELP x b\nx 1\n"_ba;
    QTest::addRow("TYPE after samples") << "x 1\n# TYPE x counter\n"_ba;
    QTest::addRow("unknown escape in HELP") << "# HELP x a\\tb\nx 1\n"_ba;
    QTest::addRow("HELP without a name") << "# HELP \n"_ba;
    QTest::addRow("family lines apart") << "x 1\ny 1\nx{a=\"b\"} 2\n"_ba;
    QTest::addRow("same series twice") << "x{a=\"b\"} 1\nx{a=\"b\"} 2\n"_ba;
    const QByteArray histogram = "# TYPE h histogram\n"_ba;
    QTest::addRow("histogram without +Inf")
        << histogram + "h_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n";
    QTest::addRow("histogram not cumulative")
        << histogram + "h_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n";
    QTest::addRow("histogram le decreasing") << histogram
            + "h_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\n"
              "h_sum 1\nh_count 1\n";
    QTest::addRow("histogram count unequal to +Inf")
        << histogram + "h_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n";
    QTest::addRow("histogram without sum") << histogram + "h_bucket{le=\"+Inf\"} 1\nh_count 1\n";
    QTest::addRow("bucket without le") << histogram + "h_bucket 1\nh_sum 1\nh_count 1\n";
    QTest::addRow("le on a sum") << histogram
            + "h_bucket{le=\"+Inf\"} 1\nh_sum{le=\"1\"} 1\nh_count 1\n";
    QTest::addRow("histogram sample without suffix") << histogram + "h 1\n";
}

void TestPrometheusText::readerRejectsMalformedText()
{
    QFETCH(QByteArray, text);

    QString error;
    QVERIFY2(!PrometheusText::parse(text, &error), text.constData());
    QVERIFY(!error.isEmpty());
}

QTEST_APPLESS_MAIN(TestPrometheusText)
#include "tst_prometheus_text.moc"
