#pragma once

// C++
#include <optional>

// Qt
#include <QAbstractListModel>
#include <QHash>
#include <QPointer>

// Presence
#include "models/ChatMessageRecord.h"

namespace Presence::Models {

class FriendListModel;

// One conversation as the list of chats shows it: its latest message and how many of the
// friend's messages are not read yet.
struct ConversationSummary {
    QString friendId;
    ChatMessageRecord last; // id, from, text, ts
    int unread = 0;
    // When its latest message came in among the others' (larger is later), numbered by the
    // model: the order of the list it was given, then of noteMessage(). Times are whole
    // milliseconds; this tells two in the same one apart.
    quint64 activity = 0;
};

// The chats, most pressing first: conversations with unread messages, then the others, each
// group by last activity (newest first; in the same millisecond, the later taken by the
// gateway: the order of its list, then of the messages noted). It knows nothing about sockets:
// whoever holds the session feeds it the gateway's list, new messages and unread counts.
//
// Names and presence come from the friend list (when given one), so a row shows what the
// friend's row shows; their changes are announced under NameRole / PresenceRole / FreshRole.
// A row that changes place moves (beginMoveRows), the others stay: no resets but for a new list.
class ConversationListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        FriendIdRole = Qt::UserRole + 1,
        NameRole, // the friend's name (also Qt::DisplayRole); the id when not known
        PresenceRole, // int of PresenceState, from the friend list; Unknown without one
        FreshRole, // bool: that presence is live
        LastIdRole,
        LastTextRole,
        LastFromSelfRole, // bool: the latest message is ours (from any of our devices)
        LastTimestampRole, // qint64 ms since the epoch
        UnreadRole, // int
    };
    Q_ENUM(Role)

    // `friends` (not owned, may be null) gives names and presence.
    explicit ConversationListModel(FriendListModel *friends = nullptr, QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

    // The signed-in user: their messages are "ours".
    void setSelfId(const QString &id);
    [[nodiscard]] const QString &selfId() const { return m_selfId; }

    // Replaces the list (the gateway's answer, newest activity first; duplicates keep the
    // first).
    void setConversations(const QList<ConversationSummary> &conversations);
    // A message of the conversation with `friendId` was taken by the gateway: it becomes the
    // latest unless one held is later. Adds the conversation when it is new. Unread counts are
    // left alone (see setUnread).
    void noteMessage(const QString &friendId, const ChatMessageRecord &message);
    // Rows that do not exist are not created: there is nothing to show without a message.
    void setUnread(const QString &friendId, int count);
    [[nodiscard]] int unread(const QString &friendId) const;
    [[nodiscard]] int totalUnread() const { return m_totalUnread; }
    [[nodiscard]] std::optional<int> rowOf(const QString &friendId) const;
    [[nodiscard]] const ConversationSummary &at(int row) const { return m_rows.at(row); }
    void clear();

    // The order of the list: true when `a` goes above `b`.
    [[nodiscard]] static bool goesBefore(
        const ConversationSummary &a, const ConversationSummary &b);

Q_SIGNALS:
    void totalUnreadChanged(int total);

private:
    void onFriendsChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void announceFriendRoles();
    // Moves `row` where the order wants it; returns where it is now.
    int place(int row);
    void reindex(int from, int to);
    void updateTotal();

    QPointer<FriendListModel> m_friends;
    QString m_selfId;
    QList<ConversationSummary> m_rows;
    QHash<QString, int> m_rowOf;
    quint64 m_activity = 0; // the latest ConversationSummary::activity given
    int m_totalUnread = 0;
};

} // namespace Presence::Models
