#pragma once

// C++
#include <chrono>
#include <functional>
#include <optional>

// Qt
#include <QObject>
#include <QTimer>
#include <QUrl>

// Presence
#include "protocol/ClientMessages.h"
#include "server-mock/chat/ChatStore.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/server/ChatRelay.h"
#include "server-mock/server/ConnectionRegistry.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/GatewayMetrics.h"
#include "server-mock/server/PresenceFanout.h"

class QTcpServer;
class QTcpSocket;
class QWebSocketServer;
class QWebSocketCorsAuthenticator;

namespace Presence::Server {

class ClientConnection;

// The presence gateway: accepts WebSocket clients (Origin checked), authenticates them against
// the user directory, hands their requests to the part that answers them (PresenceFanout for
// presence, ChatRelay for chat), and shuts down cleanly. Who is connected is kept by a
// ConnectionRegistry. QA (faults, simulated users) acts from outside through the seams below.
class Gateway : public QObject {
    Q_OBJECT
public:
    // Takes ownership of the stores, which the composition root chose (memory or Redis).
    Gateway(GatewayConfig config, UserDirectory directory, PresenceStore *store, ChatStore *chats,
        QObject *parent = nullptr);
    ~Gateway() override;

    // Starts listening on config.address:config.port (port 0 picks a free one).
    [[nodiscard]] bool listen(QString *error = nullptr);
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] quint16 port() const;
    [[nodiscard]] const GatewayConfig &config() const { return m_config; }
    [[nodiscard]] const UserDirectory &directory() const { return m_directory; }
    [[nodiscard]] PresenceStore *store() const { return m_store; }
    [[nodiscard]] ChatStore *chats() const { return m_chat.store(); }
    [[nodiscard]] GatewayMetrics &metrics() { return m_metrics; }
    [[nodiscard]] const ConnectionRegistry &connections() const { return m_connections; }
    [[nodiscard]] PresenceFanout &presence() { return m_presence; }

    [[nodiscard]] int connectionCount() const { return m_connections.count(); }
    [[nodiscard]] int authenticatedCount() const { return m_connections.authenticatedCount(); }
    // Test and admin hook: the users watched by any connection of userId, sorted.
    [[nodiscard]] QStringList subscriptionsOfUser(const QString &userId) const;
    [[nodiscard]] int watchedUserCount() const
    {
        return m_presence.subscriptions().watchedUserCount();
    }
    // Users the store follows for this gateway: watched exactly or covered by an availability set.
    [[nodiscard]] int followedUserCount() const { return m_presence.followedUserCount(); }
    [[nodiscard]] AvailabilityFanout &availability() { return m_presence.availability(); }
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
        return m_connections.hasUser(userId);
    }

    // Asked for every TCP connection before its handshake: false refuses it with HTTP 503.
    using AdmissionCheck = std::function<bool()>;
    void setAdmissionCheck(AdmissionCheck check) { m_admissionCheck = std::move(check); }
    // Holds a connection: it neither handles what it receives nor writes anything until it is
    // released, then catches up in order (QA stalls; what the peer sends waits in TCP).
    void hold(ClientConnection *connection);
    void release(ClientConnection *connection);

    // Stops accepting, closes every connection with 1001 and reports shutdownFinished()
    // once they are gone or config.shutdownTimeout has passed.
    void shutdown();

Q_SIGNALS:
    void connectionCountChanged(int count);
    // Signed in, before its welcome is sent.
    void connectionSignedIn(Presence::Server::ClientConnection *connection);
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
    void handleFriends(ClientConnection *connection, const Protocol::FriendsRequest &request,
        const std::optional<QString> &ref);
    // The TCP socket under a connection's QWebSocket, which does not expose it; nullptr if gone.
    [[nodiscard]] QTcpSocket *transportOf(const ClientConnection *connection) const;
    void finishShutdownIfDone();
    void registerGauges();

    GatewayConfig m_config;
    GatewayMetrics m_metrics; // before the connections, which count into it
    UserDirectory m_directory;
    PresenceStore *m_store;
    QTcpServer *m_listener; // accepts TCP, so that sockets get TCP_NODELAY before the handshake
    QWebSocketServer *m_server;
    ConnectionRegistry m_connections;
    PresenceFanout m_presence;
    ChatRelay m_chat;
    AdmissionCheck m_admissionCheck;
    bool m_shuttingDown = false;
    QTimer m_shutdownTimer;
};

} // namespace Presence::Server
