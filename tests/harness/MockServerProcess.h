#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

// One presence-mock-server process, run as a user runs it, for the tests and the benchmarks of
// the real binary. What it prints is collected while a caller waits on it; its CPU time and
// memory are read from /proc. The destructor kills it if it still runs, so a test that fails
// half-way never leaves a server behind. The binary's path is the caller's own (its
// PRESENCE_MOCK_SERVER compile definition). PRESENCE_EVENT_LOOP in the environment is passed on
// as --event-loop unless the arguments name one.
class MockServerProcess {
public:
    explicit MockServerProcess(const QString &program);
    ~MockServerProcess();
    MockServerProcess(const MockServerProcess &) = delete;
    MockServerProcess &operator=(const MockServerProcess &) = delete;

    // A crash the test asks for leaves no core file behind; call before start().
    void disableCoreFile();
    // Starts it with `args`; false if it has not started within 10 s.
    [[nodiscard]] bool start(const QStringList &args);
    // Starts it with `args` and waits until it has printed both "admin API on http://…" and
    // "listening on ws://…" (url() and httpUrl() then hold them); false with *error (its
    // output included) otherwise, and it is stopped.
    [[nodiscard]] bool startServing(
        const QStringList &args, std::chrono::milliseconds timeout, QString *error);

    // The port of its "listening on ws://127.0.0.1:PORT/" line once it is printed; nullopt when
    // the process exits first or 10 s pass. The event loop runs meanwhile.
    [[nodiscard]] std::optional<quint16> waitListening();
    // Runs the event loop (clients in this process keep talking) until the process has exited;
    // false after 10 s.
    [[nodiscard]] bool waitFinished();
    // Runs the event loop until its standard error contains `text`; false after 10 s.
    [[nodiscard]] bool waitErrorOutput(const QString &text);

    // Sends it a signal (SIGTERM, SIGINT, ...).
    void signal(int signalNumber);
    // SIGTERM (the gateway closes its clients with 1001 and exits), then SIGKILL after 5 s.
    void stop();
    // SIGKILL, and waits until it has gone: it dies without closing anything or telling Redis.
    void kill();

    // ws://127.0.0.1:PORT/ once waitListening() or startServing() has seen it; empty before.
    [[nodiscard]] QUrl url() const;
    // http://127.0.0.1:PORT/ of the admin API once startServing() has seen it; empty before.
    [[nodiscard]] QUrl httpUrl() const { return m_httpUrl; }
    [[nodiscard]] qint64 pid() const { return m_process.processId(); }
    [[nodiscard]] bool isRunning() const { return m_process.state() == QProcess::Running; }
    // utime + stime of the process (all its threads) in seconds, from /proc/PID/stat; nullopt
    // if it cannot be read.
    [[nodiscard]] std::optional<double> cpuSeconds() const;
    // VmRSS of the process in MiB, or -1.
    [[nodiscard]] double residentMiB() const;

    [[nodiscard]] QString output() const { return QString::fromUtf8(m_stdout); }
    [[nodiscard]] QString errorOutput() const { return QString::fromUtf8(m_stderr); }
    // What it printed on stderr since the last take (warnings), for a report.
    [[nodiscard]] QByteArray takeErrorOutput();
    // Both channels, for failure messages.
    [[nodiscard]] QByteArray transcript() const;
    QProcess &process() { return m_process; }
    // The environment the next start() runs the binary in (the test's own by default).
    void setEnvironment(const QProcessEnvironment &environment)
    {
        m_process.setProcessEnvironment(environment);
    }

private:
    void collect();

    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
    std::optional<quint16> m_port;
    QUrl m_webSocketUrl;
    QUrl m_httpUrl;
};
