#pragma once

// C++
#include <chrono>
#include <cstdio>
#include <optional>
#include <utility>

// Qt
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

// Presence
#include "bench/DumpedPopulation.h"
#include "tests/harness/MockServerProcess.h"

namespace BenchSupport {

// The lines of a gateway's log that say warning or worse: it logs every sign-in as info, so a
// run is clean only when this is empty.
inline QStringList warningsOrWorse(const QByteArray &log)
{
    QStringList serious;
    for (const QByteArray &line : log.trimmed().split('\n')) {
        const QByteArray lower = line.toLower();
        if (lower.contains("warning") || lower.contains("critical") || lower.contains("error")
            || lower.contains("fatal"))
            serious.append(QString::fromUtf8(line));
    }
    return serious;
}

// A fresh presence-mock-server for one run of a benchmark: it generates its users and dumps
// them with their tokens into a temporary directory of its own. Every run of a benchmark must
// measure the same users, so the first run keeps the population and later runs check theirs
// against it.
class GeneratedGateway {
public:
    using Clock = std::chrono::steady_clock;

    explicit GeneratedGateway(const QString &binary)
        : m_server(binary)
    {
    }

    // A file beside the dumped users (an admin token file, say); empty when there is no
    // temporary directory.
    [[nodiscard]] QString filePath(const QString &name) const
    {
        return m_dir.isValid() ? m_dir.filePath(name) : QString();
    }

    // Starts it with `arguments` plus --dump-users, waits for its addresses and loads the
    // dump into `population`, or checks the dump against it. False, with the reason on stderr,
    // when any of that fails.
    [[nodiscard]] bool start(QStringList arguments, std::optional<DumpedPopulation> &population)
    {
        using namespace Qt::StringLiterals;
        if (!m_dir.isValid()) {
            std::fprintf(stderr, "no temporary directory\n");
            return false;
        }
        const QString usersFile = m_dir.filePath(u"users.json"_s);
        arguments << u"--dump-users"_s << usersFile;
        QString error;
        if (!m_server.startServing(arguments, std::chrono::seconds(60), &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return false;
        }
        m_servingSince = Clock::now();
        auto loaded = DumpedPopulation::load(usersFile, &error);
        if (!loaded) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return false;
        }
        if (!population) {
            population = std::move(loaded);
        } else if (loaded->digest != population->digest) {
            std::fprintf(stderr, "the gateway generated another population this time\n");
            return false;
        }
        return true;
    }

    // When it had printed its addresses: a gateway started with --churn starts churning just
    // before, so a window timed from here covers the same stretch of churn in every run.
    [[nodiscard]] Clock::time_point servingSince() const { return m_servingSince; }
    [[nodiscard]] MockServerProcess &server() { return m_server; }

private:
    QTemporaryDir m_dir;
    MockServerProcess m_server;
    Clock::time_point m_servingSince;
};

} // namespace BenchSupport
