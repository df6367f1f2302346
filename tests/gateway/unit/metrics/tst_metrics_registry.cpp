// MetricsRegistry and its families (counters, gauges, histograms): registration, refusals, and
// what render() exports, read back with the strict reader the /metrics tests share
// (PrometheusText).
// C++
#include <array>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

// Qt
#include <QRegularExpression>
#include <QTest>

// Presence
#include "PrometheusText.h"
#include "server-mock/metrics/MetricsRegistry.h"
#include "server-mock/metrics/PrometheusFormat.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using namespace Presence::Server;
using namespace Presence::TestSupport;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The next critical message must be a refusal to register a metric.
void expectRefusal()
{
    QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"^Refusing metric "_s));
}

} // namespace

class TestMetricsRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void counterWithoutLabelsIsExportedFromZero();
    void counterSeriesAreStableHandles();
    void gaugesAreReadAtRenderTime();
    void gaugeReadersCanBeReplacedAndRemoved();
    void histogramBucketsAreCumulative();
    void histogramSeriesPutLeLast();
    void histogramDefaultBoundsSuitLatencies();
    void invalidRegistrationsAreRefused_data();
    void invalidRegistrationsAreRefused();
    void clashingNamesAreRefused_data();
    void clashingNamesAreRefused();
    void wrongLabelCountIsNotExported();
    void renderIsSortedAndStable();
    void renderSurvivesARoundTrip();
    void contentTypeIsTheTextFormat();
    // Measurements, run only with PRESENCE_METRICS_BENCH=1 (and best in a release build).
};

void TestMetricsRegistry::counterWithoutLabelsIsExportedFromZero()
{
    MetricsRegistry registry;
    Counter &pushes = registry.counter("presence_pushes_total", "Presence pushes written.");
    QCOMPARE(registry.render(),
        "# HELP presence_pushes_total Presence pushes written.\n"
        "# TYPE presence_pushes_total counter\n"
        "presence_pushes_total 0\n"_ba);

    pushes.increment();
    pushes.add(41);
    QCOMPARE(pushes.value(), 42u);
    QCOMPARE(registry.render(),
        "# HELP presence_pushes_total Presence pushes written.\n"
        "# TYPE presence_pushes_total counter\n"
        "presence_pushes_total 42\n"_ba);

    // Counts beyond 2^53 stay exact integers: no exponent, no rounding through a double.
    pushes.add(9007199254740993ull - 42);
    QVERIFY(registry.render().contains("presence_pushes_total 9007199254740993\n"));
}

void TestMetricsRegistry::counterSeriesAreStableHandles()
{
    MetricsRegistry registry;
    CounterFamily &frames = registry.counterFamily(
        "presence_frames_in_total", "Frames received, by type.", { "type" });
    // A labelled family has no series until one is asked for.
    QCOMPARE(registry.render(),
        "# HELP presence_frames_in_total Frames received, by type.\n"
        "# TYPE presence_frames_in_total counter\n"_ba);

    Counter &subscribe = frames.series({ u"subscribe"_s });
    Counter &hello = frames.series({ u"hello"_s });
    // Making more series must not move the ones handed out.
    for (int i = 0; i < 1000; ++i)
        (void)frames.series({ QString::number(i) });
    QCOMPARE(&frames.series({ u"subscribe"_s }), &subscribe);
    QCOMPARE(&frames.series({ u"hello"_s }), &hello);

    subscribe.increment();
    subscribe.increment();
    hello.increment();
    const PrometheusText text = PrometheusText::parseInTest(registry.render());
    QCOMPARE(text.value("presence_frames_in_total", { { "type", u"subscribe"_s } }), 2.0);
    QCOMPARE(text.value("presence_frames_in_total", { { "type", u"hello"_s } }), 1.0);
    QCOMPARE(text.value("presence_frames_in_total", { { "type", u"7"_s } }), 0.0);
    QCOMPARE(text.family("presence_frames_in_total")->samples.size(), 1002);
}

void TestMetricsRegistry::gaugesAreReadAtRenderTime()
{
    MetricsRegistry registry;
    int connections = 0;
    int reads = 0;
    registry.gauge("presence_connections", "Open connections.", [&] {
        ++reads;
        return double(connections);
    });
    QCOMPARE(reads, 0); // registering does not read

    connections = 7;
    QCOMPARE(PrometheusText::parseInTest(registry.render()).value("presence_connections"), 7.0);
    QCOMPARE(reads, 1);
    connections = 3;
    QCOMPARE(PrometheusText::parseInTest(registry.render()).value("presence_connections"), 3.0);
    QCOMPARE(reads, 2);
    QCOMPARE(PrometheusText::parseInTest(registry.render()).family("presence_connections")->type,
        "gauge"_ba);
}

