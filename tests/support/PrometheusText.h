#pragma once

// A strict reader of the Prometheus text exposition format 0.0.4, for tests of what the
// gateway exports (MetricsRegistry::render() now, GET /metrics later); header-only.
//
// It refuses what Prometheus refuses: bad metric or label names, a label twice, unknown
// escapes, a value that is not a number, HELP or TYPE twice or after the family's samples,
// the lines of one family apart, the same series twice, and histograms that are not
// histograms (buckets without le, not cumulative, no +Inf bucket, _count unequal to it, no
// _sum). It is stricter than Prometheus where a renderer has no reason to vary: no blank
// lines, one space between fields, no spaces inside braces, the last line ends with a
// newline, and only "NaN", "+Inf" and "-Inf" are spelled with letters.

// C++
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

// Qt
#include <QByteArray>
#include <QByteArrayList>
#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringDecoder>
#include <QTest>

namespace Presence::TestSupport {

using namespace Qt::StringLiterals;

using PrometheusLabels = QMap<QByteArray, QString>;

struct PrometheusSample {
    QByteArray name; // e.g. presence_push_latency_seconds_bucket
    PrometheusLabels labels; // unescaped
    double value = 0;
    std::optional<qint64> timestamp;
};

struct PrometheusFamily {
    QByteArray type; // counter, gauge, histogram, summary or untyped
    std::optional<QString> help; // unescaped
    QList<PrometheusSample> samples; // in the order they came
};

class PrometheusText {
public:
    // The exposition in text, or nullopt with the first problem ("line 3: ...") in *error.
    [[nodiscard]] static std::optional<PrometheusText> parse(
        QByteArrayView text, QString *error = nullptr);

    // The exposition in text; a refusal fails the running test with the reader's complaint
    // and the text, and gives an empty exposition. Called for the check alone too.
    static PrometheusText parseInTest(QByteArrayView text)
    {
        QString error;
        std::optional<PrometheusText> result = parse(text, &error);
        if (!result) {
            QTest::qFail(qPrintable(u"unreadable exposition: "_s + error + u"\n"_s
                             + QString::fromUtf8(text)),
                __FILE__, __LINE__);
            return {};
        }
        return std::move(*result);
    }

    // The families' names in the order they came.
    [[nodiscard]] const QByteArrayList &familyNames() const { return m_order; }
    [[nodiscard]] const PrometheusFamily *family(const QByteArray &name) const
    {
        const auto found = m_families.constFind(name);
        return found == m_families.cend() ? nullptr : &*found;
    }
    // The value of the sample with exactly these labels, if there is one.
    [[nodiscard]] std::optional<double> value(
        const QByteArray &sampleName, const PrometheusLabels &labels = {}) const
    {
        for (const PrometheusFamily &family : m_families) {
            for (const PrometheusSample &sample : family.samples) {
                if (sample.name == sampleName && sample.labels == labels)
                    return sample.value;
            }
        }
        return std::nullopt;
    }

    // Strict number syntax: [-]digits[.digits][e[+-]digits], NaN, +Inf, -Inf.
    [[nodiscard]] static std::optional<double> parseValue(QByteArrayView token)
    {
        if (token == "NaN")
            return std::numeric_limits<double>::quiet_NaN();
        if (token == "+Inf")
            return std::numeric_limits<double>::infinity();
        if (token == "-Inf")
            return -std::numeric_limits<double>::infinity();
        qsizetype i = token.startsWith('-') ? 1 : 0;
        const auto digits = [&] {
            const qsizetype start = i;
            while (i < token.size() && isDigit(token[i]))
                ++i;
            return i - start;
        };
        if (digits() == 0)
            return std::nullopt;
        if (i < token.size() && token[i] == '.') {
            ++i;
            if (digits() == 0)
                return std::nullopt;
        }
        if (i < token.size() && (token[i] == 'e' || token[i] == 'E')) {
            ++i;
            if (i < token.size() && (token[i] == '+' || token[i] == '-'))
                ++i;
            if (digits() == 0)
                return std::nullopt;
        }
        if (i != token.size())
            return std::nullopt;
        double value = 0;
        const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ec != std::errc() || end != token.data() + token.size())
            return std::nullopt;
        return value;
    }

private:
    static bool isDigit(char c) { return c >= '0' && c <= '9'; }
    static bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

