#pragma once

// C++
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <QUrl>

// Presence
#include "protocol/ClientMessages.h"
#include "server-mock/chat/ChatStore.h"
#include "server-mock/core/DeadlineSweep.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/presence/PresenceStore.h"
#include "server-mock/server/ChatRelay.h"
#include "server-mock/server/ClientConnection.h"
#include "server-mock/server/ConnectionRegistry.h"
#include "server-mock/server/FriendshipRelay.h"
#include "server-mock/server/GatewayConfig.h"
#include "server-mock/server/GatewayMetrics.h"
#include "server-mock/server/PresenceFanout.h"
#include "server-mock/transport/ConnectionRefusal.h"

namespace Presence::Server {

class ClientAcceptor;
class ClientTransport;

// The presence gateway, four jobs: accepts WebSocket clients through its transport's acceptor
// (ClientAcceptor: Origin, admission, caps), authenticates them against the user directory,
// hands their requests to the part that answers them (PresenceFanout for presence, ChatRelay for
// chat), and shuts down cleanly. Who is connected is kept by a ConnectionRegistry; who is
// friends with whom, live, by FriendshipRelay. QA (faults, simulated users) acts from outside
// through the seams below.
class Gateway : public QObject, private ClientConnection::Owner {
    Q_OBJECT
public:
    // Takes ownership of the stores, which the composition root chose (memory or Redis).
    Gateway(GatewayConfig config, UserDirectory directory, PresenceStore *store, ChatStore *chats,
        QObject *parent = nullptr);
    ~Gateway() override;

    // Starts listening on config.address:config.port (port 0 picks a free one).
    [[nodiscard]] bool listen(QString *error = nullptr);
    // A new TLS identity (a reload of the certificate), for connections from now on; those
    // open keep theirs. Only while serving wss://.
    void setTls(std::shared_ptr<const TlsContext> tls);
    [[nodiscard]] bool isSecure() const { return m_config.tls != nullptr; }
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] quint16 port() const;
    [[nodiscard]] const GatewayConfig &config() const { return m_config; }
    [[nodiscard]] const UserDirectory &directory() const { return m_directory; }

    // Who a token signs in: a users-file token, or a JSON Web Token when config().jwt is set,
    // whose subject is a user of the directory. Without a user, refusal says why (for the log;
    // it never quotes the token).
    struct SignIn {
        std::optional<int> userIndex;
        std::optional<std::chrono::milliseconds> expiresAt; // since the epoch; JWTs only
        QString refusal;
        // A JSON Web Token's subject the directory does not hold yet, with a friend source to
        // ask (FriendshipRelay::setFriendSource): the user signs in once read from it.
        QString newUser;
    };
    [[nodiscard]] SignIn authenticate(const QString &token) const;
    // Live friendships, population changes (the users file read again) and the friend source.
    [[nodiscard]] FriendshipRelay &friendships() { return m_friendships; }
    [[nodiscard]] const FriendshipRelay &friendships() const { return m_friendships; }
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

    // TCP connections held now, upgraded or not: what config.maxConnections caps.
    [[nodiscard]] int heldConnectionCount() const;

    // Asked for every TCP connection before its handshake: false refuses it with HTTP 503.
    using AdmissionCheck = std::function<bool()>;
    void setAdmissionCheck(AdmissionCheck check) { m_admissionCheck = std::move(check); }

    // Stops accepting and closes every connection with 1001: those not signed in at once, the
    // others evenly over config.drain. Reports shutdownFinished() once they are gone, or
    // config.shutdownTimeout after the last close. Called again while draining, closes the
    // rest at once (a second Ctrl+C).
    void shutdown();
    [[nodiscard]] bool isDraining() const { return m_drainTimer.isActive(); }

Q_SIGNALS:
    void connectionCountChanged(int count);
    // Signed in, before its welcome is sent.
    void connectionSignedIn(Presence::Server::ClientConnection *connection);
    void shutdownFinished();

private:
    // A client's WebSocket is open, from the acceptor: it becomes a connection.
    void addConnection(ClientTransport *transport);
    // ClientConnection::Owner
    void onHello(ClientConnection *connection, const Protocol::Hello &hello,
        const std::optional<QString> &ref) override;
    void onRequest(ClientConnection *connection, const Protocol::ClientMessage &request,
        const std::optional<QString> &ref) override;
    void onDisconnected(ClientConnection *connection) override;
    // Sign-in once the user is known: welcome, and the store hears of the device.
    void finishSignIn(ClientConnection *connection, int userIndex,
        std::optional<std::chrono::milliseconds> expiresAt, const Protocol::Hello &hello,
        const std::optional<QString> &ref);
    void handleFriends(ClientConnection *connection, const Protocol::FriendsRequest &request,
        const std::optional<QString> &ref);
    // A new token for the same user: the connection's expiry moves to the new token's.
    void handleRefresh(ClientConnection *connection, const Protocol::RefreshRequest &request,
        const std::optional<QString> &ref);
    void finishShutdownIfDone();
    // Closes as many of the draining connections as the time passed calls for; all of them
    // with `all`, or once config.drain is over.
    void drainSome(bool all = false);
    void closeForShutdown(ConnectionId id);
    void countRefusal(ConnectionRefusal reason);
    void registerGauges();
    void deleteDeparted() { m_departed.clear(); }

    GatewayConfig m_config;
    DeadlineSweep m_sweep; // every connection's deadlines
    GatewayMetrics m_metrics; // before the connections, which count into it
    UserDirectory m_directory;
    PresenceStore *m_store;
    // Our own transport's (WebSocketAcceptor) or Qt's (QtWebSocketAcceptor), from listen() on.
    ClientAcceptor *m_acceptor = nullptr;
    ConnectionRegistry m_connections; // the open ones, which the gateway owns
    // Ended connections, deleted on the loop's next turn: the transport that told of the end
    // may still be on the stack.
    std::vector<std::unique_ptr<ClientConnection>> m_departed;
    QTimer m_departedTimer;
    PresenceFanout m_presence;
    ChatRelay m_chat;
    FriendshipRelay m_friendships;
    AdmissionCheck m_admissionCheck;
    QSet<ConnectionId> m_readingSource; // hellos waiting for their user to be read
    bool m_shuttingDown = false;
    QTimer m_shutdownTimer;
    QTimer m_drainTimer;
    QElapsedTimer m_drainClock;
    std::vector<ConnectionId> m_draining; // in the order they are closed
    std::size_t m_drained = 0;
    bool m_shutdownDone = false; // shutdownFinished() told
};

} // namespace Presence::Server
