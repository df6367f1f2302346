#include "ui/ClockedDelegate.h"

// C++
#include <utility>

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

} // namespace Presence::Ui
