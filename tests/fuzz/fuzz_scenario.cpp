// Scenario: a QA scenario file, as any bytes. Properties: a file is loaded or refused with a
// message that names it; a loaded one's steps are in time order, within its length and its
// limits.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArrayView>
#include <QString>

// Presence
#include "FuzzCheck.h"
#include "server-mock/qa/Scenario.h"

using Presence::Server::Scenario;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString name = QStringLiteral("fuzz.scenario");
    QString error;
    const std::optional<Scenario> scenario = Scenario::parse(text, name, &error);
    if (!scenario) {
        fuzzCheck(error.contains(name), "a refusal names the file");
        return 0;
    }
    fuzzCheck(scenario->steps().size() <= Scenario::kMaxSteps, "steps within the limit");
    std::chrono::milliseconds last { 0 };
    for (const Scenario::Step &step : scenario->steps()) {
        fuzzCheck(step.at >= last, "steps in time order");
        fuzzCheck(step.at <= Scenario::kMaxTime, "steps within the time limit");
        last = step.at;
    }
    fuzzCheck(scenario->length() >= last, "the length covers every step");
    return 0;
}
