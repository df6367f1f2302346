#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QCoreApplication>
#include <QDate>
#include <QDateTime>
#include <QString>

class QModelIndex;

namespace Presence::Ui {

// How one chat row relates to its neighbours, which decides what the delegate draws around
// its bubble:
// - a day separator above the first message of each calendar day (in the time zone of
//   "now"): "Today", "Yesterday", else the locale's date;
// - the "New messages" divider above the first unread message;
// - grouping: a message joins the group of the one before it when both are from the same
//   sender, on the same day, at most kGroupGap apart, with no divider between. Bubbles of a
//   group sit closer together, and the small line with the time is shown once, under the
//   group's last message (and under any message of ours not delivered yet, whose state must
//   always show). The tooltip still gives every message's time.
struct ChatRowContext {
    Q_DECLARE_TR_FUNCTIONS(Presence::Ui::ChatRowContext)
public:
    static inline constexpr std::chrono::minutes kGroupGap { 5 };

    std::optional<QDate> dayStarts; // the first message of this day: a separator above
    bool unreadDivider = false; // the first unread message: "New messages" above
    bool joinsPrevious = false;
    bool joinsNext = false;
    bool showsMeta = true;

    // `firstUnreadId`: the id of the first unread message, or empty for no divider.
    [[nodiscard]] static ChatRowContext of(
        const QModelIndex &index, const QDateTime &now, const QString &firstUnreadId);
    // "Today", "Yesterday" or the locale's long date, for `day` seen on `today`.
    [[nodiscard]] static QString dayText(QDate day, QDate today);
};

} // namespace Presence::Ui
