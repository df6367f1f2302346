#include "session/TokenKeeper.h"

// Presence
#include "session/Logging.h"

namespace Presence::Session {

TokenKeeper::TokenKeeper(QObject *parent)
    : QObject(parent)
{
    m_refetch.setSingleShot(true);
    connect(&m_refetch, &QTimer::timeout, this, [this] {
        if (m_source && m_send && m_waiting == Waiting::Nothing && m_refreshRef.isEmpty()) {
            m_waiting = Waiting::ToRenew;
            m_source->fetch();
        }
    });
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

void TokenKeeper::renew(std::chrono::milliseconds in, std::function<QString(const QString &)> send)
{
    if (!m_source || m_waiting != Waiting::Nothing || !m_refreshRef.isEmpty())
        return;
    m_refetch.stop();
    m_renewBy = QDeadlineTimer(in);
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
        m_send = nullptr; // renewed: the gateway warns again for the new token if need be
        qCInfo(lcSession) << "token refreshed";
    } else {
        // The old token stays in force until it ends; the source may yet give a good one.
        qCWarning(lcSession) << "the gateway refused the refreshed token";
        m_refused = m_refreshToken;
    }
    m_refreshRef.clear();
    m_refreshToken.clear();
    if (!accepted)
        refetchLater();
    return true;
}

void TokenKeeper::cancel()
{
    m_waiting = Waiting::Nothing;
    m_connect = nullptr;
    m_send = nullptr;
    m_refetch.stop();
    m_refreshRef.clear();
    m_refreshToken.clear();
}

void TokenKeeper::onTokenReady(const QString &token)
{
    const Waiting waiting = std::exchange(m_waiting, Waiting::Nothing);
    if (waiting == Waiting::ToConnect) {
        m_token = token;
        std::exchange(m_connect, nullptr)();
    } else if (waiting == Waiting::ToRenew && m_send) {
        // The gateway holds this one already, or refused it: sending it would change nothing.
        if (token == m_token || token == m_refused) {
            qCDebug(lcSession) << "the token source has no new token yet";
            refetchLater();
            return;
        }
        m_refreshToken = token;
        m_refreshRef = m_send(token);
    }
}

void TokenKeeper::onTokenFailed(const QString &error)
{
    const Waiting waiting = std::exchange(m_waiting, Waiting::Nothing);
    if (waiting == Waiting::Nothing)
        return;
    qCWarning(lcSession) << "no new token:" << error;
    // Signing in with the token held may still work; a renewal tries again later.
    if (waiting == Waiting::ToConnect)
        std::exchange(m_connect, nullptr)();
    else
        refetchLater();
}

void TokenKeeper::refetchLater()
{
    const std::chrono::milliseconds delay(m_renewBy.remainingTime() / 2);
    if (!m_send || delay < kMinRefetchDelay) {
        m_send = nullptr; // the end comes first: the next connection fetches again
        return;
    }
    m_refetch.start(delay);
}

} // namespace Presence::Session
