#include "ui/ClockedDelegate.h"

// C++
#include <utility>

// Qt
#include <QApplication>
#include <QColor>
#include <QStyle>
#include <QStyleOptionFocusRect>

namespace Presence::Ui {

ClockedDelegate::ClockedDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

void ClockedDelegate::setNowFunction(NowFunction now)
{
    m_now = std::move(now);
}

QDateTime ClockedDelegate::now() const
{
    return m_now ? m_now() : QDateTime::currentDateTime();
}

void ClockedDelegate::paintFocusFrame(
    QPainter *painter, const QStyleOptionViewItem &option, const QColor &background)
{
    if (!option.state.testFlag(QStyle::State_HasFocus))
        return;
    const QWidget *widget = option.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    QStyleOptionFocusRect focus;
    focus.QStyleOption::operator=(option);
    focus.state |= QStyle::State_KeyboardFocusChange | QStyle::State_Item;
    focus.backgroundColor = background;
    style->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, painter, widget);
}

} // namespace Presence::Ui
