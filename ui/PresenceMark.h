#pragma once

// Qt
#include <QColor>
#include <QRect>

// Presence
#include "models/PresenceState.h"

class QPainter;
class QPalette;

namespace Presence::Ui {

// The presence mark, wherever it is drawn (a friend's row, the chat header). The four states
// differ in shape, not only in colour: online is a filled disc, away a disc with a bite out
// of its top corner, offline a ring around a small dot, unknown an empty ring.
class PresenceMark {
public:
    // The mark's colour on this palette, tuned for a light or dark Base.
    [[nodiscard]] static QColor color(Models::PresenceState state, const QPalette &palette);
    // Fills the mark's shape inside `rect` (a square) with `color`.
    static void paint(
        QPainter *painter, const QRect &rect, Models::PresenceState state, const QColor &color);
};

} // namespace Presence::Ui
