#pragma once

// Qt
#include <QColor>
#include <QPalette>

class QStyleOptionViewItem;

namespace Presence::Ui {

// Colour arithmetic shared by the delegates and widgets that paint from the palette.
class PaletteColors {
public:
    // `t` of the way from a to b.
    [[nodiscard]] static QColor mix(const QColor &a, const QColor &b, qreal t);
    // A dark theme: the Base colour is dark.
    [[nodiscard]] static bool isDark(const QPalette &palette);
    // The group an item paints with: disabled, inactive window or normal.
    [[nodiscard]] static QPalette::ColorGroup colorGroupOf(const QStyleOptionViewItem &option);
    // WCAG's contrast ratio of two colours, 1 (the same) to 21 (black on white).
    [[nodiscard]] static qreal contrast(const QColor &a, const QColor &b);
    // A red for "something went wrong" text that reads well on this palette's Base.
    [[nodiscard]] static QColor errorColor(const QPalette &palette);
};

} // namespace Presence::Ui
