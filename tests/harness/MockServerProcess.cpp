#include "tests/harness/MockServerProcess.h"

// C++
#include <algorithm>
#include <chrono>
#include <csignal>
#include <utility>
// System
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

// Qt
#include <QFile>
#include <QRegularExpression>

// Presence
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// How long it may take to start, to print its listening line, to exit, or to say something.
constexpr std::chrono::milliseconds kWaitTimeout = 10s;
// How long a killed process may take to be gone.
constexpr std::chrono::milliseconds kKillTimeout = 5s;

// The environment variable, when set, reaches the binary as --option=VALUE unless the caller
// picked a value of its own.
QStringList withChoice(QStringList args, const char *variable, const QString &option)
{
    const QString value = qEnvironmentVariable(variable);
    const bool picked = std::any_of(
        args.cbegin(), args.cend(), [&](const QString &arg) { return arg.startsWith(option); });
    if (!value.isEmpty() && !picked)
        args.append(u"%1=%2"_s.arg(option, value));
    return args;
}

// PRESENCE_EVENT_LOOP=qt|epoll (the tests' *_qt_loop twins) and PRESENCE_TRANSPORT=qt|own (the
// *_qt_transport twins) reach the binary as --event-loop and --transport.
QStringList withEventLoop(QStringList args)
{
    return withChoice(withChoice(std::move(args), "PRESENCE_EVENT_LOOP", u"--event-loop"_s),
        "PRESENCE_TRANSPORT", u"--transport"_s);
}

} // namespace

MockServerProcess::MockServerProcess(const QString &program)
{
    m_process.setProgram(program);
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
}

MockServerProcess::~MockServerProcess()
{
    kill();
}

void MockServerProcess::disableCoreFile()
{
    m_process.setChildProcessModifier([] {
        const rlimit noCore { 0, 0 };
        ::setrlimit(RLIMIT_CORE, &noCore);
    });
}

bool MockServerProcess::start(const QStringList &args)
{
    m_process.setArguments(withEventLoop(args));
    m_process.start();
    return m_process.waitForStarted(int(kWaitTimeout.count()));
}

bool MockServerProcess::startServing(
    const QStringList &args, std::chrono::milliseconds timeout, QString *error)
{
    static const QRegularExpression listening(u"listening on (wss?://\\S+)"_s);
    static const QRegularExpression admin(u"admin API on (http://\\S+)"_s);
    m_process.setArguments(withEventLoop(args));
    m_process.start();
    if (!m_process.waitForStarted(int(timeout.count()))) {
        *error = u"cannot start %1: %2"_s.arg(m_process.program(), m_process.errorString());
        return false;
    }
    QRegularExpressionMatch ws;
    QRegularExpressionMatch http;
    const bool printed = Harness::waitUntil(
        [&] {
            collect();
            ws = listening.match(output());
            http = admin.match(output());
            return (ws.hasMatch() && http.hasMatch()) || m_process.state() == QProcess::NotRunning;
        },
        timeout);
    if (printed && ws.hasMatch() && http.hasMatch()) {
        m_webSocketUrl = QUrl(ws.captured(1));
        m_httpUrl = QUrl(http.captured(1));
        m_port = quint16(m_webSocketUrl.port());
        return true;
    }
    *error = u"%1 did not print its addresses: exit %2\n%3%4"_s.arg(m_process.program())
                 .arg(m_process.exitCode())
                 .arg(output(), errorOutput());
    stop();
    return false;
}

std::optional<quint16> MockServerProcess::waitListening()
{
    static const QRegularExpression listening(u"listening on (wss?)://127\\.0\\.0\\.1:(\\d+)/"_s);
    QRegularExpressionMatch match;
    (void)Harness::waitUntil(
        [&] {
            collect();
            match = listening.match(output());
            return match.hasMatch() || m_process.state() == QProcess::NotRunning;
        },
        kWaitTimeout);
    if (!match.hasMatch())
        return std::nullopt;
    m_port = quint16(match.captured(2).toUInt());
    m_webSocketUrl = QUrl(u"%1://127.0.0.1:%2/"_s.arg(match.captured(1)).arg(*m_port));
    return m_port;
}

bool MockServerProcess::waitFinished()
{
    const bool finished = Harness::waitUntil(
        [&] { return m_process.state() == QProcess::NotRunning; }, kWaitTimeout);
    collect();
    return finished;
}

bool MockServerProcess::waitErrorOutput(const QString &text)
{
    return Harness::waitUntil(
        [&] {
            collect();
            return errorOutput().contains(text);
        },
        kWaitTimeout);
}

void MockServerProcess::signal(int signalNumber)
{
    ::kill(pid_t(m_process.processId()), signalNumber);
}

void MockServerProcess::stop()
{
    Harness::stopProcess(m_process);
}

void MockServerProcess::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(int(kKillTimeout.count()));
}

QUrl MockServerProcess::url() const
{
    return m_port ? m_webSocketUrl : QUrl();
}

std::optional<double> MockServerProcess::cpuSeconds() const
{
    QFile file(u"/proc/%1/stat"_s.arg(pid()));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray line = file.readAll();
    // The command name (field 2) is in parentheses and may hold spaces: count from the last
    // ')'. After it come field 3 (state) onwards.
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

double MockServerProcess::residentMiB() const
{
    QFile file(u"/proc/%1/status"_s.arg(pid()));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024;
    }
    return -1;
}

QByteArray MockServerProcess::takeErrorOutput()
{
    collect();
    return std::exchange(m_stderr, {});
}

QByteArray MockServerProcess::transcript() const
{
    return "--- stdout:\n"_ba + m_stdout + "--- stderr:\n"_ba + m_stderr;
}

void MockServerProcess::collect()
{
    m_stdout += m_process.readAllStandardOutput();
    m_stderr += m_process.readAllStandardError();
}
