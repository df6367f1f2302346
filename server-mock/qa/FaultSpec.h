#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QJsonObject>
#include <QString>

namespace Presence::Server {

// What a fault does to the gateway; the JSON field "kind" spells it in lower case.
enum class FaultKind { Drop, Close, Delay, Stall, Duplicate, Reorder, Lose, Refuse, Crash };

[[nodiscard]] QString toString(FaultKind kind);
[[nodiscard]] std::optional<FaultKind> faultKindFromString(QStringView text);

// One fault to inject, as a scenario step or POST /admin/faults gives it
// (docs/scenarios.md). Only the fields of its kind mean anything; the others stay empty.
struct FaultSpec {
    static constexpr qint64 kMaxDelayMs = 60'000;
    static constexpr qsizetype kMaxReasonBytes = 123; // what fits in a close frame (RFC 6455 5.5)
    static constexpr double kMaxRefuseSeconds = 3600;

    FaultKind kind = FaultKind::Drop;
    // drop, close, delay: empty means every connection; stall, duplicate, reorder, lose:
    // required.
    QString user;
    quint16 code = 0; // close
    QString reason; // close
    std::chrono::milliseconds delay { 0 }; // delay: each outgoing frame
    std::chrono::duration<double> refuseFor { 0 }; // refuse: how long new connections are refused

    // nullopt with *error a sentence naming the field, fit to show a person as it is.
    [[nodiscard]] static std::optional<FaultSpec> fromJson(const QJsonObject &json, QString *error);
    [[nodiscard]] QJsonObject toJson() const;

    // A code a server may put in a close frame: 1000-1003, 1007-1011, 3000-4999.
    [[nodiscard]] static bool isSendableCloseCode(qint64 code);

    friend bool operator==(const FaultSpec &, const FaultSpec &) = default;
};

} // namespace Presence::Server
