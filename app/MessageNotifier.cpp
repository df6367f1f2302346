#include "app/MessageNotifier.h"

// Presence
#include "app/DesktopNotifications.h"
#include "models/ChatMessageRecord.h"
#include "models/FriendListModel.h"
#include "session/ChatController.h"

using namespace Qt::StringLiterals;

namespace Presence::App {

MessageNotifier::MessageNotifier(Session::ChatController *chat, Models::FriendListModel *friends,
    DesktopNotifications *notifications, QObject *parent)
    : QObject(parent)
    , m_friends(friends)
    , m_notifications(notifications)
{
    connect(
        chat, &Session::ChatController::messageReceived, this, &MessageNotifier::onMessageReceived);
}

void MessageNotifier::setEnabled(bool enabled)
{
    m_enabled = enabled;
}

void MessageNotifier::setFrontChat(const QString &friendId)
{
    m_front = friendId;
}

QString MessageNotifier::bodyOf(const QString &text)
{
    // One glance: lines run together, and a long message is cut (never inside a surrogate pair).
    QString body = text.simplified();
    if (body.size() > kMaxBodyLength) {
        qsizetype cut = kMaxBodyLength - 1;
        if (body.at(cut - 1).isHighSurrogate())
            --cut;
        body = body.left(cut) + u"…"_s;
    }
    return body;
}

void MessageNotifier::onMessageReceived(
    const QString &friendId, const Models::ChatMessageRecord &message)
{
    if (!m_enabled || friendId == m_front)
        return;
    QString title;
    if (m_friends) {
        if (const auto row = m_friends->rowOf(friendId))
            title = m_friends->index(*row).data(Models::FriendListModel::NameRole).toString();
    }
    if (title.isEmpty())
        title = friendId;
    const QString body = bodyOf(message.text);
    Q_EMIT notificationRequested(friendId, title, body);
    if (m_notifications)
        m_notifications->show(title, body, friendId);
}

} // namespace Presence::App
