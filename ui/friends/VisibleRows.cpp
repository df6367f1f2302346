#include "ui/friends/VisibleRows.h"

// C++
#include <algorithm>

// Qt
#include <QAbstractItemView>

namespace Presence::Ui {

std::optional<RowRange> visibleRows(const QAbstractItemView &view)
{
    const QAbstractItemModel *model = view.model();
    const int rows = model ? model->rowCount(view.rootIndex()) : 0;
    if (rows == 0 || !view.isVisible())
        return std::nullopt;
    const QRect area = view.viewport()->rect();
    const QModelIndex top = view.indexAt(QPoint(area.left() + 1, area.top() + 1));
    if (!top.isValid())
        return std::nullopt;
    const QModelIndex bottom = view.indexAt(QPoint(area.left() + 1, area.bottom() - 1));
    if (bottom.isValid())
        return RowRange { top.row(), bottom.row() };
    // Past the last row, or not laid out that far yet: estimate from the height of a row
    // rather than assume everything below is visible.
    const int rowHeight = std::max(1, view.visualRect(top).height());
    return RowRange { top.row(), std::min(rows - 1, top.row() + area.height() / rowHeight) };
}

} // namespace Presence::Ui