void TestMetricsRegistry::gaugeReadersCanBeReplacedAndRemoved()
{
    MetricsRegistry registry;
    GaugeFamily &users = registry.gaugeFamily("presence_users", "Users, by state.", { "state" });
    users.setReader({ u"online"_s }, [] { return 1.0; });
    users.setReader({ u"away"_s }, [] { return 2.0; });
    users.setReader({ u"online"_s }, [] { return 5.0; });
    PrometheusText text = PrometheusText::parseInTest(registry.render());
    QCOMPARE(text.value("presence_users", { { "state", u"online"_s } }), 5.0);
    QCOMPARE(text.value("presence_users", { { "state", u"away"_s } }), 2.0);

    users.setReader({ u"away"_s }, {});
    text = PrometheusText::parseInTest(registry.render());
    QCOMPARE(text.family("presence_users")->samples.size(), 1);
    QCOMPARE(text.value("presence_users", { { "state", u"away"_s } }), std::nullopt);
}

void TestMetricsRegistry::histogramBucketsAreCumulative()
{
    MetricsRegistry registry;
    Histogram &latency = registry.histogram("presence_push_latency_seconds",
        "Time from a presence change to its push being written.", { 0.125, 0.5, 1 });
    latency.observe(0.0625);
    latency.observe(0.125); // on a bound: counted in that bucket (le means <=)
    latency.observe(250ms);
    latency.observe(2.0);
    latency.observe(kNaN); // dropped

    QCOMPARE(latency.count(), 4u);
    QCOMPARE(latency.sum(), 2.4375);
    QCOMPARE(registry.render(),
        "# HELP presence_push_latency_seconds Time from a presence change to its push being "
        "written.\n"
        "# TYPE presence_push_latency_seconds histogram\n"
        "presence_push_latency_seconds_bucket{le=\"0.125\"} 2\n"
        "presence_push_latency_seconds_bucket{le=\"0.5\"} 3\n"
        "presence_push_latency_seconds_bucket{le=\"1\"} 3\n"
        "presence_push_latency_seconds_bucket{le=\"+Inf\"} 4\n"
        "presence_push_latency_seconds_sum 2.4375\n"
        "presence_push_latency_seconds_count 4\n"_ba);
    // The reader's histogram checks agree: cumulative, +Inf equal to _count.
    PrometheusText::parseInTest(registry.render());
}

void TestMetricsRegistry::histogramSeriesPutLeLast()
{
    MetricsRegistry registry;
    HistogramFamily &family
        = registry.histogramFamily("presence_store_seconds", "Store calls.", { "op" }, { 1 });
    QCOMPARE(family.upperBounds(), QList<double>({ 1 }));
    family.series({ u"read"_s }).observe(0.5);
    family.series({ u"write"_s }).observe(3);
    const QByteArray text = registry.render();
    QVERIFY2(text.contains("presence_store_seconds_bucket{op=\"read\",le=\"1\"} 1\n"
                           "presence_store_seconds_bucket{op=\"read\",le=\"+Inf\"} 1\n"
                           "presence_store_seconds_sum{op=\"read\"} 0.5\n"
                           "presence_store_seconds_count{op=\"read\"} 1\n"
                           "presence_store_seconds_bucket{op=\"write\",le=\"1\"} 0\n"),
        text.constData());
    QCOMPARE(PrometheusText::parseInTest(text).value(
                 "presence_store_seconds_bucket", { { "op", u"write"_s }, { "le", u"+Inf"_s } }),
        1.0);
}

void TestMetricsRegistry::histogramDefaultBoundsSuitLatencies()
{
    const QList<double> bounds = Histogram::defaultLatencyBounds();
    QVERIFY(Histogram::areValidBounds(bounds));
    QCOMPARE(bounds.first(), 0.0005);
    QCOMPARE(bounds.last(), 5.0);

    MetricsRegistry registry;
    Histogram &latency = registry.histogram("presence_push_latency_seconds", "Push latency.");
    QCOMPARE(latency.upperBounds(), bounds);
    latency.observe(300us);
    latency.observe(7s);
    const PrometheusText text = PrometheusText::parseInTest(registry.render());
    QCOMPARE(text.value("presence_push_latency_seconds_bucket", { { "le", u"0.0005"_s } }), 1.0);
    QCOMPARE(text.value("presence_push_latency_seconds_bucket", { { "le", u"5"_s } }), 1.0);
    QCOMPARE(text.value("presence_push_latency_seconds_bucket", { { "le", u"+Inf"_s } }), 2.0);
    QCOMPARE(text.family("presence_push_latency_seconds")->samples.size(), bounds.size() + 3);
}

