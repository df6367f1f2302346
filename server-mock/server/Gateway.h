#pragma once

#include "protocol/ClientMessages.h"
#include "server-mock/chat/ChatStore.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/presence/SubscriptionRegistry.h"
#include "server-mock/qa/FaultInjector.h"
#include "server-mock/qa/SimulatedUsers.h"
#include "server-mock/server/AvailabilityFanout.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/GatewayMetrics.h"
#include "server-mock/server/StoreInterest.h"

#include <QHash>
#include <QMultiHash>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>
#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;
class QWebSocketServer;
class QWebSocketCorsAuthenticator;

namespace Presence::Gateway {

class ClientConnection;

// The presence gateway: accepts WebSocket clients, authenticates them against the user
// directory, answers their requests, and pushes each published presence change to the
// connections subscribed to that user, and to nobody else. It also relays 1:1 chat messages
// between friends, kept by a ChatStore (in memory, or shared through Redis).
class Gateway : public QObject {
    Q_OBJECT
public:
    // Takes ownership of the stores; without them, presence and chats live in memory.
    Gateway(GatewayConfig config, UserDirectory directory, PresenceStore *store = nullptr,
        ChatStore *chats = nullptr, QObject *parent = nullptr);
    ~Gateway() override;

    // Starts listening on config.address:config.port (port 0 picks a free one).
    [[nodiscard]] bool listen(QString *error = nullptr);
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] quint16 port() const;
    [[nodiscard]] const GatewayConfig &config() const { return m_config; }
    [[nodiscard]] const UserDirectory &directory() const { return m_directory; }
    [[nodiscard]] PresenceStore *store() const { return m_store; }

    [[nodiscard]] int connectionCount() const { return int(m_connections.size()); }
    [[nodiscard]] int authenticatedCount() const;
    // Test and admin hook: the users watched by any connection of userId, sorted.
    [[nodiscard]] QStringList subscriptionsOfUser(const QString &userId) const;
    [[nodiscard]] int watchedUserCount() const { return m_subscriptions.watchedUserCount(); }
    // Users the store follows for this gateway: watched exactly or covered by an availability set.
    [[nodiscard]] int followedUserCount() const { return m_interest.followedCount(); }
    [[nodiscard]] AvailabilityFanout &availability() { return m_availability; }
    [[nodiscard]] ChatStore *chats() const { return m_chats; }
    // Users present without a connection (QA and demos); same rules and pushes as real ones.
    [[nodiscard]] SimulatedUsers &simulatedUsers() { return m_simulated; }
    [[nodiscard]] GatewayMetrics &metrics() { return m_metrics; }
    // Faults started on purpose (scenarios, admin API), acted upon here.
    [[nodiscard]] FaultInjector &faults() { return m_faults; }
    struct ConnectionView {
        ConnectionId id = 0;
        Protocol::ChosenStatus status = Protocol::ChosenStatus::Online;
        QString peer; // address:port
    };
    // userId's signed-in connections here, oldest first.
    [[nodiscard]] QList<ConnectionView> connectionsOf(const QString &userId) const;
    // The users whose connections here watch userId, sorted.
    [[nodiscard]] QStringList watchersOf(const QString &userId) const;
    // Whether userId has a signed-in WebSocket connection here.
    [[nodiscard]] bool hasConnectionOf(const QString &userId) const
    {
        return m_connectionsOfUser.contains(userId);
    }

