#include "ui/chat/NewMessagesPill.h"

// Qt
#include <QAbstractScrollArea>
#include <QEvent>

namespace Presence::Ui {

namespace {

constexpr int kMarginBottom = 10; // logical pixels above the viewport's bottom edge

} // namespace

NewMessagesPill::NewMessagesPill(QAbstractScrollArea *area)
    : QPushButton(area)
    , m_area(area)
{
    setCursor(Qt::PointingHandCursor);
    setFocusPolicy(Qt::NoFocus); // the keyboard stays in the message input
    setAccessibleName(tr("Scroll to the newest message"));
    hide();
    area->installEventFilter(this);
}

void NewMessagesPill::setCount(int count)
{
    m_count = count;
    if (count <= 0) {
        hide();
        return;
    }
    setText(count == 1 ? tr("1 new message ↓") : tr("%1 new messages ↓").arg(count));
    reposition();
    show();
    raise();
}

bool NewMessagesPill::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_area && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        reposition();
    return QPushButton::eventFilter(watched, event);
}

void NewMessagesPill::reposition()
{
    const QSize size = sizeHint();
    const QRect viewport = m_area->viewport()->geometry();
    move(viewport.left() + (viewport.width() - size.width()) / 2,
        viewport.bottom() - kMarginBottom - size.height());
    resize(size);
}

} // namespace Presence::Ui
