#pragma once

// C++
#include <chrono>
#include <functional>

// Qt
#include <QDeadlineTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

// Presence
#include "session/TokenSource.h"

namespace Presence::Session {

// The token a GatewaySession signs in with, and the next one when it runs out. With a
// TokenSource, a fresh token is fetched before every connection (a laptop that slept past
// its token's end signs in again by itself) and when the gateway says the token is expiring
// (then sent as a `refresh`). Without one, the token given is the only one.
//
// A refresh carries only a token the gateway does not hold already, and none twice: a source
// that still gives the old token (a token file not renewed yet) sends nothing, and is asked
// again at half of what is left each time until the end, so that a token renewed late still
// comes in time.
class TokenKeeper : public QObject {
    Q_OBJECT
public:
    // No source is asked again closer than this to the end, nor more often.
    static constexpr std::chrono::milliseconds kMinRefetchDelay { 250 };

    explicit TokenKeeper(QObject *parent = nullptr);

    // A token given anew (a sign-in) is tried, even one the gateway ended before.
    void setToken(const QString &token)
    {
        m_token = token;
        m_ended.clear();
    }
    [[nodiscard]] const QString &token() const { return m_token; }
    // Not owned; nullptr for none.
    void setSource(TokenSource *source);
    [[nodiscard]] bool hasSource() const { return m_source != nullptr; }

    // Calls connect() once the token to sign in with is at hand: fetched from the source, or
    // (without one, or when it fails) the one held. Replaces anything under way.
    void beforeConnecting(std::function<void()> connect);
    // The gateway says the token ends in `in`: fetches a new one and hands it to send(), which
    // sends the refresh and returns its ref. Nothing without a source, or while one is under way.
    void renew(std::chrono::milliseconds in, std::function<QString(const QString &token)> send);
    // The gateway's answer to a request with ref: true when it was our refresh (accepted makes
    // its token the one held).
    bool answered(const QString &ref, bool accepted);
    // The gateway closed the connection because the token held ran out (4004).
    void markEnded() { m_ended = m_token; }
    // The token held is one the gateway ended: signing in with it again would only be refused.
    [[nodiscard]] bool hasEnded() const { return !m_ended.isEmpty() && m_ended == m_token; }
    // The connection is gone: what was under way for it is dropped (the held token stays).
    void cancel();

private:
    enum class Waiting { Nothing, ToConnect, ToRenew };

    void onTokenReady(const QString &token);
    void onTokenFailed(const QString &error);
    // No new token yet: the source is asked again when half of what is left has passed.
    void refetchLater();

    QString m_token;
    QPointer<TokenSource> m_source;
    Waiting m_waiting = Waiting::Nothing;
    std::function<void()> m_connect;
    std::function<QString(const QString &)> m_send; // while renewing
    QDeadlineTimer m_renewBy; // the end the gateway announced
    QTimer m_refetch;
    QString m_refreshRef; // the refresh sent, until answered
    QString m_refreshToken; // its token
    QString m_refused; // the last token the gateway refused as a refresh: not sent again
    QString m_ended; // the last token the gateway closed the connection for (4004)
};

} // namespace Presence::Session
