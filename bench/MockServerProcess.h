#pragma once

#include "EventLoopWait.h"

// The real presence-mock-server as a child process of a benchmark: started with the given
// arguments, its WebSocket and HTTP addresses read from what it prints, its CPU time and
// memory read from /proc, and stopped with SIGTERM (killed if it does not exit).

#include <unistd.h>

#include <chrono>
#include <optional>

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>
#include <QUrl>

namespace PushPollingBench {

class MockServerProcess {
public:
    explicit MockServerProcess(QString program)
    {
        m_process.setProgram(std::move(program));
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
    }
    ~MockServerProcess() { stop(); }
    MockServerProcess(const MockServerProcess &) = delete;
    MockServerProcess &operator=(const MockServerProcess &) = delete;

    // Starts it and waits until it has printed both "admin API on http://…" and "listening
    // on ws://…"; false with *error (its output included) otherwise.
    [[nodiscard]] bool start(
        const QStringList &arguments, std::chrono::milliseconds timeout, QString *error)
    {
        using namespace Qt::StringLiterals;
        static const QRegularExpression listening(u"listening on (ws://\\S+)"_s);
        static const QRegularExpression admin(u"admin API on (http://\\S+)"_s);
        m_process.setArguments(arguments);
        m_process.start();
        if (!m_process.waitForStarted(int(timeout.count()))) {
            *error = u"cannot start %1: %2"_s.arg(m_process.program(), m_process.errorString());
            return false;
        }
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < timeout.count()) {
            m_stdout += m_process.readAllStandardOutput();
            const QString text = QString::fromUtf8(m_stdout);
            const auto ws = listening.match(text);
            const auto http = admin.match(text);
            if (ws.hasMatch() && http.hasMatch()) {
                m_webSocketUrl = QUrl(ws.captured(1));
                m_httpUrl = QUrl(http.captured(1));
                return true;
            }
            if (m_process.state() == QProcess::NotRunning)
                break;
            m_process.waitForReadyRead(100);
        }
        *error = u"%1 did not print its addresses: exit %2\n%3%4"_s.arg(m_process.program())
                     .arg(m_process.exitCode())
                     .arg(QString::fromUtf8(m_stdout),
                         QString::fromUtf8(m_process.readAllStandardError()));
        stop();
        return false;
    }

    // SIGTERM (the gateway closes its clients with 1001 and exits), then SIGKILL after 5 s.
    void stop() { BenchSupport::stopProcess(m_process); }

    [[nodiscard]] QUrl webSocketUrl() const { return m_webSocketUrl; }
    [[nodiscard]] QUrl httpUrl() const { return m_httpUrl; }
    [[nodiscard]] qint64 pid() const { return m_process.processId(); }
    [[nodiscard]] bool isRunning() const { return m_process.state() == QProcess::Running; }

    // utime + stime of the process (all its threads) in seconds, from /proc/PID/stat
    // (fields 14 and 15, in clock ticks); nullopt if it cannot be read.
    [[nodiscard]] std::optional<double> cpuSeconds() const
    {
        QFile file(QStringLiteral("/proc/%1/stat").arg(pid()));
        if (!file.open(QIODevice::ReadOnly))
            return std::nullopt;
        const QByteArray line = file.readAll();
        // The command name (field 2) is in parentheses and may hold spaces: count from the
        // last ')'. After it come field 3 (state) onwards.
        const qsizetype close = line.lastIndexOf(')');
        if (close < 0)
            return std::nullopt;
        const QList<QByteArray> fields = line.mid(close + 2).split(' ');
        if (fields.size() < 13)
            return std::nullopt;
        bool userOk = false;
        bool systemOk = false;
        const double user = double(fields.at(11).toULongLong(&userOk)); // field 14
        const double system = double(fields.at(12).toULongLong(&systemOk)); // field 15
        if (!userOk || !systemOk)
            return std::nullopt;
        return (user + system) / double(sysconf(_SC_CLK_TCK));
    }

    // VmRSS of the process in MiB, or -1.
    [[nodiscard]] double residentMiB() const
    {
        QFile file(QStringLiteral("/proc/%1/status").arg(pid()));
        if (!file.open(QIODevice::ReadOnly))
            return -1;
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (line.startsWith("VmRSS:"))
                return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
        }
        return -1;
    }

    // What it printed on stderr so far (warnings), for the report.
    [[nodiscard]] QByteArray takeErrorOutput() { return m_process.readAllStandardError(); }

private:
    QProcess m_process;
    QByteArray m_stdout;
    QUrl m_webSocketUrl;
    QUrl m_httpUrl;
};

} // namespace PushPollingBench
