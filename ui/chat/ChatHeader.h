#pragma once

// C++
#include <utility>

// Qt
#include <QPersistentModelIndex>
#include <QTimer>
#include <QWidget>

// Presence
#include "ui/PresenceText.h"

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::Ui {

// The top of the chat: the friend's name followed by their handle ("@ada", quieter, so two
// friends of one name can be told apart), and under it their presence mark and words
// ("online", "last seen 5 min ago", "status unknown"), kept live from the friend list.
class ChatHeader : public QWidget {
    Q_OBJECT
public:
    explicit ChatHeader(Models::FriendListModel *friends, QWidget *parent = nullptr);

    void setFriend(const QString &friendId);
    [[nodiscard]] const FriendPresence &presence() const { return m_presence; }
    // What the second line says now.
    [[nodiscard]] QString statusText() const;
    // "@id", or empty without a friend.
    [[nodiscard]] QString handleText() const;
    // Where the handle is painted (empty when it does not fit).
    [[nodiscard]] QRect handleRect() const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void refresh();
    [[nodiscard]] QFont nameFont() const;
    // The name's and the handle's rects on the first line, left to right.
    [[nodiscard]] std::pair<QRect, QRect> firstLine() const;

    Models::FriendListModel *m_friends;
    QString m_friendId;
    FriendPresence m_presence;
    QTimer m_minute; // "last seen 5 min ago" moves on
};

} // namespace Presence::Ui
