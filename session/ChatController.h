#pragma once

// C++
#include <memory>
#include <optional>

// Qt
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

// Presence
#include "models/ChatMessageRecord.h"
#include "session/GatewaySession.h"

namespace Presence::Models {
class ChatModel;
class ConversationListModel;
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
// - The list of chats (conversationList()) and the unread counts come from the gateway's
//   `conversations` at every sign-in and its `read_marker` pushes, so they survive a restart
//   and agree across devices; new messages move them on live. The friend list's badges show
//   the same numbers. A gateway without read markers leaves the counts to this client: what
//   arrived while it ran.
// - The conversation being read (the open one, while its window is in front: setInFront) is
//   read as far as its messages have been on screen (setShownUpTo), never further: its
//   unread count is what lies below that, and the gateway's marker follows, at most one
//   `read` in flight per conversation, and only forward.
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
    // Whether the active conversation is in front of the user: its window active and the
    // chat shown. True until a window says otherwise. Its messages count as unread while it
    // is not.
    void setInFront(bool inFront);
    [[nodiscard]] bool isInFront() const { return m_inFront; }
    // The newest message of the active conversation on screen now (its id), as the view
    // showing it says. Messages count as read as far as one has been shown while in front
    // since the conversation was opened, never further. Until a view has said anything,
    // opening a conversation reads all of it (a client without widgets).
    void setShownUpTo(const QString &messageId);
    // The user is reading this conversation now.
    [[nodiscard]] bool isReading(const QString &friendId) const;

    // The chats, by unread then last activity; owned by the controller.
    [[nodiscard]] Models::ConversationListModel *conversationList() const { return m_list; }
    // Unread messages over every conversation.
    [[nodiscard]] int totalUnread() const;
    // How many conversations `conversations` asks for at sign-in.
    static inline constexpr int kConversationsLimit = 50;

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

    // Whether this gateway offers chat, as far as known: yes until it answers a chat request
    // with unknown_type (a presence-only gateway, such as a third party's written from the
    // protocol document), and yes again once it answers one.
    [[nodiscard]] bool chatOffered() const { return m_chatOffered; }
    // The gateway has answered `conversations` since the last sign-in (or refused it): the
    // unread counts are as known as they will be.
    [[nodiscard]] bool conversationsLoaded() const { return m_conversationsLoaded; }

    // Why `text` cannot be sent, or nothing: the protocol's rules, checked before sending.
    [[nodiscard]] static std::optional<QString> checkText(const QString &text);

Q_SIGNALS:
    // A friend's message arrived live (not from history).
    void messageReceived(
        const QString &friendId, const Presence::Models::ChatMessageRecord &message);
    // Every model from conversation() is about to be deleted (another user signed in).
    void conversationsCleared();
    void chatOfferedChanged(bool offered);
    // conversationsLoaded() became true.
    void conversationsArrived();

private:
    struct PendingSend {
        QString friendId;
        QString key;
    };
    struct PendingRead {
        QString friendId;
        QString upTo;
    };
    struct PendingHistory {
        QString friendId;
        bool older = false;
        bool catchUp = false; // a reload after a reconnect: new incoming ones are unread
    };

    void onSignedIn(const Protocol::UserInfo &self);
    void onStateChanged(GatewaySession::State state);
    void onMessage(const Protocol::ChatMessage &message);
    // The answers to our requests, by ref: a message's `ok` (with its id) or a read's.
    void onOk(const QString &ref, const Protocol::Ok &ok);
    void onAcknowledged(const QString &ref, const QString &id, qint64 ts);
    void onHistory(const QString &ref, const Protocol::HistoryPage &page);
    void onRefused(const QString &ref, const QString &code, const QString &message);
    void onConversations(
        const QString &ref, const QList<Protocol::ConversationSummary> &conversations);
    void onReadAcknowledged(const PendingRead &read);
    void onReadMarker(const QString &with, const QString &upTo, int unread);
    // Sends `read` up to the friend's newest message read (readUpTo), if it is past the
    // marker and no read of that conversation is in flight (then it goes once that one is
    // answered).
    void markRead(const QString &friendId);
    // The requests, each sent through the session: the ref its answer will carry, or an empty
    // string when not online.
    QString requestMessage(const QString &friendId, const QString &text);
    QString requestHistory(const QString &friendId, const QString &before);
    QString requestConversations();
    QString requestRead(const QString &friendId, const QString &upTo);
    // The row up to which the conversation is read: the newest shown (without a view, the
    // newest held); nothing while it is not being read or nothing of it was shown yet.
    [[nodiscard]] std::optional<int> readUpTo(const QString &friendId) const;
    // A conversation being read: its count becomes the friend's messages below what was
    // read (or its count plus `arrived`, if less), and the marker follows. Returns false,
    // changing nothing, while it is not being read or nothing of it was shown yet.
    bool syncReading(const QString &friendId, int arrived = 0);
    // Moves the marker held for `friendId` to `upTo` unless it is already further.
    void advanceMarker(const QString &friendId, const QString &upTo);
    void setUnread(const QString &friendId, int count);
    // Every friend row's badge from the conversation list.
    void applyUnreadToFriends();
    void requestLatest(const QString &friendId, bool catchUp);
    // Sends the conversation's queued messages, in order, when nothing must come first.
    void flush(const QString &friendId);
    void addUnread(const QString &friendId, int count);
    void clearConversations();
    [[nodiscard]] bool isOnline() const;
    void setChatOffered(bool offered);
    // The friend's messages held here that were not read as far as this client knows.
    [[nodiscard]] int unreadHeld(const QString &friendId) const;
    // The answer to `conversations` came, or its refusal.
    void finishConversations(bool offered);

    GatewaySession *m_session;
    QPointer<Models::FriendListModel> m_friends;
    QString m_selfId;
    QString m_active;
    QHash<QString, Models::ChatModel *> m_conversations; // owned (children)
    QHash<QString, PendingSend> m_sends; // ref -> message in flight
    QHash<QString, PendingHistory> m_histories; // ref -> page asked
    Models::ConversationListModel *m_list; // owned (child)
    QString m_conversationsRef; // of the `conversations` in flight
    bool m_gatewayCounts = false; // the gateway keeps read markers: its counts are the truth
    bool m_inFront = true;
    bool m_shownByView = false; // a view says what is on screen (setShownUpTo)
    QString m_shownUpTo; // the newest message of m_active shown while in front
    QHash<QString, QString> m_markers; // friend -> the last message id read (gateway's word)
    QHash<QString, PendingRead> m_reads; // ref -> read in flight
    QSet<QString> m_readInFlight; // friends with a read in flight
    QSet<QString> m_readAgain; // friends to mark read again once it is answered
    quint64 m_keyCounter = 0;
    bool m_wasOnline = false;
    bool m_chatOffered = true;
    bool m_conversationsLoaded = false;
};

} // namespace Presence::Session