void TestMetricsRegistry::invalidRegistrationsAreRefused_data()
{
    QTest::addColumn<MetricFamily::Type>("type");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArrayList>("labelNames");
    QTest::addColumn<QList<double>>("bounds");

    const auto counter = MetricFamily::Type::Counter;
    const auto gauge = MetricFamily::Type::Gauge;
    const auto histogram = MetricFamily::Type::Histogram;
    const QList<double> fine { 1, 2 };
    QTest::addRow("empty name") << counter << QByteArray() << QByteArrayList() << fine;
    QTest::addRow("name starts with a digit") << counter << "9lives"_ba << QByteArrayList() << fine;
    QTest::addRow("dash in name") << gauge << "presence-connections"_ba << QByteArrayList() << fine;
    QTest::addRow("space in name") << histogram << "push latency"_ba << QByteArrayList() << fine;
    QTest::addRow("non-ASCII name") << counter << "pr\xc3\xa9sence"_ba << QByteArrayList() << fine;
    QTest::addRow("label starts with __")
        << counter << "ok"_ba << QByteArrayList { "__type" } << fine;
    QTest::addRow("label with a colon") << gauge << "ok"_ba << QByteArrayList { "a:b" } << fine;
    QTest::addRow("label starts with a digit")
        << counter << "ok"_ba << QByteArrayList { "1x" } << fine;
    QTest::addRow("empty label") << counter << "ok"_ba << QByteArrayList { "" } << fine;
    QTest::addRow("label twice") << counter << "ok"_ba << QByteArrayList { "a", "b", "a" } << fine;
    QTest::addRow("le on a histogram") << histogram << "ok"_ba << QByteArrayList { "le" } << fine;
    QTest::addRow("bounds decreasing")
        << histogram << "ok"_ba << QByteArrayList() << QList<double> { 2, 1 };
    QTest::addRow("bound twice") << histogram << "ok"_ba << QByteArrayList()
                                 << QList<double> { 1, 1 };
    QTest::addRow("+Inf bound") << histogram << "ok"_ba << QByteArrayList()
                                << QList<double> { 1, kInf };
    QTest::addRow("NaN bound") << histogram << "ok"_ba << QByteArrayList()
                               << QList<double> { kNaN };
}

void TestMetricsRegistry::invalidRegistrationsAreRefused()
{
    QFETCH(MetricFamily::Type, type);
    QFETCH(QByteArray, name);
    QFETCH(QByteArrayList, labelNames);
    QFETCH(QList<double>, bounds);

    MetricsRegistry registry;
    registry.counter("presence_pushes_total", "Pushes.").increment();
    const QByteArray before = registry.render();
    const QStringList labelValues(labelNames.size(), u"x"_s);

    // Refused, loudly; what comes back still works, and /metrics stays as it was.
    expectRefusal();
    switch (type) {
    case MetricFamily::Type::Counter:
        registry.counterFamily(name, "Help.", labelNames).series(labelValues).increment();
        break;
    case MetricFamily::Type::Gauge:
        registry.gaugeFamily(name, "Help.", labelNames).setReader(labelValues, [] { return 1.0; });
        break;
    case MetricFamily::Type::Histogram:
        registry.histogramFamily(name, "Help.", labelNames, bounds).series(labelValues).observe(1);
        break;
    }
    QVERIFY(!registry.isExported(name));
    QCOMPARE(registry.render(), before);
}

void TestMetricsRegistry::clashingNamesAreRefused_data()
{
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<MetricFamily::Type>("firstType");
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<MetricFamily::Type>("secondType");

    const auto counter = MetricFamily::Type::Counter;
    const auto gauge = MetricFamily::Type::Gauge;
    const auto histogram = MetricFamily::Type::Histogram;
    QTest::addRow("same name twice") << "x"_ba << counter << "x"_ba << counter;
    QTest::addRow("same name, other type") << "x"_ba << counter << "x"_ba << gauge;
    QTest::addRow("counter named like a histogram's count")
        << "h"_ba << histogram << "h_count"_ba << counter;
    QTest::addRow("histogram whose sum is a gauge") << "h_sum"_ba << gauge << "h"_ba << histogram;
    QTest::addRow("histogram named like another's bucket")
        << "h"_ba << histogram << "h_bucket"_ba << histogram;
}

