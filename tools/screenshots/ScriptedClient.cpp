#include "tools/screenshots/ScriptedClient.h"

// Presence
#include "protocol/ClientMessages.h"

using namespace Qt::StringLiterals;

namespace Presence::Tools {

namespace {

Session::GatewaySession::Options sessionOptions()
{
    Session::GatewaySession::Options options;
    options.clientName = u"presence-scripted-client/" PRESENCE_VERSION ""_s;
    return options;
}

} // namespace

ScriptedClient::ScriptedClient(Script script, QObject *parent)
    : QObject(parent)
    , m_script(std::move(script))
    , m_session(sessionOptions())
{
    using Session::GatewaySession;
    connect(&m_session, &GatewaySession::signedIn, this, &ScriptedClient::onSignedIn);
    connect(&m_session, &GatewaySession::okReceived, this,
        [this](const QString &ref) { onAcknowledged(ref); });
    connect(&m_session, &GatewaySession::requestRefused, this, &ScriptedClient::onRefused);
    connect(&m_session, &GatewaySession::presenceReceived, this, &ScriptedClient::onPresence);
    connect(&m_session, &GatewaySession::stateChanged, this, [this](GatewaySession::State state) {
        if (state == GatewaySession::State::Failed)
            Q_EMIT failed(u"cannot sign in: %1"_s.arg(m_session.errorString()));
    });
    connect(&m_session, &GatewaySession::errorReceived, this,
        [this](const QString &code, const QString &message) {
            if (!m_finished)
                Q_EMIT failed(u"the gateway answered %1: %2"_s.arg(code, message));
        });
}

void ScriptedClient::start()
{
    // Set before connecting, so hello carries it: an away user never shows online first.
    m_session.setChosenStatus(m_script.status);
    m_session.open(m_script.server, m_script.token);
}

void ScriptedClient::stop()
{
    m_session.close();
}

void ScriptedClient::onSignedIn()
{
    if (m_signedIn)
        return; // reconnected: what was done stays done
    m_signedIn = true;
    if (!m_script.expected.isEmpty()) {
        const auto ids = m_script.expected.keys();
        m_session.setWanted(QSet<QString>(ids.cbegin(), ids.cend()));
    }
    sendNext();
}

void ScriptedClient::sendNext()
{
    if (m_sent < m_script.messages.size()) {
        m_pendingRef = m_session.request(
            toJson(Protocol::SendMessageRequest { m_script.to, m_script.messages.at(m_sent) }),
            u'm');
        if (m_pendingRef.isEmpty())
            Q_EMIT failed(u"not connected while sending"_s);
        return;
    }
    finishIfDone();
}

void ScriptedClient::onAcknowledged(const QString &ref)
{
    if (ref != m_pendingRef)
        return;
    m_pendingRef.clear();
    ++m_sent;
    sendNext();
}

void ScriptedClient::onRefused(const QString &ref, const QString &code, const QString &message)
{
    if (ref == m_pendingRef)
        Q_EMIT failed(
            u"message %1 to %2 refused (%3): %4"_s.arg(m_sent + 1).arg(m_script.to, code, message));
}

void ScriptedClient::onPresence(const QList<Protocol::UserPresence> &presence)
{
    for (const Protocol::UserPresence &p : presence)
        m_seen.insert(p.id, p.status);
    finishIfDone();
}

void ScriptedClient::finishIfDone()
{
    if (m_finished || !m_signedIn || m_sent < m_script.messages.size())
        return;
    for (auto it = m_script.expected.cbegin(); it != m_script.expected.cend(); ++it) {
        const auto seen = m_seen.constFind(it.key());
        if (seen == m_seen.cend() || *seen != it.value())
            return;
    }
    m_finished = true;
    Q_EMIT finished();
}

} // namespace Presence::Tools
