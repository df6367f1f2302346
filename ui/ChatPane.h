#pragma once

#include <QPointer>
#include <QWidget>

#include <optional>

class QLabel;
class QListView;
class QPushButton;
class QStackedLayout;

namespace Presence::Models {
class ChatModel;
class FriendListModel;
} // namespace Presence::Models
namespace Presence::Session {
class ChatController;
}

namespace Presence::Ui {

class ChatHeader;
class ChatMessageDelegate;
class MessageInput;

// The right side of the main window: the conversation with the selected friend. Their
// presence on top, the messages (older ones load when scrolled to the top), and the input:
// Enter sends, Shift+Enter adds a line. Without a friend it shows what to do instead.
class ChatPane : public QWidget {
    Q_OBJECT
public:
    ChatPane(
        Session::ChatController *chat, Models::FriendListModel *friends, QWidget *parent = nullptr);

    // Shows the conversation with `friendId` (empty: none) and makes it the one being read.
    void setFriend(const QString &friendId);
    [[nodiscard]] QString friendId() const { return m_friendId; }
    void focusInput();

    [[nodiscard]] ChatHeader *header() const { return m_header; }
    [[nodiscard]] QListView *messageView() const { return m_view; }
    [[nodiscard]] MessageInput *input() const { return m_input; }
    [[nodiscard]] QPushButton *sendButton() const { return m_send; }
    // The line under the messages: why the text cannot be sent, or nothing.
    [[nodiscard]] QString noticeText() const;
    // The line over the messages: "Loading messages…", "No messages with Ada yet." or nothing.
    [[nodiscard]] QString historyText() const;
    [[nodiscard]] bool isShowingPlaceholder() const;

private:
    void submit();
    void onTextChanged();
    void showMenu(const QPoint &pos);
    void updateHistoryNotice();
    void loadOlderIfNeeded();
    void onRowsAboutToBeInserted(const QModelIndex &parent, int first, int last);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    [[nodiscard]] bool isAtBottom() const;
    [[nodiscard]] QString friendName() const;
    [[nodiscard]] QString nameOf(const QString &friendId) const;

    Session::ChatController *m_chat;
    Models::FriendListModel *m_friends;
    QString m_friendId;
    QPointer<Models::ChatModel> m_model;
    QList<QMetaObject::Connection> m_modelConnections;
    // While rows go in: keep this distance (px) from the bottom, e.g. 0 to follow new ones.
    std::optional<int> m_keepFromBottom;

    QStackedLayout *m_pages;
    QLabel *m_placeholder;
    ChatHeader *m_header;
    QLabel *m_history;
    QListView *m_view;
    ChatMessageDelegate *m_delegate;
    QLabel *m_notice;
    MessageInput *m_input;
    QPushButton *m_send;
};

} // namespace Presence::Ui
