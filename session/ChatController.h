#pragma once

#include "models/ChatMessageRecord.h"
#include "session/GatewaySession.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

namespace Presence::Models {
class ChatModel;
class FriendListModel;
} // namespace Presence::Models

namespace Presence::Session {

// The client's side of 1:1 chat: one ChatModel per conversation, fed from the session, and
// the unread counts on the friend list.
//
// - Opening a conversation loads its latest messages; loadOlder() pages back.
// - A message typed while not connected is queued and sent once signed in again. One that
//   was sent but not acknowledged when the connection dropped is "unconfirmed" until the
//   conversation's latest page, reloaded on reconnect, shows whether it arrived: if not, it
//   is sent again, so a message is neither lost nor (as far as the page can tell) doubled.
// - Conversations read on this connection reload their latest page after a reconnect, so
//   nothing pushed meanwhile is missed; what a friend sent meanwhile counts as unread.
// - Unread counts cover what arrived while this client was running; the gateway keeps no
//   read markers, so a fresh start shows none.
class ChatController : public QObject {
    Q_OBJECT
public:
    static inline constexpr int kHistoryPageSize = 50;

    ChatController(
        GatewaySession *session, Models::FriendListModel *friends, QObject *parent = nullptr);
    ~ChatController() override;

    // The conversation with a friend, created on first use; owned by the controller, valid
    // until conversationsCleared().
    [[nodiscard]] Models::ChatModel *conversation(const QString &friendId);
    [[nodiscard]] bool hasConversation(const QString &friendId) const;

    // The conversation the user is reading (its unread count stays 0); empty for none.
    void setActiveConversation(const QString &friendId);
    [[nodiscard]] QString activeConversation() const { return m_active; }

    // Loads the page before the oldest message held, if the gateway has one and no page of
    // that conversation is loading.
    void loadOlder(const QString &friendId);

    // Sends `text` to a friend, or queues it while not connected. Returns why it cannot be
    // sent at all (blank, too long), in words; nothing is added then.
    std::optional<QString> send(const QString &friendId, const QString &text);
    // Sends a failed message of ours again (the row goes to the end, as a new message).
    void resend(const QString &friendId, int row);
    // Removes a failed message of ours.
    void discard(const QString &friendId, int row);

    // Why `text` cannot be sent, or nothing: the protocol's rules, checked before sending.
    [[nodiscard]] static std::optional<QString> checkText(const QString &text);

Q_SIGNALS:
    // A friend's message arrived live (not from history).
    void messageReceived(
        const QString &friendId, const Presence::Models::ChatMessageRecord &message);
    // Every model from conversation() is about to be deleted (another user signed in).
    void conversationsCleared();

private:
    struct PendingSend {
        QString friendId;
        QString key;
    };
    struct PendingHistory {
        QString friendId;
        bool older = false;
        bool catchUp = false; // a reload after a reconnect: new incoming ones are unread
    };

    void onSignedIn(const Protocol::UserInfo &self);
    void onStateChanged(GatewaySession::State state);
    void onMessage(const Protocol::ChatMessage &message);
    void onAcknowledged(const QString &ref, const QString &id, qint64 ts);
    void onHistory(const QString &ref, const Protocol::HistoryPage &page);
    void onRefused(const QString &ref, const QString &code, const QString &message);
    void requestLatest(const QString &friendId, bool catchUp);
    // Sends the conversation's queued messages, in order, when nothing must come first.
    void flush(const QString &friendId);
    void addUnread(const QString &friendId, int count);
    void clearConversations();
    [[nodiscard]] bool isOnline() const;

    GatewaySession *m_session;
    QPointer<Models::FriendListModel> m_friends;
    QString m_selfId;
    QString m_active;
    QHash<QString, Models::ChatModel *> m_conversations; // owned (children)
    QHash<QString, PendingSend> m_sends; // ref -> message in flight
    QHash<QString, PendingHistory> m_histories; // ref -> page asked
    quint64 m_keyCounter = 0;
    bool m_wasOnline = false;
};

} // namespace Presence::Session
