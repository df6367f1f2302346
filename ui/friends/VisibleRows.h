#pragma once

// C++
#include <optional>

class QAbstractItemView;

namespace Presence::Ui {

// The rows of a view's model that are on screen now, first and last inclusive.
struct RowRange {
    int first = 0;
    int last = -1;
    [[nodiscard]] int count() const { return last - first + 1; }
};

// Nothing when the view is hidden, empty, or not laid out yet (a batched layout in progress).
[[nodiscard]] std::optional<RowRange> visibleRows(const QAbstractItemView &view);

} // namespace Presence::Ui
