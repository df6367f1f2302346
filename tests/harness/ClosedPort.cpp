#include "tests/harness/ClosedPort.h"

// System
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

ClosedPort::ClosedPort()
{
    // No SO_REUSEADDR, so that nobody else can bind the port while it is held.
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0)
        return;
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
        || ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        release();
        return;
    }
    m_port = ntohs(address.sin_port);
}

ClosedPort::~ClosedPort()
{
    release();
}

QUrl ClosedPort::url() const
{
    return QUrl(QStringLiteral("ws://127.0.0.1:%1/").arg(m_port));
}

void ClosedPort::release()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}
