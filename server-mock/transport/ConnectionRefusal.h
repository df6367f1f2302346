#pragma once

// Qt
#include <QByteArray>

namespace Presence::Server {

// Why a TCP connection was refused before it became a WebSocket connection: the label of
// presence_connections_refused_total (docs/admin-api.md).
enum class ConnectionRefusal {
    Unavailable, // shutting down, or refused by QA's fault injection: 503
    Full, // --max-connections reached: 503
    AddressFull, // --max-connections-per-address reached: 503
    UpgradesPending, // too many upgrades pending at once: 503
    DescriptorLimit, // no descriptor left to hold it: closed at once
    BadUpgrade, // not a valid WebSocket upgrade: 400, 426 and the like
    Origin, // a browser page from an origin not allowed: 403
    UpgradeTimeout, // the upgrade request was not complete in time: 408
    TlsHandshake, // wss:// only: the TLS handshake failed (not TLS, or not trusted): closed
};

inline constexpr int kConnectionRefusalCount = int(ConnectionRefusal::TlsHandshake) + 1;

// The label value of each reason, in the enum's order.
inline constexpr const char *kConnectionRefusalNames[kConnectionRefusalCount]
    = { "unavailable", "full", "address_full", "upgrades_pending", "descriptor_limit",
          "bad_upgrade", "origin", "upgrade_timeout", "tls_handshake" };

inline QByteArray refusalName(ConnectionRefusal refusal)
{
    return QByteArray(kConnectionRefusalNames[int(refusal)]);
}

} // namespace Presence::Server
