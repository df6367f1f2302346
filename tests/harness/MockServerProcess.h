#pragma once

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

// One presence-mock-server process, run as a user runs it, for the tests of the real binary.
// What it prints is collected while a test waits on it. The destructor kills it if it still
// runs, so a test that fails half-way never leaves a server behind. The binary's path is the
// test's own (its PRESENCE_MOCK_SERVER compile definition).
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
    // SIGKILL, and waits until it has gone: it dies without closing anything or telling Redis.
    void kill();

    // ws://127.0.0.1:PORT/ once waitListening() has seen the port; empty before.
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] QString output() const { return QString::fromUtf8(m_stdout); }
    [[nodiscard]] QString errorOutput() const { return QString::fromUtf8(m_stderr); }
    // Both channels, for failure messages.
    [[nodiscard]] QByteArray transcript() const;
    QProcess &process() { return m_process; }

private:
    void collect();

    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
    std::optional<quint16> m_port;
};
