#include "server-mock/transport/ListeningSocket.h"

// C++
#include <cerrno>
#include <cstring>
// System
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

// Qt
#include <QSocketNotifier>

using namespace Qt::StringLiterals;

namespace Presence::Server {

ListeningSocket::ListeningSocket(QObject *parent)
    : QObject(parent)
{
    m_resume.setSingleShot(true);
    m_resume.setInterval(kPauseAtLimit);
    connect(&m_resume, &QTimer::timeout, this, [this] {
        if (m_notifier)
            m_notifier->setEnabled(true);
    });
}

ListeningSocket::~ListeningSocket()
{
    close();
}

bool ListeningSocket::listen(const QHostAddress &address, quint16 port, QString *error)
{
    const auto fail = [&](const char *step) {
        if (error)
            *error = u"cannot listen on %1:%2: %3: %4"_s.arg(address.toString())
                         .arg(port)
                         .arg(QString::fromLatin1(step), QString::fromLocal8Bit(strerror(errno)));
        close();
        return false;
    };
    const bool v6 = address.protocol() == QAbstractSocket::IPv6Protocol;
    m_descriptor = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_descriptor < 0)
        return fail("socket");
    const int on = 1;
    ::setsockopt(m_descriptor, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    sockaddr_storage storage {};
    socklen_t length = 0;
    if (v6) {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(&storage);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        const Q_IPV6ADDR bytes = address.toIPv6Address();
        std::memcpy(&in6->sin6_addr, &bytes, sizeof(bytes));
        length = sizeof(sockaddr_in6);
    } else {
        auto *in4 = reinterpret_cast<sockaddr_in *>(&storage);
        in4->sin_family = AF_INET;
        in4->sin_port = htons(port);
        in4->sin_addr.s_addr = htonl(address.toIPv4Address());
        length = sizeof(sockaddr_in);
    }
    if (::bind(m_descriptor, reinterpret_cast<sockaddr *>(&storage), length) != 0)
        return fail("bind");
    if (::listen(m_descriptor, kBacklog) != 0)
        return fail("listen");
    length = sizeof(storage);
    ::getsockname(m_descriptor, reinterpret_cast<sockaddr *>(&storage), &length);
    m_address = address;
    m_port = ntohs(v6 ? reinterpret_cast<sockaddr_in6 *>(&storage)->sin6_port
                      : reinterpret_cast<sockaddr_in *>(&storage)->sin_port);
    m_reserve = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    m_notifier = new QSocketNotifier(m_descriptor, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &ListeningSocket::onReadable);
    return true;
}

void ListeningSocket::close()
{
    m_resume.stop();
    delete m_notifier; // before the descriptor it watches
    m_notifier = nullptr;
    if (m_descriptor >= 0)
        ::close(m_descriptor);
    if (m_reserve >= 0)
        ::close(m_reserve);
    m_descriptor = m_reserve = -1;
}

void ListeningSocket::onReadable()
{
    // A bounded batch per wake-up, so that a connect storm cannot starve everything else.
    for (int i = 0; i < 256 && m_descriptor >= 0; ++i) {
        const int descriptor
            = ::accept4(m_descriptor, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (descriptor >= 0) {
            Q_EMIT accepted(descriptor);
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED)
            continue;
        if (errno == EMFILE || errno == ENFILE)
            refuseOneAtLimit();
        return; // EAGAIN: no more waiting; anything else: try again on the next wake-up
    }
}

void ListeningSocket::refuseOneAtLimit()
{
    // Give up the reserve to take the waiting connection and close it: the peer hears at once
    // instead of waiting in the backlog, and the level-triggered notifier stops firing.
    if (m_reserve >= 0) {
        ::close(m_reserve);
        const int descriptor = ::accept4(m_descriptor, nullptr, nullptr, SOCK_CLOEXEC);
        if (descriptor >= 0) {
            ::close(descriptor);
            Q_EMIT refusedAtDescriptorLimit();
        }
        m_reserve = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    // Then a pause: descriptors come free as connections end.
    m_notifier->setEnabled(false);
    m_resume.start();
    Q_EMIT pausedAtDescriptorLimit();
}

} // namespace Presence::Server
