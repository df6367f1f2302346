#include "server-mock/app/UnixSignalWatcher.h"

// C++
#include <csignal>
// System
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QSocketNotifier>
#include <QtGlobal>

namespace Presence::Server {

namespace {

// The one piece of process-wide state a signal handler cannot do without.
volatile sig_atomic_t g_writeFd = -1;

void onSignal(int signalNumber)
{
    const unsigned char byte = static_cast<unsigned char>(signalNumber);
    if (g_writeFd >= 0) [[maybe_unused]]
        const auto written = ::write(g_writeFd, &byte, 1);
}

} // namespace

UnixSignalWatcher::UnixSignalWatcher(const QList<int> &signalNumbers, QObject *parent)
    : QObject(parent)
    , m_signals(signalNumbers)
{
    Q_ASSERT(g_writeFd == -1);
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, m_fds) != 0) {
        qWarning("cannot create the signal socket pair: signals will end the process at once");
        return;
    }
    g_writeFd = m_fds[0];
    m_notifier = new QSocketNotifier(m_fds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &UnixSignalWatcher::onReadable);

    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int number : std::as_const(m_signals))
        ::sigaction(number, &action, nullptr);
}

UnixSignalWatcher::~UnixSignalWatcher()
{
    for (const int number : std::as_const(m_signals))
        ::signal(number, SIG_DFL);
    g_writeFd = -1;
    for (const int fd : m_fds) {
        if (fd >= 0)
            ::close(fd);
    }
}

void UnixSignalWatcher::onReadable()
{
    unsigned char byte = 0;
    while (::read(m_fds[1], &byte, 1) == 1)
        Q_EMIT signalReceived(byte);
}

} // namespace Presence::Server
