#include "ui/PaletteColors.h"

// C++
#include <algorithm>
#include <cmath>

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

qreal PaletteColors::contrast(const QColor &a, const QColor &b)
{
    // Relative luminance of sRGB, as WCAG 2 defines it.
    const auto luminance = [](const QColor &color) {
        const auto linear = [](qreal channel) {
            return channel <= 0.03928 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF())
            + 0.0722 * linear(color.blueF());
    };
    const qreal la = luminance(a);
    const qreal lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
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
