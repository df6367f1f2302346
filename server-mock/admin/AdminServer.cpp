#include "server-mock/admin/AdminServer.h"

// C++
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <variant>

// Qt
#include <QByteArrayList>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QPointer>
#include <QSet>
#include <QTcpSocket>
#include <QUrlQuery>

// Presence
#include "protocol/Identifiers.h"
#include "protocol/ServerMessages.h"
#include "server-mock/admin/AdminBackend.h"
#include "server-mock/admin/Logging.h"
#include "server-mock/http/BearerToken.h"
#include "server-mock/http/GatedTcpServer.h"
#include "server-mock/http/HttpReply.h"
#include "server-mock/http/RequestContent.h"
#include "server-mock/qa/FaultSpec.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

using Method = QHttpServerRequest::Method;
using Request = const QHttpServerRequest &;
using Responder = QHttpServerResponder &&;

QByteArray methodName(Method method)
{
    switch (method) {
    case Method::Get:
        return "GET"_ba;
    case Method::Put:
        return "PUT"_ba;
    case Method::Delete:
        return "DELETE"_ba;
    case Method::Post:
        return "POST"_ba;
    case Method::Head:
        return "HEAD"_ba;
    case Method::Options:
        return "OPTIONS"_ba;
    case Method::Patch:
        return "PATCH"_ba;
    case Method::Connect:
        return "CONNECT"_ba;
    case Method::Trace:
        return "TRACE"_ba;
    default:
        return "an unknown method"_ba;
    }
}

// Answers and closes: each connection carries a single request (HttpRequestGate).
void send(QTcpSocket *socket, const HttpReply &reply)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return; // the client is gone; nobody waits for this answer any more
    qCDebug(lcAdmin) << "answered" << int(reply.status());
    socket->write(reply.toBytes());
    socket->disconnectFromHost();
}

// Whether the path takes the request's method; if not, answers 405 with the methods it takes.
bool allows(Request request, QTcpSocket *socket, std::initializer_list<Method> methods)
{
    if (std::find(methods.begin(), methods.end(), request.method()) != methods.end())
        return true;
    QByteArrayList names;
    for (const Method method : methods)
        names.append(methodName(method));
    const QByteArray allow = names.join(", ");
    send(socket,
        HttpReply::error(HttpStatus::MethodNotAllowed, "method_not_allowed"_L1,
            u"%1 is not allowed here; this path takes %2"_s.arg(
                QString::fromLatin1(methodName(request.method())), QString::fromLatin1(allow)))
            .withHeader("Allow"_ba, allow));
    return false;
}

// The body of a snapshot (docs/protocol.md §3) without its type: users in the order asked,
// and only those asked for and allowed, whatever the backend gave.
HttpReply presenceReply(const QStringList &allowed, const QList<Protocol::UserPresence> &found,
    const QStringList &denied)
{
    QHash<QString, Protocol::UserPresence> byId;
    for (const Protocol::UserPresence &presence : found)
        byId.insert(presence.id, presence);
    Protocol::Snapshot snapshot;
    for (const QString &id : allowed) {
        if (const auto it = byId.constFind(id); it != byId.constEnd())
            snapshot.users.append(*it);
    }
    snapshot.denied = denied;
    QJsonObject body = Protocol::toJson(snapshot);
    body.remove("type"_L1);
    return HttpReply::json(HttpStatus::Ok, body);
}

} // namespace

