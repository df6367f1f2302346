#pragma once

// C++
#include <optional>

// Qt
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QSignalSpy>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QWebSocketServer>

// Presence
#include "GatewayFixture.h"
#include "protocol/Backoff.h"
#include "protocol/ServerMessages.h"
#include "session/GatewaySession.h"

class QWebSocket;

// What the tests of GatewaySession (tst_gateway_session_*) share: short retries, alice's small
// population, the states a spy saw, ids sorted, and a scripted stand-in for the gateway.

// Short delays so reconnect scenarios take milliseconds; a floor below the base so every
// attempt's window is wide enough to show jitter.
Presence::Protocol::Backoff::Policy shortBackoff();
// Session options with shortBackoff().
Presence::Session::GatewaySession::Options fastOptions();

// Alice's friends in users-file order (bob, cat, dan); eve is a stranger.
QList<TestUser> smallPopulation();

// The states a stateChanged spy saw, in order.
QList<Presence::Session::GatewaySession::State> statesOf(const QSignalSpy &spy);

QStringList sorted(QStringList ids);
QStringList sorted(const QSet<QString> &ids);

// A stand-in for the gateway that follows a script: it answers hello, friends, subscribe,
// unsubscribe and ping correctly, and then sends whatever a test tells it to, including
// frames the real gateway never sends (stale seqs, garbage, unknown types).
class ScriptedGateway {
public:
    ScriptedGateway();

    [[nodiscard]] QUrl url() const;
    [[nodiscard]] bool peerConnected() const;
    [[nodiscard]] const QStringList &subscribed() const { return m_subscribed; }

    void send(const QJsonObject &message);
    void sendText(const QString &text);
    void sendBinary(const QByteArray &data);
    void closePeer(quint16 code);
    void push(const Presence::Protocol::UserPresence &presence);

    // What a snapshot says of each friend; ids not in here are denied.
    QHash<QString, Presence::Protocol::UserPresence> snapshotOf;
    // Pushes sent just before the snapshot reply: a push overtaking a snapshot in flight.
    QList<Presence::Protocol::UserPresence> beforeSnapshot;

private:
    void onText(const QString &text);
    void reply(const QJsonObject &message, const std::optional<QString> &ref);

    QWebSocketServer m_server;
    QWebSocket *m_peer = nullptr;
    QStringList m_subscribed;
};
