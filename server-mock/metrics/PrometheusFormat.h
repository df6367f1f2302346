#pragma once

// Qt
#include <QByteArray>
#include <QByteArrayView>
#include <QStringView>

// The pieces of the Prometheus text exposition format (version 0.0.4) that every metric
// family writes: name checks, escaping and numbers.
namespace Presence::Server::PrometheusFormat {

// [a-zA-Z_:][a-zA-Z0-9_:]*
[[nodiscard]] bool isValidMetricName(QByteArrayView name);
// [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" (reserved for Prometheus itself).
[[nodiscard]] bool isValidLabelName(QByteArrayView name);

// HELP text: backslash and newline escaped.
void appendEscapedHelp(QByteArray &out, QByteArrayView help);
// A label value as UTF-8 with backslash, double quote and newline escaped.
void appendEscapedLabelValue(QByteArray &out, QStringView value);

// A sample value Prometheus parses back to the same double: whole numbers without an
// exponent (up to 2^53), others in the shortest form that round-trips, as Go's client
// library writes them; "NaN", "+Inf", "-Inf".
[[nodiscard]] QByteArray formatValue(double value);

} // namespace Presence::Server::PrometheusFormat