AdminServer::AdminServer(AdminBackend &backend, AdminServerOptions options, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
    , m_options(std::move(options))
    , m_rateLimiter(m_options.requestsPerSecond, m_options.requestBurst)
    , m_http(new QHttpServer(this))
    , m_listener(new GatedTcpServer(m_options.http, this))
{
    m_listener->setTls(m_options.tls);
    addRoutes();
}

void AdminServer::addRoutes()
{
    // Each path takes every method; the handler answers 405 for those it does not serve, so
    // that Allow can say which it does. Qt passes a path's <arg> percent-decoded. Answers are
    // written whole to the responder's socket (send()): the same bytes as the gate's refusals,
    // and an answer that comes later needs only the socket, not the move-only responder.
    m_http->route(u"/healthz"_s, [this](Request request, Responder responder) {
        if (admits(request, responder.socket(), { Method::Get }, Access::Anyone))
            health(responder.socket());
    });
    m_http->route(u"/metrics"_s, [this](Request request, Responder responder) {
        if (admits(request, responder.socket(), { Method::Get }, Access::Anyone))
            metrics(responder.socket());
    });
    m_http->route(u"/admin/users/<arg>/presence"_s,
        [this](const QString &userId, Request request, Responder responder) {
            if (admits(request, responder.socket(), { Method::Post }, Access::Admin))
                setPresence(userId, request, responder.socket());
        });
    m_http->route(u"/admin/users/<arg>/friends/<arg>"_s,
        [this](
            const QString &userId, const QString &friendId, Request request, Responder responder) {
            if (admits(request, responder.socket(), { Method::Put, Method::Delete }, Access::Admin))
                setFriendship(userId, friendId, request, responder.socket());
        });
    m_http->route(u"/admin/users/<arg>"_s,
        [this](const QString &userId, Request request, Responder responder) {
            if (admits(request, responder.socket(), { Method::Get }, Access::Admin))
                describeUser(userId, responder.socket());
        });
    m_http->route(u"/admin/reload"_s, [this](Request request, Responder responder) {
        if (admits(request, responder.socket(), { Method::Post }, Access::Admin))
            reloadUsers(responder.socket());
    });
    m_http->route(u"/admin/faults"_s, [this](Request request, Responder responder) {
        if (!admits(request, responder.socket(), { Method::Get, Method::Post }, Access::Admin))
            return;
        if (request.method() == Method::Get)
            listFaults(responder.socket());
        else
            startFault(request, responder.socket());
    });
    m_http->route(u"/admin/faults/<arg>"_s,
        [this](const QString &faultId, Request request, Responder responder) {
            if (admits(request, responder.socket(), { Method::Delete }, Access::Admin))
                endFault(faultId, responder.socket());
        });
    m_http->route(u"/api/heartbeat"_s, [this](Request request, Responder responder) {
        if (admits(request, responder.socket(), { Method::Post }, Access::Anyone))
            heartbeat(request, responder.socket());
    });
    m_http->route(u"/api/presence"_s, [this](Request request, Responder responder) {
        if (admits(request, responder.socket(), { Method::Get }, Access::Anyone))
            presence(request, responder.socket());
    });
    m_http->setMissingHandler([this](Request request, Responder responder) {
        QTcpSocket *socket = responder.socket();
        if (!withinRate(request, socket))
            return;
        // RFC 9110 §15.6.2: a method the server does not recognise at all is a 501.
        if (request.method() == Method::Unknown)
            return send(socket,
                HttpReply::error(HttpStatus::NotImplemented, "not_implemented"_L1,
                    u"unknown method; the API takes GET, POST, PUT and DELETE"_s));
        send(socket,
            HttpReply::error(HttpStatus::NotFound, "not_found"_L1,
                u"no endpoint %1 (see docs/admin-api.md)"_s.arg(
                    quotedFromRequest(request.url().path()))));
    });
}

bool AdminServer::listen(QString *error)
{
    if (m_listener->isListening())
        return true;
    if (!m_listener->listen(m_options.address, m_options.port)) {
        if (error)
            *error = u"cannot listen on %1:%2: %3"_s.arg(m_options.address.toString())
                         .arg(m_options.port)
                         .arg(m_listener->errorString());
        return false;
    }
    m_http->bind(m_listener);
    return true;
}

void AdminServer::setTls(const QSslConfiguration &tls)
{
    if (m_listener->isSecure()) // an http:// address stays one: clients were told it
        m_listener->setTls(tls);
}

quint16 AdminServer::port() const
{
    return m_listener->serverPort();
}

QUrl AdminServer::url() const
{
    QUrl url;
    url.setScheme(m_listener->isSecure() ? u"https"_s : u"http"_s);
    url.setHost(m_listener->serverAddress().toString());
    url.setPort(m_listener->serverPort());
    return url;
}

template <typename Method>
bool AdminServer::admits(const QHttpServerRequest &request, QTcpSocket *socket,
    std::initializer_list<Method> methods, Access access)
{
    return withinRate(request, socket) && allows(request, socket, methods)
        && (access == Access::Anyone || isAdmin(request, socket));
}

bool AdminServer::withinRate(const QHttpServerRequest &request, QTcpSocket *socket)
{
    qCDebug(lcAdmin).noquote() << methodName(request.method()) << request.url().path() << "from"
                               << request.remoteAddress().toString();
    std::chrono::milliseconds retryAfter { 0 };
    if (m_rateLimiter.admit(request.remoteAddress(), PeerRateLimiter::Clock::now(), &retryAfter))
        return true;
    const qint64 seconds = std::max<qint64>(1, qint64(std::ceil(retryAfter.count() / 1000.0)));
    send(socket,
        HttpReply::error(HttpStatus::TooManyRequests, "rate_limited"_L1,
            u"more than %1 requests per second from this address; try again in %2 s"_s
                .arg(m_options.requestsPerSecond)
                .arg(seconds))
            .withHeader("Retry-After"_ba, QByteArray::number(seconds)));
    return false;
}

bool AdminServer::isAdmin(const QHttpServerRequest &request, QTcpSocket *socket) const
{
    if (m_options.adminToken.isEmpty()) {
        send(socket,
            HttpReply::error(HttpStatus::Forbidden, "forbidden"_L1,
                u"admin API disabled: start with --admin-token"_s));
        return false;
    }
    const BearerToken bearer = BearerToken::fromHeader(request.value("Authorization"_ba));
    switch (bearer.status) {
    case BearerToken::Status::Missing:
        send(socket,
            HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1,
                u"this endpoint needs 'Authorization: Bearer <admin token>'"_s)
                .withHeader("WWW-Authenticate"_ba, "Bearer"_ba));
        return false;
    case BearerToken::Status::Malformed:
        send(socket,
            HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1,
                u"malformed Authorization header: expected 'Bearer <admin token>'"_s)
                .withHeader("WWW-Authenticate"_ba, "Bearer error=\"invalid_request\""_ba));
        return false;
    case BearerToken::Status::Present:
        break;
    }
    if (secretsEqual(bearer.token, m_options.adminToken))
        return true;
    // Authenticated, as a client: the credentials are valid but do not open this API.
    if (m_backend.userOfToken(bearer.token)) {
        send(socket,
            HttpReply::error(HttpStatus::Forbidden, "forbidden"_L1,
                u"a client token cannot use the admin API"_s));
        return false;
    }
    send(socket,
        HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1, u"wrong admin token"_s)
            .withHeader("WWW-Authenticate"_ba, "Bearer error=\"invalid_token\""_ba));
    return false;
}

