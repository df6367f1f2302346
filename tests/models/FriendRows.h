#pragma once

// What the tests of FriendListModel and FriendSortFilterProxy read off a friend list, by role;
// header-only.

// C++
#include <algorithm>
#include <chrono>

// Qt
#include <QAbstractItemModel>
#include <QList>
#include <QStringList>

// Presence
#include "models/FriendListModel.h"
#include "models/PresenceState.h"

namespace FriendRows {

// Long enough that the flush timer never fires while a test calls flush() by hand.
inline constexpr auto kManualFlush = std::chrono::hours(1);

inline QStringList idsIn(const QAbstractItemModel &model)
{
    QStringList ids;
    for (int row = 0; row < model.rowCount(); ++row)
        ids.append(model.index(row, 0).data(Presence::Models::FriendListModel::IdRole).toString());
    return ids;
}

inline Presence::Models::PresenceState statusAt(const QAbstractItemModel &model, int row)
{
    return Presence::Models::PresenceState(
        model.index(row, 0).data(Presence::Models::FriendListModel::StatusRole).toInt());
}

inline bool freshAt(const QAbstractItemModel &model, int row)
{
    return model.index(row, 0).data(Presence::Models::FriendListModel::FreshRole).toBool();
}

inline QList<int> sorted(QList<int> roles)
{
    std::sort(roles.begin(), roles.end());
    return roles;
}

} // namespace FriendRows
