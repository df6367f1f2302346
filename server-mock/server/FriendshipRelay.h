#pragma once

// Qt
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QStringList>

// Presence
#include "protocol/ServerMessages.h"
#include "server-mock/directory/DirectoryDiff.h"
#include "server-mock/directory/FriendSource.h"

namespace Presence::Server {

class ConnectionRegistry;
class PresenceFanout;
class UserDirectory;

// Who is friends with whom, while users are connected: a change from the admin API, a users
// file read again (a population diff) or the friend source is applied to the directory and told
// to every connection here of each user concerned (friends_changed), which stops watching those
// who are no longer friends.
class FriendshipRelay : public QObject {
    Q_OBJECT
public:
    // All of them must outlive the relay; the directory is the gateway's, which it changes.
    FriendshipRelay(UserDirectory &directory, const ConnectionRegistry &connections,
        PresenceFanout &presence, QObject *parent = nullptr);

    // A live change of who is friends with whom (admin API, users-file reload), between users
    // of the directory. Every connection of a user whose friends changed is told
    // (friends_changed) and stops watching those who are no longer friends. Returns how many
    // of the changes changed something.
    struct FriendshipChange {
        int a = 0;
        int b = 0;
        bool friends = false;
    };
    int changeFriendships(const QList<FriendshipChange> &changes);
    // A new population (the users file read again), as a diff from the one served: friendships
    // ended are told first, then leavers' connections, and those signed in with a users-file
    // token that changed, are closed (4005); names and tokens change, joiners may sign in,
    // and friendships made are told last.
    void applyDirectoryDiff(const DirectoryDiff &diff);
    // From the population served to `next` (the users file read again): the friend source's
    // users are not the file's, and stay as they are.
    [[nodiscard]] DirectoryDiff diffTo(const UserDirectory &next) const;

    // Users who are not in the users file sign in with a JSON Web Token; who they are (their
    // name) and their friends are read from `source` at each sign-in, and again when it says
    // they changed. Not owned; it must outlive the relay.
    void setFriendSource(FriendSource *source);
    [[nodiscard]] FriendSource *friendSource() const { return m_friendSource; }
    // Whether the directory's user at userIndex came from the friend source.
    [[nodiscard]] bool isFromSource(int userIndex) const
    {
        return m_fromSource.contains(userIndex);
    }
    // A user of the friend source as it has them now: their name, and their friends (who
    // join the directory if new), the difference told as friends_changed.
    int syncFromSource(const QString &userId, const FriendSource::Entry &entry);

private:
    // changeFriendships in two halves, so that one user hears of several changes at once.
    struct FriendsTold {
        QList<Protocol::UserInfo> added;
        QStringList removed;
    };
    using FriendsToTell = QHash<int, FriendsTold>; // by directory index
    int applyFriendships(const QList<FriendshipChange> &changes, FriendsToTell &told);
    void tellFriendsChanged(const FriendsToTell &told);
    void onSourceChanged(const QString &userId);

    UserDirectory &m_directory;
    const ConnectionRegistry &m_connections;
    PresenceFanout &m_presence;
    FriendSource *m_friendSource = nullptr;
    QSet<int> m_fromSource; // directory indexes of the users the friend source has
};

} // namespace Presence::Server
