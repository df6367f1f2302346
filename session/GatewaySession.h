#pragma once

// C++
#include <chrono>

// Qt
#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QSslCertificate>
#include <QTimer>
#include <QUrl>

// Presence
#include "protocol/Backoff.h"
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "session/AvailabilitySync.h"
#include "session/FramePacer.h"
#include "session/FriendListSync.h"
#include "session/Heartbeat.h"
#include "session/SchemeProbe.h"
#include "session/SubscriptionSync.h"
#include "session/TokenKeeper.h"

// Only the session touches its socket: widgets that include this (through ChatController.h)
// need not parse Qt WebSockets.
class QSslError;
class QWebSocket;

namespace Presence::Session {

using namespace std::chrono_literals;

// The client's one connection to a presence gateway: signs in, loads the friend list,
// keeps the gateway subscribed to exactly the set the UI wants, and turns pushes into
// presence updates. It reconnects by itself with jittered backoff and resubscribes.
// It knows nothing of models or widgets: it reports through signals. Its frames go through a
// FramePacer (the gateway's rate), the friend list through a FriendListSync, its subscriptions
// through a SubscriptionSync, the availability set through an AvailabilitySync; the words of
// a failure come from FailureWords.
class GatewaySession : public QObject {
    Q_OBJECT
public:
    enum class State {
        Disconnected, // not started, or closed on purpose
        Connecting,
        Authenticating, // socket open, hello sent
        Online, // welcome received
        Reconnecting, // waiting retryDelay() before attempt retryAttempt()
        Failed, // an error retrying cannot fix (bad token, unsupported protocol)
    };
    Q_ENUM(State)

    // Why the session is Failed: what the user must change before signing in again.
    enum class Failure {
        None,
        TokenRefused, // the gateway did not accept the token
        // The token ran out and no new one came (none from the token source, or no source):
        // the gateway closed with 4004, or refused a token whose own `exp` has passed.
        SignInExpired,
        UnsupportedProtocol, // the gateway speaks another protocol version
        NotAGateway, // the address answers HTTP, but no WebSocket upgrade (e.g. 200, 404)
        // wss:// whose certificate is not trusted (unknown authority, wrong name, expired):
        // retrying cannot fix it, and going on would give the token to whoever answered.
        // The user may trust it for this server (Options::pinnedCertificates).
        UntrustedCertificate,
        // wss:// whose certificate is not trusted, and not the one the user trusted for this
        // server: it may be someone in between. Refused until the user trusts the new one.
        CertificateChanged,
        // ws:// to a server that speaks TLS, or wss:// to one that does not: the address
        // needs the other scheme, which the words name.
        WrongScheme,
    };
    Q_ENUM(Failure)

    struct Options {
        Protocol::Backoff::Policy backoff;
        // Online this long without trouble resets the backoff.
        std::chrono::milliseconds stableAfter = 30s;
        // A ping unanswered for this long means the connection is dead.
        std::chrono::milliseconds pongTimeout = 10s;
        // Overrides the gateway's heartbeat_ms (tests); zero means use the gateway's.
        std::chrono::milliseconds heartbeatOverride = 0ms;
        // Connecting plus signing in may take this long before the attempt counts as failed.
        std::chrono::milliseconds connectTimeout = 15s;
        QString clientName = QStringLiteral("presence-chat/0.1");
        int friendsPageSize = 1000;
        // The availability set's changes in batches this often (hello's presence_batch_ms):
        // "online first" for rows off screen is then at most this stale, not a second. Zero:
        // the gateway's availability_changed.
        std::chrono::milliseconds availabilityBatch = 50ms;
        // Certificates the user trusted, besides the system's authorities: a server
        // (CertificatePin::serverOf) to the SHA-256 digest of the one certificate trusted
        // there. A certificate the system trusts needs none.
        QHash<QString, QByteArray> pinnedCertificates;
    };

    explicit GatewaySession(QObject *parent = nullptr);
    GatewaySession(Options options, QObject *parent = nullptr);
    ~GatewaySession() override;

    void open(const QUrl &url, const QString &token);
    // Where a new token comes from when the one given runs out (not owned; nullptr: none): it
    // is asked before every connection and when the gateway says the token is expiring.
    void setTokenSource(TokenSource *source) { m_tokens.setSource(source); }
    // Closes on purpose: no reconnect.
    void close();
    // Skips the remaining backoff delay (or retries after a failure, e.g. with a new token).
    void retryNow();
    // Replaces Options::pinnedCertificates, from the next handshake on (the user trusted one).
    void setPinnedCertificates(const QHash<QString, QByteArray> &pins);

