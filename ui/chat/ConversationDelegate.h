#pragma once

// Qt
#include <QDateTime>

// Presence
#include "ui/ClockedDelegate.h"

namespace Presence::Ui {

// One row of the chats list (ConversationListModel): the friend's avatar with their presence
// mark on its corner, their name with the time of the latest message at the trailing end, and
// under it a one-line preview ("You: …" for ours) with the unread badge. Rows with unread
// messages have a bold name. Same height as a friend's row; colours from the palette at paint
// time; mirrored for right-to-left.
class ConversationDelegate : public ClockedDelegate {
    Q_OBJECT
public:
    explicit ConversationDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    [[nodiscard]] QSize sizeHint(
        const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // "14:05" for a time today, else the locale's short date.
    [[nodiscard]] static QString timeText(qint64 ts, const QDateTime &now);
    // The latest message on one line: "You: see you" for ours.
    [[nodiscard]] static QString previewText(const QModelIndex &index);
    // What a screen reader says of the row: "Ada Lovelace, 2 unread, You: see you, 14:05".
    [[nodiscard]] static QString accessibleText(const QModelIndex &index, const QDateTime &now);
};

} // namespace Presence::Ui
