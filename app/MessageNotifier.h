#pragma once

// Qt
#include <QObject>
#include <QPointer>
#include <QString>

namespace Presence::Models {
class FriendListModel;
struct ChatMessageRecord;
} // namespace Presence::Models
namespace Presence::Session {
class ChatController;
}

namespace Presence::App {

class DesktopNotifications;

// "Messages you cannot miss": a desktop notification for each new message from a friend whose
// chat is not in front of the user (the window is inactive, or another chat is open). On by
// default, like the messageNotifications setting it follows. The friend's name is the title,
// the message (shortened) the body; a friend's next message replaces their previous
// notification where the desktop allows.
class MessageNotifier : public QObject {
    Q_OBJECT
public:
    // Characters of a message shown in a notification; longer ones end with "…".
    static inline constexpr int kMaxBodyLength = 200;

    // None of them owned; `friends` gives names and may be null.
    MessageNotifier(Session::ChatController *chat, Models::FriendListModel *friends,
        DesktopNotifications *notifications, QObject *parent = nullptr);

    void setEnabled(bool enabled);
    [[nodiscard]] bool isEnabled() const { return m_enabled; }

    // The chat in front of the user: the open one while its window is active; empty when the
    // window is not active (every chat is then out of sight).
    void setFrontChat(const QString &friendId);
    [[nodiscard]] const QString &frontChat() const { return m_front; }

    [[nodiscard]] static QString bodyOf(const QString &text);

Q_SIGNALS:
    // A notification was asked for (whether or not the desktop can show it).
    void notificationRequested(const QString &friendId, const QString &title, const QString &body);

private:
    void onMessageReceived(const QString &friendId, const Models::ChatMessageRecord &message);

    QPointer<Models::FriendListModel> m_friends;
    QPointer<DesktopNotifications> m_notifications;
    QString m_front;
    bool m_enabled = true;
};

} // namespace Presence::App
