#pragma once

// What the kernel counted on this process's TCP sockets (Linux TCP_INFO): payload bytes each
// way and segments each way, exact, whatever the application layer above them (WebSocket
// frames, pings and pongs, handshakes) did.

// C++
#include <cstddef>
#include <optional>
// System
#include <arpa/inet.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

// Qt
#include <QDir>
#include <QStringList>

namespace PushPollingBench {

struct TcpCounters {
    quint64 bytesSent = 0; // tcpi_bytes_acked: payload sent and acknowledged
    quint64 bytesReceived = 0; // tcpi_bytes_received
    quint64 segmentsOut = 0; // tcpi_segs_out, handshake and pure ACKs included
    quint64 segmentsIn = 0; // tcpi_segs_in
    int sockets = 0;

    TcpCounters &operator+=(const TcpCounters &other)
    {
        bytesSent += other.bytesSent;
        bytesReceived += other.bytesReceived;
        segmentsOut += other.segmentsOut;
        segmentsIn += other.segmentsIn;
        sockets += other.sockets;
        return *this;
    }
};

// The counters of one TCP socket, or nullopt if fd is not one (or TCP_INFO is unavailable).
inline std::optional<TcpCounters> tcpCounters(int fd)
{
    if (fd < 0)
        return std::nullopt;
    tcp_info info {};
    socklen_t size = sizeof(info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0
        || size < offsetof(tcp_info, tcpi_segs_in) + sizeof(info.tcpi_segs_in))
        return std::nullopt;
    return TcpCounters { info.tcpi_bytes_acked, info.tcpi_bytes_received, info.tcpi_segs_out,
        info.tcpi_segs_in, 1 };
}

// The sum over this process's IPv4 TCP sockets connected to 127.0.0.1:port (found through
// /proc/self/fd).
inline TcpCounters tcpCountersOfConnectionsTo(quint16 port)
{
    TcpCounters total;
    // Every descriptor; those that are not sockets fail getpeername (ENOTSOCK).
    const QStringList names
        = QDir(QStringLiteral("/proc/self/fd"))
              .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        bool ok = false;
        const int fd = name.toInt(&ok);
        if (!ok)
            continue;
        sockaddr_in peer {};
        socklen_t length = sizeof(peer);
        if (getpeername(fd, reinterpret_cast<sockaddr *>(&peer), &length) != 0
            || peer.sin_family != AF_INET || ntohs(peer.sin_port) != port
            || ntohl(peer.sin_addr.s_addr) != INADDR_LOOPBACK)
            continue;
        if (const auto counters = tcpCounters(fd))
            total += *counters;
    }
    return total;
}

} // namespace PushPollingBench
