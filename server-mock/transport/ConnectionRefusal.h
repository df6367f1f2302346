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
};

inline constexpr ConnectionRefusal kConnectionRefusals[] = { ConnectionRefusal::Unavailable,
    ConnectionRefusal::Full, ConnectionRefusal::AddressFull, ConnectionRefusal::UpgradesPending,
    ConnectionRefusal::DescriptorLimit, ConnectionRefusal::BadUpgrade, ConnectionRefusal::Origin,
    ConnectionRefusal::UpgradeTimeout };

inline QByteArray refusalName(ConnectionRefusal refusal)
{
    switch (refusal) {
    case ConnectionRefusal::Unavailable:
        return QByteArrayLiteral("unavailable");
    case ConnectionRefusal::Full:
        return QByteArrayLiteral("full");
    case ConnectionRefusal::AddressFull:
        return QByteArrayLiteral("address_full");
    case ConnectionRefusal::UpgradesPending:
        return QByteArrayLiteral("upgrades_pending");
    case ConnectionRefusal::DescriptorLimit:
        return QByteArrayLiteral("descriptor_limit");
    case ConnectionRefusal::BadUpgrade:
        return QByteArrayLiteral("bad_upgrade");
    case ConnectionRefusal::Origin:
        return QByteArrayLiteral("origin");
    case ConnectionRefusal::UpgradeTimeout:
        return QByteArrayLiteral("upgrade_timeout");
    }
    return QByteArrayLiteral("unknown");
}

} // namespace Presence::Server
