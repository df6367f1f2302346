#include "ui/AccessibleTextProxy.h"

// C++
#include <utility>

// Presence
#include "ui/ClockedDelegate.h"

namespace Presence::Ui {

AccessibleTextProxy::AccessibleTextProxy(
    const ClockedDelegate *clock, Describe describe, QObject *parent)
    : QIdentityProxyModel(parent)
    , m_clock(clock)
    , m_describe(std::move(describe))
{
}

QVariant AccessibleTextProxy::data(const QModelIndex &index, int role) const
{
    if (role == Qt::AccessibleTextRole && index.isValid())
        return m_describe(mapToSource(index), m_clock->now());
    return QIdentityProxyModel::data(index, role);
}

} // namespace Presence::Ui
