#include "ui/chat/MessageLinkHandler.h"

// C++
#include <utility>

// Qt
#include <QListView>
#include <QMouseEvent>
#include <QStyleOptionViewItem>

// Presence
#include "ui/chat/ChatMessageDelegate.h"

namespace Presence::Ui {

MessageLinkHandler::MessageLinkHandler(QListView *view, ChatMessageDelegate *delegate)
    : QObject(view)
    , m_view(view)
    , m_viewport(view->viewport())
    , m_delegate(delegate)
{
    view->viewport()->setMouseTracking(true); // the cursor follows links without a button down
    view->viewport()->installEventFilter(this);
}

std::optional<QUrl> MessageLinkHandler::linkAt(const QPoint &pos) const
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return std::nullopt;
    // The option the view paints the row with: its rect, font, direction and palette.
    QStyleOptionViewItem option;
    option.initFrom(m_view);
    option.widget = m_view;
    option.font = m_view->font();
    option.rect = m_view->visualRect(index);
    return m_delegate->linkAt(option, index, QPointF(pos));
}

bool MessageLinkHandler::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_viewport)
        return QObject::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseMove: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        showCursorFor(linkAt(mouse->position().toPoint()));
        break;
    }
    case QEvent::Leave:
        showCursorFor(std::nullopt);
        break;
    case QEvent::MouseButtonPress: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        m_pressed = mouse->button() == Qt::LeftButton ? linkAt(mouse->position().toPoint())
                                                      : std::nullopt;
        break;
    }
    case QEvent::MouseButtonRelease: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        const std::optional<QUrl> pressed = std::exchange(m_pressed, std::nullopt);
        if (mouse->button() == Qt::LeftButton && pressed
            && linkAt(mouse->position().toPoint()) == pressed) {
            Q_EMIT linkActivated(*pressed);
            return true;
        }
        break;
    }
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void MessageLinkHandler::showCursorFor(const std::optional<QUrl> &link)
{
    if (link)
        m_view->viewport()->setCursor(Qt::PointingHandCursor);
    else
        m_view->viewport()->unsetCursor();
}

} // namespace Presence::Ui