std::optional<QString> AdminServer::clientUser(
    const QHttpServerRequest &request, QTcpSocket *socket) const
{
    const BearerToken bearer = BearerToken::fromHeader(request.value("Authorization"_ba));
    switch (bearer.status) {
    case BearerToken::Status::Missing:
        send(socket,
            HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1,
                u"this endpoint needs 'Authorization: Bearer <your token>'"_s)
                .withHeader("WWW-Authenticate"_ba, "Bearer"_ba));
        return std::nullopt;
    case BearerToken::Status::Malformed:
        send(socket,
            HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1,
                u"malformed Authorization header: expected 'Bearer <your token>'"_s)
                .withHeader("WWW-Authenticate"_ba, "Bearer error=\"invalid_request\""_ba));
        return std::nullopt;
    case BearerToken::Status::Present:
        break;
    }
    // The token is the only identity: no id in the path, query or body is ever believed.
    if (std::optional<QString> user = m_backend.userOfToken(bearer.token))
        return user;
    send(socket,
        HttpReply::error(HttpStatus::Unauthorized, "unauthorized"_L1, u"unknown token"_s)
            .withHeader("WWW-Authenticate"_ba, "Bearer error=\"invalid_token\""_ba));
    return std::nullopt;
}

bool AdminServer::isKnownUser(const QString &userId, QTcpSocket *socket) const
{
    if (!Protocol::isValidId(userId)) {
        send(socket, HttpReply::badRequest(invalidUserId(userId)));
        return false;
    }
    if (!m_backend.userExists(userId)) {
        send(socket,
            HttpReply::error(HttpStatus::NotFound, "not_found"_L1, u"no user '%1'"_s.arg(userId)));
        return false;
    }
    return true;
}

void AdminServer::health(QTcpSocket *socket) const
{
    bool ok = false;
    const QJsonObject body = m_backend.health(&ok);
    send(socket, HttpReply::json(ok ? HttpStatus::Ok : HttpStatus::ServiceUnavailable, body));
}

void AdminServer::metrics(QTcpSocket *socket) const
{
    send(socket,
        HttpReply(
            HttpStatus::Ok, "text/plain; version=0.0.4; charset=utf-8"_ba, m_backend.metrics()));
}

void AdminServer::setPresence(
    const QString &userId, const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (!isKnownUser(userId, socket))
        return;
    const auto presence = readSimulatedPresence(request.body());
    if (const auto *refusal = std::get_if<HttpReply>(&presence))
        return send(socket, *refusal);
    m_backend.simulatePresence(userId, std::get<SimulatedPresence>(presence).chosen);
    send(socket, HttpReply::noContent());
}

void AdminServer::describeUser(const QString &userId, QTcpSocket *socket)
{
    if (!isKnownUser(userId, socket))
        return;
    const QPointer<QTcpSocket> client(socket);
    // Dies with the connection, and with it the backend's answer, which nobody would read.
    auto *context = new QObject(socket);
    m_backend.describeUser(userId, context, [client, context](const QJsonObject &user) {
        context->deleteLater();
        send(client, HttpReply::json(HttpStatus::Ok, user));
    });
}

