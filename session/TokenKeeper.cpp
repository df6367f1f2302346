#include "session/TokenKeeper.h"

// Presence
#include "session/Logging.h"

namespace Presence::Session {

TokenKeeper::TokenKeeper(QObject *parent)
    : QObject(parent)
{
}

void TokenKeeper::setSource(TokenSource *source)
{
    if (m_source)
        m_source->disconnect(this);
    cancel();
    m_source = source;
    if (!source)
        return;
    connect(source, &TokenSource::tokenReady, this, &TokenKeeper::onTokenReady);
    connect(source, &TokenSource::tokenFailed, this, &TokenKeeper::onTokenFailed);
}

void TokenKeeper::beforeConnecting(std::function<void()> connect)
{
    cancel();
    if (!m_source) {
        connect();
        return;
    }
    m_waiting = Waiting::ToConnect;
    m_connect = std::move(connect);
    m_source->fetch();
}

void TokenKeeper::renew(std::function<QString(const QString &)> send)
{
    if (!m_source || m_waiting != Waiting::Nothing || !m_refreshRef.isEmpty())
        return;
    m_waiting = Waiting::ToRenew;
    m_send = std::move(send);
    m_source->fetch();
}

bool TokenKeeper::answered(const QString &ref, bool accepted)
{
    if (ref.isEmpty() || ref != m_refreshRef)
        return false;
    if (accepted) {
        m_token = m_refreshToken;
        qCInfo(lcSession) << "token refreshed";
    } else {
        // The old token stays in force until it ends; the next connection fetches again.
        qCWarning(lcSession) << "the gateway refused the refreshed token";
    }
    m_refreshRef.clear();
    m_refreshToken.clear();
    return true;
}

void TokenKeeper::cancel()
{
    m_waiting = Waiting::Nothing;
    m_connect = nullptr;
    m_send = nullptr;
    m_refreshRef.clear();
    m_refreshToken.clear();
}

void TokenKeeper::onTokenReady(const QString &token)
{
    const Waiting waiting = std::exchange(m_waiting, Waiting::Nothing);
    if (waiting == Waiting::ToConnect) {
        m_token = token;
        std::exchange(m_connect, nullptr)();
    } else if (waiting == Waiting::ToRenew) {
        m_refreshToken = token;
        m_refreshRef = std::exchange(m_send, nullptr)(token);
    }
}

void TokenKeeper::onTokenFailed(const QString &error)
{
    const Waiting waiting = std::exchange(m_waiting, Waiting::Nothing);
    if (waiting == Waiting::Nothing)
        return;
    qCWarning(lcSession) << "no new token:" << error;
    // Signing in with the token held may still work; a renewal just waits for the end.
    if (waiting == Waiting::ToConnect)
        std::exchange(m_connect, nullptr)();
    m_send = nullptr;
}

} // namespace Presence::Session
