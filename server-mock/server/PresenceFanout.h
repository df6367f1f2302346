#pragma once

// C++
#include <functional>
#include <optional>
#include <span>
#include <vector>

// Qt
#include <QObject>

// Presence
#include "protocol/ClientMessages.h"
#include "server-mock/core/SlicedRounds.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/presence/SubscriptionRegistry.h"
#include "server-mock/server/AvailabilityFanout.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/StoreInterest.h"

namespace Presence::Server {

class ClientConnection;
class ConnectionRegistry;
class GatewayMetrics;
class UserDirectory;

// Presence on this gateway: what each connection watches (subscriptions and availability
// sets), what the store follows because of it, and the pushes, digests and reset snapshots
// that keep every watcher's dots true. Changes reach a connection only if it watches that user.
class PresenceFanout : public QObject {
    Q_OBJECT
public:
    // All but the store (which it does not own) must outlive the fan-out.
    PresenceFanout(const GatewayConfig &config, const UserDirectory &directory,
        PresenceStore *store, const ConnectionRegistry &connections, GatewayMetrics &metrics,
        QObject *parent = nullptr);

    // A connection signed in, or left; the store learns of the device.
    void connectionOpened(const ClientConnection *connection);
    void connectionClosed(const ClientConnection *connection);

    void subscribe(ClientConnection *connection, const Protocol::SubscribeRequest &request,
        const std::optional<QString> &ref);
    void unsubscribe(ClientConnection *connection, const Protocol::UnsubscribeRequest &request,
        const std::optional<QString> &ref);
    void setStatus(ClientConnection *connection, const Protocol::SetStatusRequest &request,
        const std::optional<QString> &ref);
    void watchAvailability(ClientConnection *connection, const std::optional<QString> &ref);
    // The connection's user has other friends now: it stops watching `removed`, and its
    // availability watch ends, since what it covers (the first friends in friends order)
    // moved. Telling the connection is the caller's.
    void friendsChanged(const ClientConnection *connection, const QStringList &removed);
    void unwatchAvailability(ClientConnection *connection, const std::optional<QString> &ref);

    // Sends one change to its watchers here.
    using Push = std::function<void(const Protocol::UserPresence &)>;
    // Stands between each published change and its pushes to watchers (QA faults): the hook
    // may call push zero or more times, now or later. Availability sets, metrics and digests
    // still see every change as the store published it. Unset: pushed at once.
    using PushHook = std::function<void(const Protocol::UserPresence &, const Push &push)>;
    void setPushHook(PushHook hook) { m_pushHook = std::move(hook); }

    [[nodiscard]] const SubscriptionRegistry &subscriptions() const { return m_subscriptions; }
    [[nodiscard]] AvailabilityFanout &availability() { return m_availability; }
    // Users the store follows for this gateway: watched exactly or covered by an availability set.
    [[nodiscard]] int followedUserCount() const { return m_interest.followedCount(); }

private:
    void onPresencePublished(const Protocol::UserPresence &presence);
    void push(const Protocol::UserPresence &presence);
    void onStoreReset();
    // One store read of everything `connections` watch, then `each` for every one of them still
    // here with what it watches, as read; `finished` after the last.
    using WatchedRead
        = std::function<void(ClientConnection *, const QList<Protocol::UserPresence> &)>;
    void readWatchedThen(std::vector<ConnectionId> connections, const WatchedRead &each,
        const std::function<void()> &finished = {});
    // Every connection gets a digest of what it should hold (docs/protocol.md §4), a slice of
    // connections at a time, each slice with its own store read.
    void sendDigests(std::span<const ConnectionId> slice, const std::function<void()> &done);
    // Sends too_many_ids and returns false when a request names more ids than allowed.
    bool withinIdLimit(
        ClientConnection *connection, const QStringList &ids, const std::optional<QString> &ref);

    const GatewayConfig &m_config;
    const UserDirectory &m_directory;
    PresenceStore *m_store;
    const ConnectionRegistry &m_connections;
    GatewayMetrics &m_metrics;
    SubscriptionRegistry m_subscriptions;
    StoreInterest m_interest; // what the store follows: subscriptions and availability sets
    AvailabilityFanout m_availability;
    SlicedRounds m_digests;
    PushHook m_pushHook;
};

} // namespace Presence::Server
