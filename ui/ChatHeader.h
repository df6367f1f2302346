#pragma once

#include "ui/PresenceText.h"

#include <QPersistentModelIndex>
#include <QTimer>
#include <QWidget>

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::Ui {

// The top of the chat: the friend's name, and under it their presence mark and words
// ("online", "last seen 5 min ago", "status unknown"), kept live from the friend list.
class ChatHeader : public QWidget {
    Q_OBJECT
public:
    explicit ChatHeader(Models::FriendListModel *friends, QWidget *parent = nullptr);

    void setFriend(const QString &friendId);
    [[nodiscard]] const FriendPresence &presence() const { return m_presence; }
    // What the second line says now.
    [[nodiscard]] QString statusText() const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh();

    Models::FriendListModel *m_friends;
    QString m_friendId;
    FriendPresence m_presence;
    QTimer m_minute; // "last seen 5 min ago" moves on
};

} // namespace Presence::Ui
