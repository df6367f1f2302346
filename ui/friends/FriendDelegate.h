#pragma once

// Qt
#include <QColor>
#include <QDateTime>
#include <QRect>

// Presence
#include "models/PresenceState.h"
#include "ui/ClockedDelegate.h"

class QFont;
class QPalette;

namespace Presence::Ui {

struct FriendPresence;

// One row of the friend list: an avatar (initials on a circle coloured from the user id), the
// name, and under it a presence mark and a short status ("online", "last seen 5 min ago").
//
// The four states differ in shape, not only in colour: online is a filled disc, away a disc
// with a bite out of its top corner, offline a ring around a small dot, unknown an empty
// ring. Colours follow the palette at paint time (tuned for light or dark Base); statuses
// that are not fresh (FreshRole false) are drawn dimmed. Rows all have the same height, so
// the view can use uniformItemSizes. The name line ends with the handle ("@ada"): a long name
// is elided before the handle gives way, and a name another friend shares always keeps it
// (see nameLine). The tooltip is PresenceText::summary ("Name — online"),
// unless the model itself provides Qt::ToolTipRole.
class FriendDelegate : public ClockedDelegate {
    Q_OBJECT
public:
    // Where the parts of a row go, in the logical coordinates of option.rect, already
    // mirrored for right-to-left. The dot's centre is QRectF(dot).center().
    struct RowLayout {
        QRect avatar;
        QRect name;
        QRect dot;
        QRect status;
    };

    // What the name line shows: the name, and the handle after it. Widths and offsets are
    // logical pixels from the line's leading edge (the left in left-to-right).
    struct NameLine {
        QString name; // whole, or elided with "…"
        QString handle; // "@id", elided in the middle if it must stay; empty when dropped
        int nameWidth = 0; // the room the name is drawn in
        int handleStart = 0; // where the handle begins
    };

    explicit FriendDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override;
    // The same for every row: depends on option.font only.
    [[nodiscard]] QSize sizeHint(
        const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    bool helpEvent(QHelpEvent *event, QAbstractItemView *view, const QStyleOptionViewItem &option,
        const QModelIndex &index) override;

    // "Name — online" for the view's accessible text or a proxy's Qt::AccessibleTextRole.
    [[nodiscard]] static QString accessibleText(const QModelIndex &index, const QDateTime &now);

    // Where the unread count goes on a row (at the trailing end of the name line); an empty
    // rect when `unread` is 0. Counts over 99 show as "99+".
    [[nodiscard]] static QRect unreadBadgeRect(const QStyleOptionViewItem &option, int unread);
    [[nodiscard]] static QString unreadBadgeText(int unread);

    [[nodiscard]] static int rowHeight(const QFont &font);
    [[nodiscard]] static RowLayout layout(const QStyleOptionViewItem &option);
    // The name line of `presence` in `width` pixels with the row font `font` (the name is
    // drawn DemiBold). Both whole when they fit; else the name is elided, down to a few
    // characters, and the handle kept whole; narrower still the handle is dropped. A name
    // other friends share (presence.nameShared) gives way further and keeps the handle down
    // to the narrowest row: there the handle is elided in the middle, as "@user17" and
    // "@user42" differ at their end. Narrower still (an unread badge beside the narrowest
    // row's name) it has no room left, and goes.
    [[nodiscard]] static NameLine nameLine(
        const FriendPresence &presence, const QFont &font, int width);

    // A colour per user id, the same in every process and on every machine.
    [[nodiscard]] static QColor avatarColor(const QString &id);
    // Black or white, whichever contrasts more with the background.
    [[nodiscard]] static QColor avatarTextColor(const QColor &background);
    // "Ada Lovelace" -> "AL", "grace" -> "G": the first letter of the first and last words.
    [[nodiscard]] static QString initials(const QString &name);
    // Initials on a circle coloured from the id, filling `rect` (a square): rows, the chat
    // header and the signed-in user's own avatar.
    static void paintAvatar(
        QPainter *painter, const QRect &rect, const FriendPresence &presence, const QFont &font);
    // The presence mark's colour on this palette (a row that is not selected).
    [[nodiscard]] static QColor presenceColor(Models::PresenceState state, const QPalette &palette);

private:
    // The font a name is drawn in: the row's, DemiBold.
    [[nodiscard]] static QFont nameFont(const QFont &font);
    // The same, from a row layout already made (paint makes it once per row).
    [[nodiscard]] static QRect unreadBadgeRect(
        const QStyleOptionViewItem &option, const QRect &name, int unread);
    static void paintUnreadBadge(QPainter *painter, const QRect &rect, int unread,
        const QStyleOptionViewItem &option, bool selected);
    static void paintName(QPainter *painter, const QStyleOptionViewItem &opt, const QRect &area,
        const FriendPresence &presence, const QColor &text, const QColor &secondary);
};

} // namespace Presence::Ui
