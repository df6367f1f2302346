#pragma once

// C++
#include <chrono>

// Qt
#include <QtGlobal>

namespace Presence::Server {

// The close code of a connection dropped for not reading its output (docs/protocol.md).
inline constexpr quint16 kSlowConsumerCloseCode = 4010;

// What our own WebSocket transport allows one connection (docs/protocol.md, "Limits").
struct TransportLimits {
    // A frame or a reassembled message larger than this is refused from its header: 1009.
    qsizetype maxMessageBytes = 65'536;
    // Output the peer has not read yet, pongs and close frames included; past either bound
    // the connection is dropped (4010, slow consumer).
    qint64 maxQueuedBytes = 4 * 65'536 + (1 << 20);
    qsizetype maxQueuedFrames = 8'192;
    // The kernel's send buffer of each connection (SO_SNDBUF; Linux keeps twice this for its
    // bookkeeping). Left to autotune it grows to 4 MiB on loopback: a peer that stops reading
    // would leave that much more unread, in kernel memory, before our bound is reached.
    int kernelSendBufferBytes = 128 * 1024;
    // The upgrade request: its head at most this large, and complete within the timeout.
    qsizetype maxUpgradeBytes = 8'192;
    std::chrono::milliseconds upgradeTimeout { 5'000 };
};

} // namespace Presence::Server
