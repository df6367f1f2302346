#pragma once

// Qt
#include <QList>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

// Presence
#include "server-mock/directory/UserDirectory.h"

namespace Presence::Server {

// What changes from one population to the next (a users file read again): who joins, who
// leaves, whose token or name changed, and which friendships are made or ended, by id. Pure:
// the gateway applies it (FriendshipRelay::applyDirectoryDiff).
struct DirectoryDiff {
    struct Entry {
        QString id;
        QString name;
        QString token;
        friend bool operator==(const Entry &, const Entry &) = default;
    };
    using Pair = QPair<QString, QString>; // the smaller id first

    QList<Entry> joined; // in the next file's order
    QStringList left; // in the current order
    // The users-file token changed (to entry.token): its connections must sign in again.
    QList<Entry> retokened;
    QList<Entry> renamed; // with the new name
    QList<Pair> befriended; // both users exist after the change
    QList<Pair> unfriended; // leavers' friendships included

    [[nodiscard]] bool isEmpty() const
    {
        return joined.isEmpty() && left.isEmpty() && retokened.isEmpty() && renamed.isEmpty()
            && befriended.isEmpty() && unfriended.isEmpty();
    }
    // "2 joined, 1 left, 1 new token, 0 renamed, 3 friendships made, 4 ended", for logs.
    [[nodiscard]] QString summary() const;

    // From `current` (users removed from it before, see UserDirectory::removeUser, are not in
    // it) to `next`. A token that moves from one user to another counts as changed for both.
    // `others`: indexes of current users who are not the file's (a friend source's): they
    // neither leave nor lose their friendships.
    [[nodiscard]] static DirectoryDiff between(
        const UserDirectory &current, const UserDirectory &next, const QSet<int> &others = {});
};

} // namespace Presence::Server