    // Length of the metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) text starts with; 0 for none.
    static qsizetype metricNameLength(QByteArrayView text)
    {
        qsizetype n = 0;
        while (n < text.size()) {
            const char c = text[n];
            if (!(isLetter(c) || c == '_' || c == ':' || (n > 0 && isDigit(c))))
                break;
            ++n;
        }
        return n;
    }

    // Length of the label name ([a-zA-Z_][a-zA-Z0-9_]*) text starts with; 0 for none.
    static qsizetype labelNameLength(QByteArrayView text)
    {
        qsizetype n = 0;
        while (n < text.size()) {
            const char c = text[n];
            if (!(isLetter(c) || c == '_' || (n > 0 && isDigit(c))))
                break;
            ++n;
        }
        return n;
    }

    // HELP text: \\ and \n are the only escapes.
    static std::optional<QString> unescapeHelp(QByteArrayView raw)
    {
        QByteArray bytes;
        for (qsizetype i = 0; i < raw.size(); ++i) {
            if (raw[i] != '\\') {
                bytes.append(raw[i]);
                continue;
            }
            if (++i == raw.size())
                return std::nullopt;
            if (raw[i] == '\\')
                bytes.append('\\');
            else if (raw[i] == 'n')
                bytes.append('\n');
            else
                return std::nullopt;
        }
        return QString::fromUtf8(bytes);
    }

    // `{name="value",...}` at the start of text; returns the length read, 0 on error.
    static qsizetype readLabels(QByteArrayView text, PrometheusLabels &labels, QString &error)
    {
        qsizetype i = 1; // past '{'
        while (true) {
            if (i < text.size() && text[i] == '}')
                return i + 1;
            const qsizetype nameLength = labelNameLength(text.sliced(i));
            if (nameLength == 0) {
                error = u"expected a label name or '}'"_s;
                return 0;
            }
            const QByteArray name = text.sliced(i, nameLength).toByteArray();
            if (name.startsWith("__")) {
                error = u"label names starting with __ are reserved: "_s + QString::fromUtf8(name);
                return 0;
            }
            if (labels.contains(name)) {
                error = u"label given twice: "_s + QString::fromUtf8(name);
                return 0;
            }
            i += nameLength;
            if (text.sliced(i).startsWith("=\"") == false) {
                error = u"expected =\" after label "_s + QString::fromUtf8(name);
                return 0;
            }
            i += 2;
            QByteArray value;
            while (true) {
                if (i >= text.size()) {
                    error = u"unterminated label value"_s;
                    return 0;
                }
                const char c = text[i++];
                if (c == '"')
                    break;
                if (c != '\\') {
                    value.append(c);
                    continue;
                }
                const char escaped = i < text.size() ? text[i++] : '\0';
                if (escaped == '\\' || escaped == '"') {
                    value.append(escaped);
                } else if (escaped == 'n') {
                    value.append('\n');
                } else {
                    error = u"invalid escape in label value"_s;
                    return 0;
                }
            }
            labels.insert(name, QString::fromUtf8(value));
            if (i < text.size() && text[i] == ',') {
                ++i;
            } else if (i >= text.size() || text[i] != '}') {
                error = u"expected ',' or '}' after a label value"_s;
                return 0;
            }
        }
    }

    static std::optional<PrometheusSample> readSample(QByteArrayView line, QString &error)
    {
        PrometheusSample sample;
        const qsizetype nameLength = metricNameLength(line);
        if (nameLength == 0) {
            error = u"expected a metric name"_s;
            return std::nullopt;
        }
        sample.name = line.first(nameLength).toByteArray();
        QByteArrayView rest = line.sliced(nameLength);
        if (rest.startsWith('{')) {
            const qsizetype length = readLabels(rest, sample.labels, error);
            if (length == 0)
                return std::nullopt;
            rest = rest.sliced(length);
        }
        if (!rest.startsWith(' ')) {
            error = u"expected one space before the value"_s;
            return std::nullopt;
        }
        rest = rest.sliced(1);
        const qsizetype space = rest.indexOf(' ');
        const std::optional<double> value = parseValue(space < 0 ? rest : rest.first(space));
        if (!value) {
            error = u"not a number: "_s + QString::fromUtf8(space < 0 ? rest : rest.first(space));
            return std::nullopt;
        }
        sample.value = *value;
        if (space >= 0) {
            const QByteArrayView stamp = rest.sliced(space + 1);
            qint64 timestamp = 0;
            const auto [end, ec]
                = std::from_chars(stamp.data(), stamp.data() + stamp.size(), timestamp);
            if (stamp.isEmpty() || ec != std::errc() || end != stamp.data() + stamp.size()) {
                error = u"not a timestamp: "_s + QString::fromUtf8(stamp);
                return std::nullopt;
            }
            sample.timestamp = timestamp;
        }
        return sample;
    }

