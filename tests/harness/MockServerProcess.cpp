#include "MockServerProcess.h"

#include <QRegularExpression>
#include <QTest>

#include <chrono>
#include <csignal>
#include <sys/resource.h>
#include <sys/types.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {

// How long it may take to start, to print its listening line, to exit, or to say something.
constexpr std::chrono::milliseconds kWaitTimeout = 10s;
// How long a killed process may take to be gone.
constexpr std::chrono::milliseconds kKillTimeout = 5s;

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
    m_process.setArguments(args);
    m_process.start();
    return m_process.waitForStarted(int(kWaitTimeout.count()));
}

std::optional<quint16> MockServerProcess::waitListening()
{
    static const QRegularExpression listening(u"listening on ws://127\\.0\\.0\\.1:(\\d+)/"_s);
    QRegularExpressionMatch match;
    (void)QTest::qWaitFor(
        [&] {
            collect();
            match = listening.match(output());
            return match.hasMatch() || m_process.state() == QProcess::NotRunning;
        },
        int(kWaitTimeout.count()));
    if (!match.hasMatch())
        return std::nullopt;
    m_port = quint16(match.captured(1).toUInt());
    return m_port;
}

bool MockServerProcess::waitFinished()
{
    const bool finished = QTest::qWaitFor(
        [&] { return m_process.state() == QProcess::NotRunning; }, int(kWaitTimeout.count()));
    collect();
    return finished;
}

bool MockServerProcess::waitErrorOutput(const QString &text)
{
    return QTest::qWaitFor(
        [&] {
            collect();
            return errorOutput().contains(text);
        },
        int(kWaitTimeout.count()));
}

void MockServerProcess::signal(int signalNumber)
{
    ::kill(pid_t(m_process.processId()), signalNumber);
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
    if (!m_port)
        return {};
    return QUrl(u"ws://127.0.0.1:%1/"_s.arg(*m_port));
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
