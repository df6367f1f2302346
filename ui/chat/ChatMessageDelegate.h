#pragma once

// C++
#include <optional>

// Qt
#include <QDateTime>

// Presence
#include "ui/ClockedDelegate.h"
#include "ui/chat/ChatRowContext.h"
#include "ui/chat/MessageLinks.h"

class QTextLayout;

namespace Presence::Ui {

// One chat message as a bubble: ours on the trailing side in the palette's highlight
// colour, the friend's on the leading side in a tint of the base colour. Under the text a
// small line gives the time (the locale's short time, HH:MM) and, for ours, where it stands:
// "waiting for connection", "sending…", "not confirmed yet", "sent" or "not sent". A message
// the gateway has not acknowledged has a dashed outline and fainter colours, one it refused an
// outline in the error colour. Web links in the text are underlined; linkAt() finds the one
// under a point. Above a row may come a day separator and the "New messages" divider, and
// consecutive messages group (see ChatRowContext). Bubbles are at most kMaxBubbleWidth wide.
// The current message, while the view has focus, has a ring in the highlight colour: it is
// the one Ctrl+C copies (whole: there is no selecting part of a bubble).
// Rows are as tall as their wrapped text, so the view must not use uniform item sizes, and
// must lay items out again when its width changes.
class ChatMessageDelegate : public ClockedDelegate {
    Q_OBJECT
public:
    // A readable line length, however wide the window.
    static inline constexpr int kMaxBubbleWidth = 600;

    struct BubbleLayout {
        QRect bubble;
        QRectF text; // where the wrapped text starts and how big it is
        QRect meta; // empty when the row shows no meta line (inside a group)
        QString metaText; // what goes in `meta`
        QRect daySeparator; // the "Today" chip above the row, or empty
        QString dayText;
        QRect unreadDivider; // the "New messages" band above the row, or empty
        QList<MessageLinks::Link> links; // in the displayed text
        ChatRowContext context;
    };

    explicit ChatMessageDelegate(QObject *parent = nullptr);

    // The message (by id) that the "New messages" divider goes above; empty for none. The
    // view must lay its items out again after a change.
    void setFirstUnreadId(const QString &id) { m_firstUnreadId = id; }
    [[nodiscard]] QString firstUnreadId() const { return m_firstUnreadId; }

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    [[nodiscard]] QSize sizeHint(
        const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override;

    // The small line under a message: its time, and for ours where it stands.
    [[nodiscard]] static QString metaText(const QModelIndex &index, const QDateTime &now);
    // "You, 14:05: hi" / "Alice, 12/03/2024, 14:05: hi" (the date when not today), with the
    // delivery state: for screen readers, which do not see the day separators.
    [[nodiscard]] static QString accessibleText(
        const QModelIndex &index, const QString &friendName, const QDateTime &now);

    [[nodiscard]] BubbleLayout layout(const QStyleOptionViewItem &option, const QModelIndex &index,
        QTextLayout *textLayout = nullptr) const;
    // The web link drawn at `pos` (in the coordinates of option.rect), if any.
    [[nodiscard]] std::optional<QUrl> linkAt(
        const QStyleOptionViewItem &option, const QModelIndex &index, const QPointF &pos) const;

private:
    QString m_firstUnreadId;
};

} // namespace Presence::Ui
