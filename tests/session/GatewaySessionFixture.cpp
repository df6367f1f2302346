#include "GatewaySessionFixture.h"

// C++
#include <chrono>
#include <type_traits>
#include <variant>

// Qt
#include <QWebSocket>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/Frame.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::Protocol::Backoff;
using Presence::Protocol::UserPresence;
using Presence::Session::GatewaySession;
using State = GatewaySession::State;

Backoff::Policy shortBackoff()
{
    Backoff::Policy policy;
    policy.floor = 10ms;
    policy.base = 50ms;
    policy.cap = 500ms;
    return policy;
}

GatewaySession::Options fastOptions()
{
    GatewaySession::Options options;
    options.backoff = shortBackoff();
    return options;
}

QList<TestUser> smallPopulation()
{
    return {
        { u"bob"_s, {} },
        { u"alice"_s, { u"dan"_s, u"bob"_s, u"cat"_s } },
        { u"cat"_s, {} },
        { u"eve"_s, {} },
        { u"dan"_s, {} },
    };
}

QList<State> statesOf(const QSignalSpy &spy)
{
    QList<State> states;
    for (const QList<QVariant> &args : spy)
        states.append(args.at(0).value<State>());
    return states;
}

QStringList sorted(QStringList ids)
{
    ids.sort();
    return ids;
}

QStringList sorted(const QSet<QString> &ids)
{
    return sorted(QStringList(ids.cbegin(), ids.cend()));
}

ScriptedGateway::ScriptedGateway()
    : m_server(u"scripted"_s, QWebSocketServer::NonSecureMode)
{
    QObject::connect(&m_server, &QWebSocketServer::newConnection, &m_server, [this] {
        while (QWebSocket *peer = m_server.nextPendingConnection()) {
            // QWebSocketServer hands its sockets over without a parent (unlike QTcpServer).
            peer->setParent(&m_server);
            m_peer = peer;
            QObject::connect(peer, &QWebSocket::textMessageReceived, &m_server,
                [this](const QString &text) { onText(text); });
        }
    });
    if (!m_server.listen(QHostAddress::LocalHost, 0))
        qWarning("scripted gateway cannot listen: %s", qPrintable(m_server.errorString()));
}

QUrl ScriptedGateway::url() const
{
    return QUrl(u"ws://127.0.0.1:%1/"_s.arg(m_server.serverPort()));
}

bool ScriptedGateway::peerConnected() const
{
    return m_peer && m_peer->state() == QAbstractSocket::ConnectedState;
}

void ScriptedGateway::send(const QJsonObject &message)
{
    sendText(QString::fromUtf8(Presence::Protocol::serializeFrame(message)));
}

void ScriptedGateway::sendText(const QString &text)
{
    m_peer->sendTextMessage(text);
}

void ScriptedGateway::sendBinary(const QByteArray &data)
{
    m_peer->sendBinaryMessage(data);
}

void ScriptedGateway::closePeer(quint16 code)
{
    m_peer->close(QWebSocketProtocol::CloseCode(code));
}

void ScriptedGateway::push(const UserPresence &presence)
{
    send(Presence::Protocol::toJson(Presence::Protocol::PresenceEvent { presence }));
}

void ScriptedGateway::onText(const QString &text)
{
    using namespace Presence::Protocol;
    const auto envelope = parseFrame(text);
    if (!envelope.ok())
        return;
    const auto decoded = decodeClientMessage(envelope.value());
    if (!decoded.ok())
        return;
    const auto ref = envelope.value().ref;
    std::visit(
        [&](const auto &message) {
            using T = std::decay_t<decltype(message)>;
            if constexpr (std::is_same_v<T, Hello>) {
                Welcome welcome;
                welcome.user = { u"alice"_s, u"Alice"_s };
                reply(toJson(welcome), ref);
            } else if constexpr (std::is_same_v<T, FriendsRequest>) {
                FriendsPage page;
                page.offset = message.offset;
                QStringList friends = snapshotOf.keys();
                friends.sort();
                page.total = int(friends.size());
                for (const QString &id : friends.mid(message.offset, message.limit))
                    page.items.append({ id, id });
                reply(toJson(page), ref);
            } else if constexpr (std::is_same_v<T, SubscribeRequest>) {
                for (const UserPresence &early : std::as_const(beforeSnapshot))
                    push(early);
                beforeSnapshot.clear();
                Snapshot snapshot;
                for (const QString &id : message.ids) {
                    const auto it = snapshotOf.constFind(id);
                    if (it == snapshotOf.constEnd()) {
                        snapshot.denied.append(id);
                    } else {
                        snapshot.users.append(*it);
                        m_subscribed.append(id);
                    }
                }
                reply(toJson(snapshot), ref);
            } else if constexpr (std::is_same_v<T, UnsubscribeRequest>) {
                for (const QString &id : message.ids)
                    m_subscribed.removeAll(id);
                reply(toJson(Ok {}), ref);
            } else if constexpr (std::is_same_v<T, PingRequest>) {
                reply(toJson(Pong {}), ref);
            } else {
                reply(toJson(Ok {}), ref);
            }
        },
        decoded.value());
}

void ScriptedGateway::reply(const QJsonObject &message, const std::optional<QString> &ref)
{
    sendText(QString::fromUtf8(Presence::Protocol::serializeFrame(message, ref)));
}
