#pragma once

// C++
#include <optional>

// Qt
#include <QList>
#include <QObject>
#include <QPointer>

class QListView;
class QModelIndex;

namespace Presence::Models {
class ChatModel;
}

namespace Presence::Ui {

class ChatMessageDelegate;
class NewMessagesPill;

// Where the reader is in a conversation, and keeping them there:
// - at the bottom, the view stays at the bottom whatever changes its range: new messages,
//   rows growing or shrinking, the view getting shorter as the message input grows;
// - an older page loading above keeps the reading place;
// - scrolled up, new messages from the friend leave the view where it is: the pill counts
//   them ("3 new messages ↓", a click goes down) and the "New messages" divider goes above the
//   first of them. The pill hides once the bottom is reached. The divider stays until the
//   conversation changes or we send a message; once the reader has been at the bottom, the
//   next message that arrives while scrolled up moves it there.
// - opening a conversation with unread messages puts the divider above the first of them and
//   brings it into view.
class ReadingPosition : public QObject {
    Q_OBJECT
public:
    ReadingPosition(QListView *view, ChatMessageDelegate *delegate, NewMessagesPill *pill);

    // Follows `model` (shown by the view) from now on; `unread`: how many of the friend's
    // latest messages have not been read.
    void follow(Models::ChatModel *model, int unread);
    void scrollToBottom();
    // We sent a message: the view goes down to it, and the divider has served.
    void onOwnMessageSent();
    [[nodiscard]] bool isAtBottom() const;
    // The conversation opened on unread messages and the divider above them is not placed
    // yet (their page is on its way): the view is not where the reader will be.
    [[nodiscard]] bool isPlacingOpeningDivider() const { return m_unreadAtOpen > 0; }

private:
    void onRowsAboutToBeInserted(const QModelIndex &parent, int first, int last);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onRangeChanged(int min, int max);
    void onValueChanged();
    void setFirstUnread(const QString &id);
    // Places the divider for the unread count the conversation was opened with, once the
    // model holds that many of the friend's messages (or all there are).
    void placeOpeningDivider();

    QListView *m_view;
    ChatMessageDelegate *m_delegate;
    NewMessagesPill *m_pill;
    QPointer<Models::ChatModel> m_model;
    QList<QMetaObject::Connection> m_connections;
    // While rows go in: keep this distance (px) from the bottom, e.g. 0 to follow new ones.
    std::optional<int> m_keepFromBottom;
    bool m_atBottom = true; // as of the scroll bar's last value
    bool m_dividerSeen = true; // the reader reached the bottom since the divider was placed
    int m_unseen = 0; // friend's messages that arrived since the reader left the bottom
    int m_unreadAtOpen = 0; // not placed yet
};

} // namespace Presence::Ui
