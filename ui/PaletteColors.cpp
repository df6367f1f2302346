#include "ui/PaletteColors.h"

// Qt
#include <QStyle>
#include <QStyleOptionViewItem>

namespace Presence::Ui {

QColor PaletteColors::mix(const QColor &a, const QColor &b, qreal t)
{
    const auto channel = [t](float x, float y) { return x + (y - x) * float(t); };
    return QColor::fromRgbF(channel(a.redF(), b.redF()), channel(a.greenF(), b.greenF()),
        channel(a.blueF(), b.blueF()));
}

bool PaletteColors::isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

QPalette::ColorGroup PaletteColors::colorGroupOf(const QStyleOptionViewItem &option)
{
    if (!(option.state & QStyle::State_Enabled))
        return QPalette::Disabled;
    return (option.state & QStyle::State_Active) ? QPalette::Normal : QPalette::Inactive;
}

QColor PaletteColors::errorColor(const QPalette &palette)
{
    // No palette role means "error"; these two keep 4.5:1 contrast on white and on #202020.
    return isDark(palette) ? QColor(0xff, 0x7b, 0x72) : QColor(0xc5, 0x22, 0x1f);
}

} // namespace Presence::Ui
