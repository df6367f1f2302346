#include "tests/harness/RedisServer.h"

// C++
#include <algorithm>
#include <csignal>
// System
#include <sys/prctl.h>

// Qt
#include <QDeadlineTimer>
#include <QHostAddress>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>

// Presence
#include "tests/harness/EventLoopWait.h"

using namespace Qt::StringLiterals;
using Presence::Server::RedisUrl;

namespace {

constexpr int kStartAttempts = 5;

// A port nothing listens on right now: bound, then released.
quint16 freePort()
{
    QTcpServer server;
    return server.listen(QHostAddress::LocalHost, 0) ? server.serverPort() : 0;
}

std::chrono::milliseconds remaining(const QDeadlineTimer &deadline)
{
    return std::chrono::milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}

// Whether a Redis on `port` answers PING before `deadline`. The event loop runs meanwhile,
// so gateways and clients in the test keep going.
bool pingAnswers(quint16 port, const QDeadlineTimer &deadline)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    const auto settled = [&socket] {
        return socket.state() == QAbstractSocket::ConnectedState
            || socket.state() == QAbstractSocket::UnconnectedState;
    };
    if (!Harness::waitUntil(settled, remaining(deadline))
        || socket.state() != QAbstractSocket::ConnectedState)
        return false;
    socket.write("PING\r\n");
    QByteArray answer;
    const auto answered = [&] {
        answer += socket.readAll();
        return answer.contains('\n') || socket.state() != QAbstractSocket::ConnectedState;
    };
    (void)Harness::waitUntil(answered, remaining(deadline));
    return answer.startsWith("+PONG");
}

} // namespace

RedisServer::RedisServer()
{
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    // A test or a presence-test-redis that is killed never leaves its redis-server behind.
    // And it hears SIGTERM even if the one starting it blocks it (presence-test-redis does).
    m_process.setChildProcessModifier([] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
    });
}

RedisServer::~RedisServer()
{
    kill();
}

bool RedisServer::start(std::chrono::milliseconds deadline)
{
    // A free port may be taken again before redis-server binds it: then try another.
    for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
        const quint16 port = freePort();
        if (port && launch(port, deadline))
            return true;
    }
    return false;
}

bool RedisServer::restart(std::chrono::milliseconds deadline)
{
    if (!m_port) {
        m_error = u"restart() before start()"_s;
        return false;
    }
    stop();
    return launch(m_port, deadline);
}

bool RedisServer::launch(quint16 port, std::chrono::milliseconds deadline)
{
    const QString program = QStandardPaths::findExecutable(u"redis-server"_s);
    if (program.isEmpty()) {
        m_error
            = u"redis-server not found: install Debian's redis-server package (tools/test.sh does)"_s;
        return false;
    }
    if (!m_dir.isValid()) {
        m_error = u"no temporary directory: %1"_s.arg(m_dir.errorString());
        return false;
    }
    m_process.start(program,
        { u"--port"_s, QString::number(port), u"--bind"_s, u"127.0.0.1"_s, u"--save"_s, u""_s,
            u"--appendonly"_s, u"no"_s, u"--dir"_s, m_dir.path(), u"--daemonize"_s, u"no"_s,
            u"--loglevel"_s, u"warning"_s });
    if (!m_process.waitForStarted(int(deadline.count()))) {
        m_error = u"cannot start %1: %2"_s.arg(program, m_process.errorString());
        return false;
    }
    const QDeadlineTimer timer(deadline);
    const bool up = Harness::waitUntil(
        [&] { return m_process.state() == QProcess::NotRunning || pingAnswers(port, timer); },
        deadline);
    if (up && m_process.state() == QProcess::Running) {
        m_port = port;
        m_error.clear();
        return true;
    }
    m_error = u"redis-server on port %1 did not answer PING within %2 ms: %3"_s.arg(port)
                  .arg(deadline.count())
                  .arg(QString::fromLocal8Bit(m_process.readAll()));
    kill();
    return false;
}

void RedisServer::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000))
        kill();
}

void RedisServer::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(5000);
}

RedisUrl RedisServer::url(int db) const
{
    return RedisUrl { u"127.0.0.1"_s, m_port, db };
}

std::optional<RedisUrl> RedisServer::sharedFromEnvironment(QString *error)
{
    const QString text = qEnvironmentVariable("PRESENCE_TEST_REDIS_URL");
    if (text.isEmpty())
        return std::nullopt;
    QString why;
    auto url = RedisUrl::parse(text, &why);
    if (!url && error)
        *error = u"PRESENCE_TEST_REDIS_URL: "_s + why;
    return url;
}
