#pragma once

// C++
#include <optional>

// Qt
#include <QCoreApplication>
#include <QDateTime>
#include <QString>

// Presence
#include "models/PresenceState.h"

class QModelIndex;

namespace Presence::Ui {

// What a friend-list row says about one friend, read from the FriendListModel roles (directly
// or through any proxy that forwards them).
struct FriendPresence {
    QString id;
    QString name; // the id when the model has no name
    Models::PresenceState state = Models::PresenceState::Unknown;
    std::optional<qint64> lastSeen; // ms since the epoch
    bool fresh = false;
    std::optional<qint64> staleSince; // when a row that is not fresh stopped being live
    int unread = 0; // messages from them not read yet
    bool nameShared = false; // another friend has the same name: the row keeps the handle

    [[nodiscard]] static FriendPresence fromIndex(const QModelIndex &index);
};

// The words for a friend's presence, shared by the row delegate (the secondary line, the
// tooltip) and by whatever gives the view its accessible text. Every function takes "now" so
// the result is a pure function of its arguments; calendar words ("yesterday", "12 Mar") use
// the time zone of `now` and the default QLocale.
class PresenceText {
    Q_DECLARE_TR_FUNCTIONS(Presence::Ui::PresenceText)
public:
    // "online", "away", "status unknown", "offline" (offline, last seen unknown) or
    // lastSeen(...) for an offline friend with a last-seen time.
    [[nodiscard]] static QString statusLine(
        Models::PresenceState state, std::optional<qint64> lastSeen, const QDateTime &now);
    // As above for a live row; a row that is no longer live never says "online" or "away" as if
    // it were now: "online 3 min ago", "away moments ago" (or "status unknown" when it does not
    // know since when).
    [[nodiscard]] static QString statusLine(const FriendPresence &presence, const QDateTime &now);

    // "last seen just now" (under a minute ago, or in the future: clocks differ),
    // "last seen 5 min ago" (under an hour), "last seen 3 h ago" (the same day, or under
    // 12 hours across midnight), "last seen yesterday", "last seen 12 Mar" (this year),
    // "last seen 12 Mar 2023".
    [[nodiscard]] static QString lastSeen(qint64 lastSeenMs, const QDateTime &now);

    // A time of day as the default locale writes it short, without seconds ("14:05",
    // "2:05 PM"): some locales' short format has them (C: "14:05:09"). Every time the client
    // shows goes through here.
    [[nodiscard]] static QString timeOfDay(const QTime &time);

    // "@ada": how people with the same name are told apart (the search takes it too).
    [[nodiscard]] static QString handle(const QString &id);
    // "Name (@id) — online" (", 2 unread messages"): the tooltip and the accessible text of a
    // row.
    [[nodiscard]] static QString summary(const FriendPresence &presence, const QDateTime &now);
    [[nodiscard]] static QString summary(const QModelIndex &index, const QDateTime &now);
};

} // namespace Presence::Ui
