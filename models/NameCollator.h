#pragma once

// C++
#include <functional>
#include <memory>
#include <vector>

// Qt
#include <QLocale>
#include <QStringView>

struct UCollator;

namespace Presence::Models {

// The order of friends' names as people expect it: the locale's collation (English for the C
// locale), case ignored, numbers by value ("user2" before "user10"), the id breaking ties.
//
// ICU itself rather than QCollator, which wraps the same ICU collator: a full ranking of
// 100,000 names needs the sort keys side by side in one buffer, compared eight bytes at a
// time, and QCollatorSortKey allocates each key on its own and compares through a call.
class NameCollator {
public:
    explicit NameCollator(const QLocale &locale = QLocale());
    ~NameCollator();
    NameCollator(const NameCollator &) = delete;
    NameCollator &operator=(const NameCollator &) = delete;

    using Text = std::function<QStringView(int)>;
    // Negative, zero or positive as `a` sorts before, with or after `b` (ids not considered).
    [[nodiscard]] int compare(QStringView a, QStringView b) const;
    // `rows` in name order, ties by id (compared as text): names and ids are read through
    // `name` and `id`. One sort key per row, made once.
    void sort(std::vector<int> &rows, const Text &name, const Text &id) const;
    // Sort keys made so far, for tests that pin how many names a change collates.
    [[nodiscard]] qint64 keysMade() const { return m_keysMade; }

private:
    UCollator *m_collator = nullptr; // null only if ICU has no collation data at all
    mutable qint64 m_keysMade = 0;
};

} // namespace Presence::Models
