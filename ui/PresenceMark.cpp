#include "ui/PresenceMark.h"

// Qt
#include <QPainter>
#include <QPainterPath>
#include <QPalette>

// Presence
#include "ui/PaletteColors.h"

namespace Presence::Ui {

using Models::PresenceState;

namespace {

constexpr qreal kRingInner = 0.65; // offline and unknown: a ring from here to the edge
constexpr qreal kCoreRadius = 0.4; // offline: the dot inside the ring
constexpr qreal kBiteOffset = 0.75; // away: a bite centred up and out by this much
constexpr qreal kBiteRadius = 0.7;

} // namespace

QColor PresenceMark::color(PresenceState state, const QPalette &palette)
{
    const bool dark = PaletteColors::isDark(palette);
    switch (state) {
    case PresenceState::Online:
        return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x1f, 0x88, 0x3d);
    case PresenceState::Away:
        return dark ? QColor(0xe3, 0xa3, 0x1e) : QColor(0xbf, 0x87, 0x00);
    case PresenceState::Offline:
        return PaletteColors::mix(
            palette.color(QPalette::Text), palette.color(QPalette::Base), 0.5);
    case PresenceState::Unknown:
        break;
    }
    return PaletteColors::mix(palette.color(QPalette::Text), palette.color(QPalette::Base), 0.4);
}

void PresenceMark::paint(
    QPainter *painter, const QRect &rect, PresenceState state, const QColor &color)
{
    const QRectF box(rect);
    const QPointF centre = box.center();
    const qreal r = box.width() / 2;
    const auto circle = [&centre](qreal radius, QPointF offset = {}) {
        QPainterPath path;
        path.addEllipse(centre + offset, radius, radius);
        return path;
    };

    QPainterPath shape;
    switch (state) {
    case PresenceState::Online:
        shape = circle(r);
        break;
    case PresenceState::Away:
        shape = circle(r).subtracted(
            circle(kBiteRadius * r, QPointF(kBiteOffset * r, -kBiteOffset * r)));
        break;
    case PresenceState::Offline:
        shape = circle(r).subtracted(circle(kRingInner * r)).united(circle(kCoreRadius * r));
        break;
    case PresenceState::Unknown:
        shape = circle(r).subtracted(circle(kRingInner * r));
        break;
    }
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPath(shape);
}

} // namespace Presence::Ui
