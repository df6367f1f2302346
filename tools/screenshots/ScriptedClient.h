#pragma once

// Qt
#include <QHash>
#include <QObject>
#include <QStringList>
#include <QUrl>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "session/GatewaySession.h"

namespace Presence::Tools {

// What one scripted user does, in this order: signs in with a status, sends messages to a
// friend one after the other (each acknowledged before the next), and waits until friends
// show the expected presence.
struct Script {
    QUrl server;
    QString token;
    Protocol::ChosenStatus status = Protocol::ChosenStatus::Online;
    QString to; // the friend the messages go to
    QStringList messages;
    QHash<QString, Protocol::PresenceStatus> expected; // friend id -> status to wait for
};

// One user of a scene, played through the client's own GatewaySession: tools/screenshots.sh
// starts one per friend it needs online, away or talking.
class ScriptedClient : public QObject {
    Q_OBJECT
public:
    explicit ScriptedClient(Script script, QObject *parent = nullptr);

    void start();
    // Closes the connection on purpose (the gateway publishes offline after its grace).
    void stop();

Q_SIGNALS:
    // Signed in, every message acknowledged, every expectation met.
    void finished();
    void failed(const QString &reason);

private:
    void onSignedIn();
    void sendNext();
    void onAcknowledged(const QString &ref);
    void onRefused(const QString &ref, const QString &code, const QString &message);
    void onPresence(const QList<Protocol::UserPresence> &presence);
    void finishIfDone();

    Script m_script;
    Session::GatewaySession m_session;
    qsizetype m_sent = 0; // messages acknowledged
    QString m_pendingRef;
    QHash<QString, Protocol::PresenceStatus> m_seen;
    bool m_signedIn = false;
    bool m_finished = false;
};

} // namespace Presence::Tools
