#include "ui/shell/OwnAvatar.h"

// Qt
#include <QPainter>

// Presence
#include "ui/PresenceMark.h"
#include "ui/PresenceText.h"
#include "ui/friends/FriendDelegate.h"

namespace Presence::Ui {

OwnAvatar::OwnAvatar(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void OwnAvatar::setUser(const QString &id, const QString &name)
{
    if (id == m_id && name == m_name)
        return;
    m_id = id;
    m_name = name;
    update();
}

void OwnAvatar::setState(Models::PresenceState state)
{
    if (state == m_state)
        return;
    m_state = state;
    update();
}

QSize OwnAvatar::sizeHint() const
{
    const int side = fontMetrics().height() * 2;
    return { side, side };
}

void OwnAvatar::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const int side = std::min(width(), height());
    const QRect circle(0, 0, side, side);
    FriendPresence self;
    self.id = m_id;
    self.name = m_name.isEmpty() ? m_id : m_name;
    FriendDelegate::paintAvatar(&painter, circle, self, font());
    // The mark sits on the lower trailing edge, on a disc of the window colour so it reads on
    // any avatar colour.
    const int markSide = std::max(6, side * 2 / 5);
    const QRect mark = QStyle::visualRect(
        layoutDirection(), circle, QRect(side - markSide, side - markSide, markSide, markSide));
    painter.setPen(Qt::NoPen);
    painter.setBrush(palette().color(QPalette::Window));
    painter.drawEllipse(QRectF(mark).adjusted(-1.5, -1.5, 1.5, 1.5));
    PresenceMark::paint(&painter, mark, m_state, PresenceMark::color(m_state, palette()));
}

} // namespace Presence::Ui