    // The set of users whose presence the UI wants now; the session subscribes and
    // unsubscribes to make the gateway's set equal to it (capped by max_subscriptions).
    void setWanted(const QSet<QString> &ids);
    void setChosenStatus(Protocol::ChosenStatus status);

    // A request whose answer goes to whoever asked (chat): sends `message` with a fresh ref
    // starting with `kind` and returns that ref, or an empty string when not online. Its
    // answer comes as okReceived, historyReceived or conversationsReceived with the ref, or
    // as requestRefused. A request whose frame would pass the gateway's max_frame_bytes is
    // refused here (requestRefused, queued like any answer) instead of getting the connection
    // closed.
    QString request(const QJsonObject &message, QChar kind);

    [[nodiscard]] const Options &options() const { return m_options; }
    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] int retryAttempt() const { return m_backoff.attempts(); }
    [[nodiscard]] std::chrono::milliseconds retryDelay() const { return m_retryDelay; }
    [[nodiscard]] QString errorString() const { return m_errorString; }
    [[nodiscard]] Failure failure() const { return m_failure; }
    // The certificate the gateway presented in the last handshake that did not trust it
    // (UntrustedCertificate, CertificateChanged); null otherwise.
    [[nodiscard]] const QSslCertificate &presentedCertificate() const { return m_presented; }
    // Its SHA-256 digest (CertificatePin::digestOf); empty when there is none.
    [[nodiscard]] QByteArray presentedDigest() const;
    // What is wrong with that certificate, in Qt's words ("The issuer certificate of a
    // locally looked up certificate could not be found"); empty otherwise.
    [[nodiscard]] const QString &certificateError() const { return m_sslError; }
    // The digest pinned for the server open() was given; empty when none is.
    [[nodiscard]] QByteArray pinnedDigest() const;
    // The address open() was given last.
    [[nodiscard]] const QUrl &url() const { return m_url; }
    [[nodiscard]] const Protocol::UserInfo &self() const { return m_self; }
    [[nodiscard]] const Protocol::Limits &limits() const { return m_limits; }
    [[nodiscard]] Protocol::ChosenStatus chosenStatus() const { return m_chosenStatus; }
    [[nodiscard]] const QSet<QString> &wanted() const { return m_subscriptions.wanted(); }
    // Ids the gateway is subscribed to for us (requests sent and not refused).
    [[nodiscard]] const QSet<QString> &subscribed() const { return m_subscriptions.subscribed(); }
    [[nodiscard]] int subscribeRequestsSent() const
    {
        return m_subscriptions.subscribeRequestsSent();
    }
    [[nodiscard]] int unsubscribeRequestsSent() const
    {
        return m_subscriptions.unsubscribeRequestsSent();
    }
    // Digests from the gateway that differed from what this session holds (each one fixed by
    // asking again).
    [[nodiscard]] int digestMismatches() const { return m_digestMismatches; }

Q_SIGNALS:
    void stateChanged(Presence::Session::GatewaySession::State state);
    void retryScheduled(int attempt, std::chrono::milliseconds delay);
    void signedIn(const Presence::Protocol::UserInfo &self);
    void friendsLoaded(const QList<Presence::Protocol::UserInfo> &friends);
    // Presence that is newer than anything held (by seq); snapshots replace what was held.
    void presenceReceived(const QList<Presence::Protocol::UserPresence> &presence);
    // Coarse presence from the availability set: each id with its availability now. When
    // `complete`, it holds every covered friend and whoever is missing is not covered (past
    // the gateway's cap); otherwise only the friends whose availability changed.
    void availabilityReceived(
        const QHash<QString, Presence::Protocol::PresenceStatus> &availability, bool complete);
    // These users are no longer watched: what is known of them is no longer live.
    void presenceStale(const QStringList &ids);
    // The connection is gone: nothing known is live any more.
    void presenceLost();
    void subscriptionsChanged(int count);
    void chosenStatusChanged(Presence::Protocol::ChosenStatus status);
    void errorReceived(const QString &code, const QString &message);
    // A message pushed by the gateway: from a friend, or ours from another device.
    void chatMessageReceived(const Presence::Protocol::ChatMessage &message);
    // Answers to request(): `ok` (a message's id and time), a page of history, the
    // conversations.
    void okReceived(const QString &ref, const Presence::Protocol::Ok &ok);
    void historyReceived(const QString &ref, const Presence::Protocol::HistoryPage &page);
    void conversationsReceived(
        const QString &ref, const QList<Presence::Protocol::ConversationSummary> &conversations);
    // Our read marker of the conversation with `with` moved (from this device or another):
    // `unread` of the friend's messages are left after it.
    void readMarkerReceived(const QString &with, const QString &upTo, int unread);
    // The gateway refused a request() of ours; `code` is the protocol's error code.
    void requestRefused(const QString &ref, const QString &code, const QString &message);
    // The gateway will close the connection in `in` unless it gets a new token (a token
    // source, when set, is already asked for one).
    void tokenExpiring(std::chrono::milliseconds in);

private:
    void connectSocket();
    // Every attempt gets a socket of its own; the last one is deleted later.
    void replaceSocket();
    void setState(State state);
    // Every timer of a connection attempt; a new attempt or a stop starts from none.
    void stopTimers();
    void scheduleReconnect(const QString &reason);
    void fail(Failure failure, const QString &reason);
    // The gateway refused the token in hello (4001): expired by its own `exp`, or not accepted.
    void failTokenRefused();
    // A handshake the server answered with another HTTP status than 101: Failed for an
    // address that is no gateway, true; false (retry) for a busy one (5xx, 429) or none.
    bool failIfNotAGateway();
    // An attempt the server closed, or answered in bytes TLS cannot read, before any
    // handshake: it may speak the other scheme. Starts a probe of what it speaks and returns
    // true; the attempt ends when the probe answers (onSchemeProbed).
    bool probeScheme();
    void onSchemeProbed(SchemeProbe::Answer answer);
    // The handshake found the certificate not trusted: goes on if it is the one pinned for
    // this server, else keeps why (and which certificate) for the failure that follows.
    void onSslErrors(const QList<QSslError> &errors);
    // Fails for the certificate onSslErrors refused: UntrustedCertificate, or
    // CertificateChanged when another one was pinned.
    void failCertificate();
    void loseConnectionState();
    void onConnected();
    void onDisconnected();
    void onTextMessage(const QString &text);
    void onWelcome(const Protocol::Welcome &welcome);
    void onFriendsLoaded(const QList<Protocol::UserInfo> &friends);
    // Friends added or removed while connected: the list is read again (friendsLoaded, which
    // models apply in place), and the availability set watched again over it.
    void onFriendsChanged(const Protocol::FriendsChanged &changed);
    void onError(const Protocol::ErrorMessage &error, const QString &ref);
    void onOk(const Protocol::Ok &ok, const QString &ref);
    void onHistory(const Protocol::HistoryPage &page, const QString &ref);
    void onConversations(const Protocol::ConversationsPage &page, const QString &ref);
    void onDigest(const Protocol::Digest &digest);
    // Asks the token source for a new token, sent as a refresh.
    void onTokenExpiring(const Protocol::TokenExpiring &expiring);
    void onPongMissed();
    QString nextRef(QChar kind);