    // Stops accepting, closes every connection with 1001 and reports shutdownFinished()
    // once they are gone or config.shutdownTimeout has passed.
    void shutdown();

Q_SIGNALS:
    void connectionCountChanged(int count);
    void shutdownFinished();

private:
    void onNewTcpConnection();
    void onNewConnection();
    void onOriginCheck(QWebSocketCorsAuthenticator *authenticator);
    void onHello(ClientConnection *connection, const Protocol::Hello &hello,
        const std::optional<QString> &ref);
    void onRequest(ClientConnection *connection, const Protocol::ClientMessage &request,
        const std::optional<QString> &ref);
    void onDisconnected(ClientConnection *connection);
    void onStoreReset();
    // Every connection gets a digest of what it should hold (docs/protocol.md §4).
    void sendDigests();
    // One store read of everything watched here, then `each` for every connection still here
    // with what it watches, as read; `finished` after the last.
    using WatchedRead
        = std::function<void(ClientConnection *, const QList<Protocol::UserPresence> &)>;
    void readWatchedThen(const WatchedRead &each, const std::function<void()> &finished = {});
    void onPresencePublished(const Protocol::UserPresence &presence);
    void onFaultStarted(const QString &id, const FaultSpec &fault);
    void onFaultEnded(const QString &id, const FaultSpec &fault);
    // The running delay and stall faults, as they concern this connection.
    void applyFaults(ClientConnection *connection);
    // The TCP socket under a connection's QWebSocket, which does not expose it; nullptr if gone.
    [[nodiscard]] QTcpSocket *transportOf(const ClientConnection *connection) const;
    // Connections a fault naming `userId` (empty: everybody) acts on, safe to act on one by one.
    [[nodiscard]] QList<QPointer<ClientConnection>> connectionsFor(const QString &userId) const;
    void sendPresence(const Protocol::UserPresence &presence);
    void flushReordered();
    void onChatMessageArrived(const QString &userId, const Protocol::ChatMessage &message);
    // Pushes a message to every connection here of its two users, except `except` (the sender's
    // connection, which gets an ok instead).
    void deliverMessage(const Protocol::ChatMessage &message, const ClientConnection *except);

    void handleFriends(ClientConnection *connection, const Protocol::FriendsRequest &request,
        const std::optional<QString> &ref);
    void handleSubscribe(ClientConnection *connection, const Protocol::SubscribeRequest &request,
        const std::optional<QString> &ref);
    void handleUnsubscribe(ClientConnection *connection,
        const Protocol::UnsubscribeRequest &request, const std::optional<QString> &ref);
    void handleSetStatus(ClientConnection *connection, const Protocol::SetStatusRequest &request,
        const std::optional<QString> &ref);
    void handleSendMessage(ClientConnection *connection,
        const Protocol::SendMessageRequest &request, const std::optional<QString> &ref);
    void handleHistory(ClientConnection *connection, const Protocol::HistoryRequest &request,
        const std::optional<QString> &ref);
    void handleConversations(ClientConnection *connection,
        const Protocol::ConversationsRequest &request, const std::optional<QString> &ref);
    void handleRead(ClientConnection *connection, const Protocol::ReadRequest &request,
        const std::optional<QString> &ref);
    // Tells every connection of userId here that their read marker moved.
    void onReadMarkerMoved(const QString &userId, const Protocol::ReadMarkerEvent &marker);
    void handleWatchAvailability(ClientConnection *connection, const std::optional<QString> &ref);
    // Whether the user of connection and otherId are friends (false for unknown ids).
    [[nodiscard]] bool isFriend(const ClientConnection *connection, const QString &otherId) const;
    // Sends too_many_ids and returns false when a request names more ids than allowed.
    bool withinIdLimit(
        ClientConnection *connection, const QStringList &ids, const std::optional<QString> &ref);
    void finishShutdownIfDone();
    void registerGauges();

    GatewayConfig m_config;
    GatewayMetrics m_metrics; // before the connections, which count into it
    UserDirectory m_directory;
    PresenceStore *m_store;
    QTcpServer *m_listener; // accepts TCP, so that sockets get TCP_NODELAY before the handshake
    QWebSocketServer *m_server;
    SubscriptionRegistry m_subscriptions;
    StoreInterest m_interest; // what the store follows: subscriptions and availability sets
    AvailabilityFanout m_availability;
    QHash<ConnectionId, ClientConnection *> m_connections;
    QMultiHash<QString, ClientConnection *> m_connectionsOfUser; // authenticated ones only
    ChatStore *m_chats;
    SimulatedUsers m_simulated;
    FaultInjector m_faults;
    QHash<QString, Protocol::UserPresence> m_reordered; // held by a reorder fault, per user
    QTimer m_reorderTimer;
    ConnectionId m_nextConnectionId = 1;
    bool m_shuttingDown = false;
    QTimer m_digestTimer;
    bool m_digestReadPending = false;
    QTimer m_shutdownTimer;
};

} // namespace Presence::Gateway