void TestMetricsRegistry::clashingNamesAreRefused()
{
    QFETCH(QByteArray, first);
    QFETCH(MetricFamily::Type, firstType);
    QFETCH(QByteArray, second);
    QFETCH(MetricFamily::Type, secondType);

    MetricsRegistry registry;
    const auto add = [&registry](const QByteArray &name, MetricFamily::Type type) {
        switch (type) {
        case MetricFamily::Type::Counter:
            registry.counter(name, "Help.").increment();
            break;
        case MetricFamily::Type::Gauge:
            registry.gauge(name, "Help.", [] { return 1.0; });
            break;
        case MetricFamily::Type::Histogram:
            registry.histogram(name, "Help.", { 1 }).observe(0.5);
            break;
        }
    };
    add(first, firstType);
    const QByteArray before = registry.render();
    PrometheusText::parseInTest(before);

    expectRefusal();
    add(second, secondType);
    QCOMPARE(registry.render(), before);
    QVERIFY(registry.isExported(first));
    QCOMPARE(registry.isExported(second), second == first);
}

void TestMetricsRegistry::wrongLabelCountIsNotExported()
{
    MetricsRegistry registry;
    CounterFamily &frames
        = registry.counterFamily("presence_frames_in_total", "Frames.", { "type" });
    frames.series({ u"hello"_s }).increment();
    const QByteArray before = registry.render();

    QTest::ignoreMessage(QtCriticalMsg,
        "Metric presence_frames_in_total takes 1 label values, not 2: the series is not "
        "exported");
    frames.series({ u"hello"_s, u"extra"_s }).increment();
    QTest::ignoreMessage(QtCriticalMsg,
        "Metric presence_frames_in_total takes 1 label values, not 0: the series is not "
        "exported");
    frames.series().increment();
    QCOMPARE(registry.render(), before);

    HistogramFamily &latency
        = registry.histogramFamily("presence_push_latency_seconds", "Latency.", {});
    const QByteArray withHistogram = registry.render();
    QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"takes 0 label values, not 1"_s));
    latency.series({ u"oops"_s }).observe(1);
    QTest::ignoreMessage(QtCriticalMsg, QRegularExpression(u"takes 0 label values, not 1"_s));
    registry.gaugeFamily("presence_connections", "Connections.", {}).setReader({ u"oops"_s }, [] {
        return 1.0;
    });
    // Sorted by name, the gauge family without series comes first.
    QCOMPARE(registry.render(),
        "# HELP presence_connections Connections.\n"
        "# TYPE presence_connections gauge\n"
            + withHistogram);
}

void TestMetricsRegistry::renderIsSortedAndStable()
{
    // The same metrics registered and counted in two different orders.
    const auto fill = [](MetricsRegistry &registry, bool reversed) {
        QList<std::function<void()>> steps;
        steps.append([&registry] {
            CounterFamily &errors
                = registry.counterFamily("presence_errors_total", "Errors.", { "code" });
            errors.series({ u"rate_limited"_s }).add(2);
            errors.series({ u"bad_request"_s }).increment();
            errors.series({ u"forbidden"_s }).increment();
        });
        steps.append(
            [&registry] { registry.gauge("presence_connections", "Open.", [] { return 4.0; }); });
        steps.append([&registry] {
            CounterFamily &closes
                = registry.counterFamily("presence_closes_total", "Closes.", { "code", "side" });
            closes.series({ u"1001"_s, u"server"_s }).increment();
            closes.series({ u"1000"_s, u"client"_s }).increment();
            closes.series({ u"1000"_s, u"server"_s }).increment();
        });
        steps.append(
            [&registry] { registry.histogram("presence_a_seconds", "A.", { 1 }).observe(2); });
        if (reversed)
            std::reverse(steps.begin(), steps.end());
        for (const auto &step : std::as_const(steps))
            step();
    };
    MetricsRegistry one;
    fill(one, false);
    MetricsRegistry other;
    fill(other, true);

    const QByteArray text = one.render();
    QCOMPARE(other.render(), text);
    QCOMPARE(one.render(), text);

    const PrometheusText exposition = PrometheusText::parseInTest(text);
    QCOMPARE(exposition.familyNames(),
        QByteArrayList({ "presence_a_seconds", "presence_closes_total", "presence_connections",
            "presence_errors_total" }));
    QStringList codes;
    for (const PrometheusSample &sample : exposition.family("presence_errors_total")->samples)
        codes.append(sample.labels.value("code"));
    QCOMPARE(codes, QStringList({ u"bad_request"_s, u"forbidden"_s, u"rate_limited"_s }));
    // Several labels: ordered by the first label's value, then the next.
    QVERIFY2(text.contains("presence_closes_total{code=\"1000\",side=\"client\"} 1\n"
                           "presence_closes_total{code=\"1000\",side=\"server\"} 1\n"
                           "presence_closes_total{code=\"1001\",side=\"server\"} 1\n"),
        text.constData());
}