    Options m_options;
    QWebSocket *m_socket = nullptr; // the current attempt's, a child of this
    QUrl m_url;
    TokenKeeper m_tokens;
    State m_state = State::Disconnected;
    QString m_errorString;
    QString m_sslError; // this attempt's first certificate problem, if any
    QSslCertificate m_presented; // the certificate this attempt refused, if any
    QString m_probedReason; // why the attempt a probe runs for failed, for a retry
    Failure m_failure = Failure::None;
    Protocol::Backoff m_backoff;
    std::chrono::milliseconds m_retryDelay { 0 };
    QTimer m_retryTimer;
    QTimer m_connectTimer;
    QTimer m_stableTimer;
    Heartbeat m_heartbeat;
    SchemeProbe m_schemeProbe; // runs after an attempt only, never for a working connection

    Protocol::UserInfo m_self;
    Protocol::Limits m_limits;
    Protocol::ChosenStatus m_chosenStatus = Protocol::ChosenStatus::Online;
    Protocol::ChosenStatus m_statusInHello = Protocol::ChosenStatus::Online;
    QSet<QString> m_requests; // refs of request()s awaiting answers
    int m_digestMismatches = 0;
    quint64 m_refCounter = 0;
    // Every frame goes through it; paced once welcome gave the limits.
    FramePacer m_pacer;
    FriendListSync m_friendList;
    SubscriptionSync m_subscriptions;
    AvailabilitySync m_availability;
};

} // namespace Presence::Session
