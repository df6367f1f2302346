#pragma once

// C++
#include <functional>

// Qt
#include <QObject>
#include <QPointer>
#include <QString>

// Presence
#include "session/TokenSource.h"

namespace Presence::Session {

// The token a GatewaySession signs in with, and the next one when it runs out. With a
// TokenSource, a fresh token is fetched before every connection (a laptop that slept past
// its token's end signs in again by itself) and when the gateway says the token is expiring
// (then sent as a `refresh`). Without one, the token given is the only one.
class TokenKeeper : public QObject {
    Q_OBJECT
public:
    explicit TokenKeeper(QObject *parent = nullptr);

    void setToken(const QString &token) { m_token = token; }
    [[nodiscard]] const QString &token() const { return m_token; }
    // Not owned; nullptr for none.
    void setSource(TokenSource *source);
    [[nodiscard]] bool hasSource() const { return m_source != nullptr; }

    // Calls connect() once the token to sign in with is at hand: fetched from the source, or
    // (without one, or when it fails) the one held. Replaces anything under way.
    void beforeConnecting(std::function<void()> connect);
    // The gateway says the token is expiring: fetches a new one and hands it to send(), which
    // sends the refresh and returns its ref. Nothing without a source.
    void renew(std::function<QString(const QString &token)> send);
    // The gateway's answer to a request with ref: true when it was our refresh (accepted makes
    // its token the one held).
    bool answered(const QString &ref, bool accepted);
    // The connection is gone: what was under way for it is dropped (the held token stays).
    void cancel();

private:
    enum class Waiting { Nothing, ToConnect, ToRenew };

    void onTokenReady(const QString &token);
    void onTokenFailed(const QString &error);

    QString m_token;
    QPointer<TokenSource> m_source;
    Waiting m_waiting = Waiting::Nothing;
    std::function<void()> m_connect;
    std::function<QString(const QString &)> m_send;
    QString m_refreshRef; // the refresh sent, until answered
    QString m_refreshToken; // its token
};

} // namespace Presence::Session