    // The family a sample name belongs to: a histogram's or summary's suffixed name goes to
    // the family of that base name when one is known, anything else to its own name.
    QByteArray familyOf(const QByteArray &sampleName) const
    {
        for (const QByteArrayView suffix : { "_bucket", "_sum", "_count" }) {
            if (!sampleName.endsWith(suffix))
                continue;
            QByteArray base = sampleName.chopped(suffix.size());
            const auto found = m_families.constFind(base);
            if (found == m_families.cend())
                continue;
            if (found->type == "histogram" || (found->type == "summary" && suffix != "_bucket"))
                return base;
        }
        return sampleName;
    }

    // Makes name the family the following lines belong to; false if its lines were apart.
    bool enter(const QByteArray &name, QString &error)
    {
        if (name == m_current)
            return true;
        if (m_families.contains(name)) {
            error = u"the lines of "_s + QString::fromUtf8(name) + u" are not together"_s;
            return false;
        }
        m_current = name;
        m_order.append(name);
        m_families.insert(name, PrometheusFamily {});
        return true;
    }

    bool readComment(QByteArrayView line, QString &error)
    {
        const bool isHelp = line.startsWith("# HELP ");
        const bool isType = line.startsWith("# TYPE ");
        if (!isHelp && !isType)
            return true; // any other comment
        const QByteArrayView rest = line.sliced(7);
        const qsizetype nameLength = metricNameLength(rest);
        if (nameLength == 0 || (nameLength < rest.size() && rest[nameLength] != ' ')) {
            error = u"expected a metric name after HELP or TYPE"_s;
            return false;
        }
        const QByteArray name = rest.first(nameLength).toByteArray();
        const QByteArrayView text
            = nameLength < rest.size() ? rest.sliced(nameLength + 1) : QByteArrayView();
        if (!enter(name, error))
            return false;
        PrometheusFamily &family = m_families[name];
        if (!family.samples.isEmpty()) {
            error = u"HELP or TYPE after the samples of "_s + QString::fromUtf8(name);
            return false;
        }
        if (isHelp) {
            if (family.help) {
                error = u"a second HELP for "_s + QString::fromUtf8(name);
                return false;
            }
            family.help = unescapeHelp(text);
            if (!family.help) {
                error = u"invalid escape in HELP"_s;
                return false;
            }
            return true;
        }
        if (!family.type.isEmpty()) {
            error = u"a second TYPE for "_s + QString::fromUtf8(name);
            return false;
        }
        static const QByteArrayList types { "counter", "gauge", "histogram", "summary", "untyped" };
        if (!types.contains(text)) {
            error = u"unknown type: "_s + QString::fromUtf8(text);
            return false;
        }
        family.type = text.toByteArray();
        return true;
    }

    bool readSampleLine(QByteArrayView line, QString &error)
    {
        std::optional<PrometheusSample> sample = readSample(line, error);
        if (!sample)
            return false;
        const QByteArray familyName = familyOf(sample->name);
        if (!enter(familyName, error))
            return false;
        PrometheusFamily &family = m_families[familyName];
        if (family.type == "histogram" && sample->name == familyName) {
            error = u"histogram "_s + QString::fromUtf8(familyName)
                + u" has a sample without a suffix"_s;
            return false;
        }
        const QByteArray key = seriesKey(sample->name, sample->labels);
        if (m_seriesSeen.contains(key)) {
            error = u"the same series twice: "_s + QString::fromUtf8(sample->name);
            return false;
        }
        m_seriesSeen.insert(key);
        family.samples.append(std::move(*sample));
        return true;
    }

