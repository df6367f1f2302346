#pragma once

// Complete types for the accessors below, which callers use as widgets (tab order, focus).
// Qt
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QWidget>

// Presence
#include "ui/chat/MessageInput.h"

class QIdentityProxyModel;
class QLabel;
class QListView;
class QModelIndex;
class QStackedLayout;
class QToolButton;

namespace Presence::Models {
class ChatModel;
class FriendListModel;
} // namespace Presence::Models
namespace Presence::Session {
class ChatController;
}

namespace Presence::Ui {

template <typename Proxy> class AccessibleTextProxy;
class ChatHeader;
class ChatMessageDelegate;
class MessageLinkHandler;
class NewMessagesPill;
class ReadingPosition;

// The right side of the main window: the conversation with the selected friend. Their
// presence on top, the messages (older ones load when scrolled to the top), and the input:
// Enter sends, Shift+Enter adds a line. Without a friend it shows what to do instead. Links in
// messages open in the browser; ReadingPosition keeps the reader's place (the pill, the
// "New messages" divider); an empty conversation says so in the middle of the message area.
class ChatPane : public QWidget {
    Q_OBJECT
public:
    ChatPane(
        Session::ChatController *chat, Models::FriendListModel *friends, QWidget *parent = nullptr);

    // Shows the conversation with `friendId` (empty: none) and makes it the one being read.
    void setFriend(const QString &friendId);
    [[nodiscard]] QString friendId() const { return m_friendId; }
    // The conversation shown, if any. The view's model is a proxy of it (AccessibleTextProxy):
    // rows of the view are the view model's indexes, not this model's.
    [[nodiscard]] Models::ChatModel *conversation() const;
    void focusInput();

    [[nodiscard]] ChatHeader *header() const { return m_header; }
    [[nodiscard]] QListView *messageView() const { return m_view; }
    [[nodiscard]] MessageInput *input() const { return m_input; }
    [[nodiscard]] QPushButton *sendButton() const { return m_send; }
    [[nodiscard]] NewMessagesPill *newMessagesPill() const { return m_pill; }
    [[nodiscard]] ChatMessageDelegate *messageDelegate() const { return m_delegate; }
    [[nodiscard]] MessageLinkHandler *linkHandler() const { return m_links; }
    // The words shown centred in the message area while it has no messages.
    [[nodiscard]] QLabel *emptyState() const { return m_empty; }
    // The line under the messages: why the text cannot be sent, or nothing.
    [[nodiscard]] QString noticeText() const;
    // What the pane says about the history: "Loading messages…", "No messages with Ada yet."
    // (centred in the message area while it is empty), "Loading earlier messages…" (a line
    // over the messages) or nothing.
    [[nodiscard]] QString historyText() const;
    [[nodiscard]] bool isShowingPlaceholder() const;
    // The back arrow before the header (a window showing one pane at a time).
    void setBackVisible(bool visible);
    [[nodiscard]] QToolButton *backButton() const { return m_back; }
    // The newest message the gateway took whose end is on screen, by id (empty: none), as
    // of when the view last settled: not while a conversation opens or a page goes in,
    // which may pass the bottom on the way to the reader's place.
    [[nodiscard]] QString shownUpTo() const { return m_shownUpTo; }

Q_SIGNALS:
    // The back arrow was clicked.
    void backRequested();
    // shownUpTo() changed.
    void shownChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void submit();
    void onTextChanged();
    void showMenu(const QPoint &pos);
    void updateHistoryNotice();
    // Enables or disables the input, and says so, as the gateway offers chat or not.
    void applyChatOffered();
    void loadOlderIfNeeded();
    void updateShown();
    // The current message if any of it is on screen: the one with the ring, that Ctrl+C copies.
    [[nodiscard]] QModelIndex currentOnScreen() const;
    [[nodiscard]] QString friendName() const;

    Session::ChatController *m_chat;
    Models::FriendListModel *m_friends;
    QString m_friendId;
    QPointer<Models::ChatModel> m_model;
    QList<QMetaObject::Connection> m_modelConnections;

    QStackedLayout *m_pages;
    QLabel *m_placeholder;
    ChatHeader *m_header;
    QLabel *m_history;
    QListView *m_view;
    ChatMessageDelegate *m_delegate;
    // The view's model: m_model with what screen readers say.
    AccessibleTextProxy<QIdentityProxyModel> *m_rows;
    QLabel *m_empty;
    NewMessagesPill *m_pill;
    MessageLinkHandler *m_links;
    ReadingPosition *m_reading;
    QLabel *m_notice;
    MessageInput *m_input;
    QPushButton *m_send;
    QToolButton *m_back = nullptr;
    QString m_shownUpTo;
    QTimer m_shownTimer; // updateShown once the view has settled
};

} // namespace Presence::Ui
