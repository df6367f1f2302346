// FaultSpec: a fault as the admin API and scenario files give it, as JSON text. Properties: a
// spec is read or refused with a reason; one that is read writes back (toJson) to JSON that
// reads to the same spec.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>

// Presence
#include "FuzzCheck.h"
#include "server-mock/qa/FaultSpec.h"

using Presence::Server::FaultSpec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!document.isObject())
        return 0;
    QString error;
    const std::optional<FaultSpec> spec = FaultSpec::fromJson(document.object(), &error);
    if (!spec) {
        fuzzCheck(!error.isEmpty(), "a refusal says why");
        return 0;
    }
    QString againError;
    const std::optional<FaultSpec> again = FaultSpec::fromJson(spec->toJson(), &againError);
    fuzzCheck(again.has_value(), "a spec read writes back to one that reads");
    fuzzCheck(*again == *spec, "and to the same spec");
    return 0;
}