    static QByteArray seriesKey(const QByteArray &name, const PrometheusLabels &labels)
    {
        QByteArray key = name;
        for (auto it = labels.cbegin(); it != labels.cend(); ++it)
            key.append('\0').append(it.key()).append('\0').append(it.value().toUtf8());
        return key;
    }

    // Each series of a histogram: buckets in increasing le with counts that never drop,
    // +Inf last and equal to _count, and a _sum.
    static bool checkHistogram(
        const QByteArray &name, const PrometheusFamily &family, QString &error)
    {
        struct Series {
            QList<std::pair<double, double>> buckets; // le, cumulative count
            std::optional<double> sum;
            std::optional<double> count;
        };
        QMap<QByteArray, Series> series;
        const QString what = u"histogram "_s + QString::fromUtf8(name) + u": "_s;
        for (const PrometheusSample &sample : family.samples) {
            PrometheusLabels labels = sample.labels;
            const std::optional<QString> le
                = labels.contains("le") ? std::optional(labels.take("le")) : std::nullopt;
            Series &one = series[seriesKey({}, labels)];
            if (sample.name == name + "_bucket") {
                const std::optional<double> bound = le ? parseValue(le->toUtf8()) : std::nullopt;
                if (!bound || std::isnan(*bound)) {
                    error = what + u"a bucket without a numeric le"_s;
                    return false;
                }
                if (!one.buckets.isEmpty() && !(one.buckets.last().first < *bound)) {
                    error = what + u"le not increasing"_s;
                    return false;
                }
                if (!one.buckets.isEmpty() && sample.value < one.buckets.last().second) {
                    error = what + u"bucket counts not cumulative"_s;
                    return false;
                }
                one.buckets.append({ *bound, sample.value });
                continue;
            }
            if (le) {
                error = what + u"le on a sample that is not a bucket"_s;
                return false;
            }
            (sample.name == name + "_sum" ? one.sum : one.count) = sample.value;
        }
        for (const Series &one : std::as_const(series)) {
            if (one.buckets.isEmpty() || !std::isinf(one.buckets.last().first)) {
                error = what + u"no +Inf bucket"_s;
                return false;
            }
            if (!one.count || *one.count != one.buckets.last().second) {
                error = what + u"_count missing or unequal to the +Inf bucket"_s;
                return false;
            }
            if (!one.sum) {
                error = what + u"_sum missing"_s;
                return false;
            }
        }
        return true;
    }

    QByteArrayList m_order;
    QMap<QByteArray, PrometheusFamily> m_families;
    QByteArray m_current; // the family whose lines are being read
    QSet<QByteArray> m_seriesSeen;
};

inline std::optional<PrometheusText> PrometheusText::parse(QByteArrayView text, QString *error)
{
    const auto fail = [error](qsizetype lineNumber, const QString &why) {
        if (error)
            *error = lineNumber > 0 ? u"line %1: %2"_s.arg(lineNumber).arg(why) : why;
        return std::nullopt;
    };
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString decoded = utf8.decode(text); // decode() is lazy: the QString does the work
    if (utf8.hasError())
        return fail(0, u"not UTF-8"_s);
    if (!text.isEmpty() && !text.endsWith('\n'))
        return fail(0, u"the last line does not end with a newline"_s);
    PrometheusText result;
    qsizetype lineNumber = 0;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype end = text.indexOf('\n', start);
        const QByteArrayView line = text.sliced(start, end - start);
        start = end + 1;
        ++lineNumber;
        QString why;
        if (line.isEmpty())
            return fail(lineNumber, u"blank line"_s);
        const bool read = line.startsWith('#') ? result.readComment(line, why)
                                               : result.readSampleLine(line, why);
        if (!read)
            return fail(lineNumber, why);
    }
    for (auto it = result.m_families.begin(); it != result.m_families.end(); ++it) {
        if (it->type.isEmpty())
            it->type = "untyped";
        QString why;
        if (it->type == "histogram" && !checkHistogram(it.key(), *it, why))
            return fail(0, why);
    }
    return result;
}

} // namespace Presence::TestSupport
