#pragma once

// C++
#include <initializer_list>
#include <optional>

// Qt
#include <QObject>
#include <QString>
#include <QUrl>

// Presence
#include "server-mock/admin/AdminServerOptions.h"
#include "server-mock/http/PeerRateLimiter.h"

class QHttpServer;
class QHttpServerRequest;
class QTcpSocket;

namespace Presence::Server {

class AdminBackend;
class GatedTcpServer;

// The gateway's HTTP side (docs/admin-api.md):
// - GET /healthz and GET /metrics, without credentials, for monitoring;
// - /admin/… with the admin token, for QA tooling: simulated presence, a user's state, faults;
// - /api/… with a client's own token, for clients that cannot hold a WebSocket: heartbeat and
//   the presence of friends. The token alone says who the client is.
// It parses, authorises and limits requests (body and head size, ids per request, requests
// per second per peer address); AdminBackend, the gateway, does the rest. Answers are JSON
// (but /metrics), errors {"error":{"code":"…","message":"…"}}, one request per connection.
//
// Bound to anything but loopback, the admin endpoints are open to whoever can reach the
// address, guarded by the token alone over plain HTTP (AdminServerOptions::address).
class AdminServer : public QObject {
    Q_OBJECT
public:
    // backend must outlive the server.
    AdminServer(AdminBackend &backend, AdminServerOptions options, QObject *parent = nullptr);

    // Starts listening on options().address and port; false with *error when it cannot.
    [[nodiscard]] bool listen(QString *error = nullptr);
    // A new HTTPS identity (a reload), for connections from now on; only while serving HTTPS.
    void setTls(const QSslConfiguration &tls);
    // The port listened on (the one picked, for port 0); 0 before listen().
    [[nodiscard]] quint16 port() const;
    // http://address:port, without a path.
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] const AdminServerOptions &options() const { return m_options; }

private:
    void addRoutes();

    // Who may call a route: anyone (health, metrics, the client API with its own token), or
    // only a holder of the admin token.
    enum class Access { Anyone, Admin };

    // Each of these answers (and closes) when it returns false or nullopt.
    // Every route's guard, in this order: the peer's rate (429), the method (405), the admin
    // token where `access` asks for it (401).
    // (A template over QHttpServerRequest::Method, defined in the .cpp: QHttpServer's headers
    // stay out of this one.)
    template <typename Method>
    bool admits(const QHttpServerRequest &request, QTcpSocket *socket,
        std::initializer_list<Method> methods, Access access);
    bool withinRate(const QHttpServerRequest &request, QTcpSocket *socket);
    bool isAdmin(const QHttpServerRequest &request, QTcpSocket *socket) const;
    std::optional<QString> clientUser(const QHttpServerRequest &request, QTcpSocket *socket) const;
    bool isKnownUser(const QString &userId, QTcpSocket *socket) const;

    void health(QTcpSocket *socket) const;
    void metrics(QTcpSocket *socket) const;
    void setPresence(const QString &userId, const QHttpServerRequest &request, QTcpSocket *socket);
    void describeUser(const QString &userId, QTcpSocket *socket);
    void setFriendship(const QString &userId, const QString &friendId,
        const QHttpServerRequest &request, QTcpSocket *socket);
    void reloadUsers(QTcpSocket *socket);
    void listFaults(QTcpSocket *socket) const;
    void startFault(const QHttpServerRequest &request, QTcpSocket *socket);
    void endFault(const QString &faultId, QTcpSocket *socket);
    void heartbeat(const QHttpServerRequest &request, QTcpSocket *socket);
    void presence(const QHttpServerRequest &request, QTcpSocket *socket);

    AdminBackend &m_backend;
    AdminServerOptions m_options;
    PeerRateLimiter m_rateLimiter;
    QHttpServer *m_http;
    GatedTcpServer *m_listener;
};

} // namespace Presence::Server
