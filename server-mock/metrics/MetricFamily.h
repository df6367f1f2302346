#pragma once

// Qt
#include <QByteArray>
#include <QByteArrayList>
#include <QStringList>

namespace Presence::Server {

// What every metric family shares: a name, a help text, a type and the names of its labels;
// each series of a family is told apart by its label values, one per label name, in order.
// MetricsRegistry makes families and checks their names first, so a family trusts them.
class MetricFamily {
public:
    enum class Type { Counter, Gauge, Histogram };

    virtual ~MetricFamily();
    MetricFamily(const MetricFamily &) = delete;
    MetricFamily &operator=(const MetricFamily &) = delete;

    [[nodiscard]] const QByteArray &name() const { return m_name; }
    [[nodiscard]] const QByteArray &help() const { return m_help; }
    [[nodiscard]] Type type() const { return m_type; }
    [[nodiscard]] const QByteArrayList &labelNames() const { return m_labelNames; }
    // The names the family's sample lines use (a histogram writes three).
    [[nodiscard]] virtual QByteArrayList sampleNames() const { return { m_name }; }

    // Appends the family in the text format: # HELP, # TYPE, then one line per sample.
    void render(QByteArray &out) const;

protected:
    MetricFamily(QByteArray name, QByteArray help, Type type, QByteArrayList labelNames);

    // Whether labelValues names a series (one value per label name). Asking with the wrong
    // count is a programming error: it is logged, and the caller falls back to a series
    // that is never exported.
    [[nodiscard]] bool fits(const QStringList &labelValues) const;
    // Appends `sampleName{label="value",...} value` and a newline. extraLabel, when not
    // empty, goes last (a histogram's "le").
    void appendSample(QByteArray &out, QByteArrayView sampleName, const QStringList &labelValues,
        QByteArrayView value, QByteArrayView extraLabel = {}, QByteArrayView extraValue = {}) const;

private:
    virtual void renderSamples(QByteArray &out) const = 0;

    QByteArray m_name;
    QByteArray m_help;
    Type m_type;
    QByteArrayList m_labelNames;
};

} // namespace Presence::Server
