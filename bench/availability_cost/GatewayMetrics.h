#pragma once

// C++
#include <functional>
#include <optional>

// Qt
#include <QByteArray>
#include <QHash>
#include <QString>
#include <QUrl>

namespace AvailabilityCostBench {

// The gateway's /metrics (Prometheus text): series name with its labels -> value.
using Metrics = QHash<QString, double>;

Metrics parseMetrics(const QByteArray &body);

// GET /metrics on the admin API at `http`; `done` gets the parsed answer, or nothing when the
// gateway does not answer 200 (the exchange gives up after 15 s).
void fetchMetrics(const QUrl &http, std::function<void(std::optional<Metrics>)> done);

} // namespace AvailabilityCostBench
