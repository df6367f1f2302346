#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// Presence
#include "protocol/PresenceStatus.h"
#include "server-mock/qa/FaultSpec.h"

namespace Presence::Server {

// A timeline for presence-mock-server --scenario: JSON Lines, one step per line
// (docs/scenarios.md). Parsing checks everything that can be checked without the gateway;
// playing it is someone else's job.
class Scenario {
public:
    static constexpr int kMaxSteps = 100'000;
    static constexpr qsizetype kMaxLineBytes = 64 * 1024;
    static constexpr qsizetype kMaxFileBytes = 16 * 1024 * 1024;
    static constexpr std::chrono::milliseconds kMaxTime = std::chrono::hours(24);

    struct Step {
        enum class Action {
            SetStatus, // "online", "away", "invisible": user, status
            Offline, // user: every simulated device of the user goes
            Connect, // user, device, status
            Disconnect, // user, device
            StartFault, // faultId, fault, faultFor
            EndFault, // faultId
            Log, // text
        };

        std::chrono::milliseconds at { 0 }; // from the start of the scenario
        Action action = Action::Log;
        int line = 0; // in the file, so that whoever plays the step can say where it came from
        QString user;
        QString device;
        Protocol::ChosenStatus status = Protocol::ChosenStatus::Online;
        QString faultId;
        FaultSpec fault;
        // Set when the fault ends by itself this long after it started.
        std::optional<std::chrono::milliseconds> faultFor;
        QString text;
    };

    // Reads and parses the file; errors start with the path, then the line if there is one.
    [[nodiscard]] static std::optional<Scenario> load(const QString &path, QString *error);
    // nameForErrors starts each error message: "NAME:LINE: problem".
    [[nodiscard]] static std::optional<Scenario> parse(
        QByteArrayView text, const QString &nameForErrors, QString *error);

    // Sorted by time; steps at the same time keep their order in the file.
    [[nodiscard]] const QList<Step> &steps() const { return m_steps; }
    // Every user id the steps and their faults name, once each, in order of first mention in
    // the file: the parser has no directory, so the caller checks they exist.
    [[nodiscard]] QStringList userIds() const { return m_userIds; }
    // When the last thing happens: the latest step, or the automatic end of a fault.
    [[nodiscard]] std::chrono::milliseconds length() const { return m_length; }

private:
    QList<Step> m_steps;
    QStringList m_userIds;
    std::chrono::milliseconds m_length { 0 };
};

} // namespace Presence::Server