void AdminServer::setFriendship(const QString &userId, const QString &friendId,
    const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (!isKnownUser(userId, socket) || !isKnownUser(friendId, socket))
        return;
    if (userId == friendId)
        return send(socket, HttpReply::badRequest(u"a user cannot be their own friend"_s));
    const bool friends = request.method() == Method::Put;
    const bool changed = m_backend.setFriendship(userId, friendId, friends);
    send(socket,
        HttpReply::json(HttpStatus::Ok,
            QJsonObject { { "user"_L1, userId }, { "friend"_L1, friendId },
                { "friends"_L1, friends }, { "changed"_L1, changed } }));
}

void AdminServer::reloadUsers(QTcpSocket *socket)
{
    QString problem;
    bool fileError = false;
    const std::optional<QJsonObject> change = m_backend.reloadUsers(&problem, &fileError);
    if (!change)
        return send(socket,
            fileError
                ? HttpReply::error(HttpStatus::UnprocessableContent, "invalid_file"_L1, problem)
                : HttpReply::error(HttpStatus::Conflict, "conflict"_L1, problem));
    send(socket, HttpReply::json(HttpStatus::Ok, *change));
}

void AdminServer::listFaults(QTcpSocket *socket) const
{
    send(socket, HttpReply::json(HttpStatus::Ok, m_backend.faults()));
}

void AdminServer::startFault(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const auto body = readJsonObject(request.body());
    if (const auto *refusal = std::get_if<HttpReply>(&body))
        return send(socket, *refusal);
    QString problem;
    const std::optional<FaultSpec> fault
        = FaultSpec::fromJson(std::get<QJsonObject>(body), &problem);
    if (!fault)
        return send(socket, HttpReply::badRequest(problem));
    const QString faultId = m_backend.startFault(*fault, &problem);
    if (faultId.isEmpty())
        return send(socket,
            HttpReply::error(HttpStatus::Conflict, "conflict"_L1,
                problem.isEmpty() ? u"the gateway refused the fault"_s : problem));
    send(socket,
        HttpReply::json(HttpStatus::Created, QJsonObject { { "id"_L1, faultId } })
            .withHeader("Location"_ba, "/admin/faults/"_ba + QUrl::toPercentEncoding(faultId)));
}

void AdminServer::endFault(const QString &faultId, QTcpSocket *socket)
{
    if (!Protocol::isValidId(faultId))
        return send(socket,
            HttpReply::badRequest(u"'%1' is not a valid fault id (1-64 of A-Z a-z 0-9 . _ -)"_s.arg(
                quotedFromRequest(faultId))));
    if (!m_backend.endFault(faultId))
        return send(socket,
            HttpReply::error(
                HttpStatus::NotFound, "not_found"_L1, u"no fault '%1' is running"_s.arg(faultId)));
    send(socket, HttpReply::noContent());
}

void AdminServer::heartbeat(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const std::optional<QString> user = clientUser(request, socket);
    if (!user)
        return;
    m_backend.heartbeat(*user);
    send(socket,
        HttpReply::json(HttpStatus::Ok,
            QJsonObject {
                { "user"_L1, *user }, { "ttl_ms"_L1, qint64(m_options.heartbeatTtl.count()) } }));
}

void AdminServer::presence(const QHttpServerRequest &request, QTcpSocket *socket)
{
    const std::optional<QString> user = clientUser(request, socket);
    if (!user)
        return;
    const auto read = readIdList(request.query().allQueryItemValues(u"ids"_s, QUrl::FullyDecoded),
        m_options.maxIdsPerRequest);
    if (const auto *refusal = std::get_if<HttpReply>(&read))
        return send(socket, *refusal);
    const QStringList &ids = std::get<QStringList>(read);

    // As the WebSocket subscribe: strangers, unknown ids and oneself are denied alike, so
    // that the answer never tells whether someone exists. Duplicates count once.
    QStringList allowed;
    QStringList denied;
    QSet<QString> seen;
    for (const QString &id : ids) {
        if (seen.contains(id))
            continue;
        seen.insert(id);
        const bool isFriend
            = id != *user && m_backend.userExists(id) && m_backend.areFriends(*user, id);
        (isFriend ? allowed : denied).append(id);
    }
    if (allowed.isEmpty())
        return send(socket, presenceReply({}, {}, denied));
    const QPointer<QTcpSocket> client(socket);
    auto *context = new QObject(socket); // see describeUser
    m_backend.presenceOf(allowed, context,
        [client, context, allowed, denied](const QList<Protocol::UserPresence> &found) {
            context->deleteLater();
            send(client, presenceReply(allowed, found, denied));
        });
}

} // namespace Presence::Server