void TestMetricsRegistry::renderSurvivesARoundTrip()
{
    MetricsRegistry registry;
    CounterFamily &frames = registry.counterFamily(
        "presence_frames_in_total", "Frames received, by type.", { "type" });
    frames.series({ u"subscribe"_s }).add(12);
    frames.series({ u"odd \"type\"\\\n"_s }).add(3);
    registry.counter("presence_pushes_total", "Pushes.").add(1234567890123ull);
    registry.gauge("presence_connections", "Open.", [] { return 0.1 + 0.2; });
    registry.gauge("presence_big", "Big.", [] { return 1e300; });
    registry.gauge("presence_nothing", "NaN.", [] { return kNaN; });
    registry.gauge("presence_negative", "Below.", [] { return -kInf; });
    HistogramFamily &latency = registry.histogramFamily(
        "presence_push_latency_seconds", "Push latency.", { "store" }, { 0.001, 0.01, 0.1 });
    for (const double seconds : { 0.0005, 0.002, 0.002, 0.05, 3.0 })
        latency.series({ u"redis"_s }).observe(seconds);
    latency.series({ u"memory"_s }).observe(0.0001);

    const QByteArray text = registry.render();
    const PrometheusText exposition = PrometheusText::parseInTest(text);

    QCOMPARE(exposition.family("presence_frames_in_total")->type, "counter"_ba);
    QCOMPARE(exposition.family("presence_frames_in_total")->help, u"Frames received, by type."_s);
    QCOMPARE(exposition.value("presence_frames_in_total", { { "type", u"subscribe"_s } }), 12.0);
    QCOMPARE(
        exposition.value("presence_frames_in_total", { { "type", u"odd \"type\"\\\n"_s } }), 3.0);
    QCOMPARE(exposition.value("presence_pushes_total"), 1234567890123.0);
    QCOMPARE(exposition.value("presence_connections"), 0.1 + 0.2);
    QCOMPARE(exposition.value("presence_big"), 1e300);
    QVERIFY(std::isnan(exposition.value("presence_nothing").value_or(0)));
    QCOMPARE(exposition.value("presence_negative"), -kInf);

    QCOMPARE(exposition.family("presence_push_latency_seconds")->type, "histogram"_ba);
    for (const QString &store : { u"redis"_s, u"memory"_s }) {
        const Histogram &histogram = latency.series({ store });
        const std::vector<quint64> counts = histogram.cumulativeCounts();
        QStringList le;
        for (const double bound : histogram.upperBounds())
            le.append(QString::fromLatin1(PrometheusFormat::formatValue(bound)));
        le.append(u"+Inf"_s);
        for (qsizetype i = 0; i < le.size(); ++i) {
            QCOMPARE(exposition.value("presence_push_latency_seconds_bucket",
                         { { "store", store }, { "le", le[i] } }),
                double(counts[std::size_t(i)]));
        }
        QCOMPARE(exposition.value("presence_push_latency_seconds_sum", { { "store", store } }),
            histogram.sum());
        QCOMPARE(exposition.value("presence_push_latency_seconds_count", { { "store", store } }),
            double(histogram.count()));
    }
    QCOMPARE(exposition.value("presence_push_latency_seconds_bucket",
                 { { "store", u"redis"_s }, { "le", u"0.01"_s } }),
        3.0);

    // Every sample the reader found is one of these: 2 + 1 + 4 gauges + 2 x (4 buckets + 2).
    qsizetype samples = 0;
    for (const QByteArray &name : exposition.familyNames())
        samples += exposition.family(name)->samples.size();
    QCOMPARE(samples, 2 + 1 + 4 + 2 * 6);
}

void TestMetricsRegistry::contentTypeIsTheTextFormat()
{
    QCOMPARE(
        QByteArray(MetricsRegistry::kContentType), "text/plain; version=0.0.4; charset=utf-8"_ba);
}

QTEST_APPLESS_MAIN(TestMetricsRegistry)
#include "tst_metrics_registry.moc"
