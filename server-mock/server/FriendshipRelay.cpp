#include "server-mock/server/FriendshipRelay.h"

// Presence
#include "protocol/CloseCode.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/server/ClientConnection.h"
#include "server-mock/server/ConnectionRegistry.h"
#include "server-mock/server/Logging.h"
#include "server-mock/server/PresenceFanout.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;

FriendshipRelay::FriendshipRelay(UserDirectory &directory, const ConnectionRegistry &connections,
    PresenceFanout &presence, QObject *parent)
    : QObject(parent)
    , m_directory(directory)
    , m_connections(connections)
    , m_presence(presence)
{
}

DirectoryDiff FriendshipRelay::diffTo(const UserDirectory &next) const
{
    return DirectoryDiff::between(m_directory, next, m_fromSource);
}

int FriendshipRelay::changeFriendships(const QList<FriendshipChange> &changes)
{
    FriendsToTell told;
    const int changed = applyFriendships(changes, told);
    tellFriendsChanged(told);
    return changed;
}

int FriendshipRelay::applyFriendships(const QList<FriendshipChange> &changes, FriendsToTell &told)
{
    int changed = 0;
    for (const FriendshipChange &change : changes) {
        if (!m_directory.setFriendship(change.a, change.b, change.friends))
            continue;
        ++changed;
        for (const auto &[self, other] :
            { std::pair { change.a, change.b }, std::pair { change.b, change.a } }) {
            const UserDirectory::User &user = m_directory.user(other);
            if (change.friends)
                told[self].added.append({ user.id, user.name });
            else
                told[self].removed.append(user.id);
        }
    }
    return changed;
}

void FriendshipRelay::tellFriendsChanged(const FriendsToTell &told)
{
    for (auto it = told.cbegin(); it != told.cend(); ++it) {
        if (m_directory.isRemoved(it.key()))
            continue; // signed out instead
        const UserDirectory::User &user = m_directory.user(it.key());
        qCInfo(lcGateway).noquote() << user.id << "has" << it->added.size() << "new friends and"
                                    << it->removed.size() << "fewer";
        const FriendsChanged frame { it->added, it->removed, int(user.friends.size()) };
        for (ClientConnection *connection : m_connections.devicesOf(user.id)) {
            m_presence.friendsChanged(connection, it->removed);
            connection->send(toJson(frame));
        }
    }
}

void FriendshipRelay::applyDirectoryDiff(const DirectoryDiff &diff)
{
    const auto indexOf = [this](const QString &id) { return *m_directory.indexOfId(id); };
    const auto byIndex = [&indexOf](const QList<DirectoryDiff::Pair> &pairs, bool friends) {
        QList<FriendshipChange> changes;
        changes.reserve(pairs.size());
        for (const auto &[a, b] : pairs)
            changes.append({ indexOf(a), indexOf(b), friends });
        return changes;
    };
    // Each user hears once, of both kinds of change, once leavers are gone and joiners here.
    FriendsToTell told;
    (void)applyFriendships(byIndex(diff.unfriended, false), told);
    // Closed with a copy of the list: a close may report the end at once.
    const auto closeAll = [this](const QString &userId, bool usersFileOnly, const QString &why) {
        for (ClientConnection *connection : m_connections.devicesOf(userId)) {
            if (!usersFileOnly || !connection->tokenExpires())
                connection->close(CloseCode::TokenRevoked, why);
        }
    };
    for (const QString &id : diff.left) {
        closeAll(id, false, u"the user was removed"_s);
        m_directory.removeUser(indexOf(id));
    }
    for (const DirectoryDiff::Entry &entry : diff.retokened) {
        closeAll(entry.id, true, u"the token changed: sign in again"_s);
        m_directory.setToken(indexOf(entry.id), {});
    }
    // Set once every old one is gone: tokens may have moved from one user to another.
    for (const DirectoryDiff::Entry &entry : diff.retokened)
        m_directory.setToken(indexOf(entry.id), entry.token);
    for (const DirectoryDiff::Entry &entry : diff.renamed)
        m_directory.setName(indexOf(entry.id), entry.name);
    for (const DirectoryDiff::Entry &entry : diff.joined)
        m_directory.addUser(entry.id, entry.name, entry.token);
    (void)applyFriendships(byIndex(diff.befriended, true), told);
    tellFriendsChanged(told);
    qCInfo(lcGateway).noquote() << "the population changed:" << diff.summary();
}

void FriendshipRelay::setFriendSource(FriendSource *source)
{
    if (m_friendSource)
        disconnect(m_friendSource, nullptr, this, nullptr);
    m_friendSource = source;
    if (source)
        connect(source, &FriendSource::friendsChanged, this, &FriendshipRelay::onSourceChanged);
}

int FriendshipRelay::syncFromSource(const QString &userId, const FriendSource::Entry &entry)
{
    const auto known = [this](const QString &id, const QString &name) {
        if (const auto index = m_directory.indexOfId(id)) {
            if (m_fromSource.contains(*index))
                m_directory.setName(*index, name); // the users file's names stay its own
            return *index;
        }
        const int index = m_directory.addUser(id, name, {});
        m_fromSource.insert(index);
        return index;
    };
    const int self = known(userId, entry.name);
    QSet<int> now;
    QList<FriendshipChange> changes;
    for (const FriendSource::Friend &f : entry.friends) {
        const int other = known(f.id, f.name);
        now.insert(other);
        changes.append({ self, other, true });
    }
    for (const int other : m_directory.user(self).friends) {
        if (!now.contains(other))
            changes.append({ self, other, false });
    }
    return changeFriendships(changes);
}

void FriendshipRelay::onSourceChanged(const QString &userId)
{
    const auto index = m_directory.indexOfId(userId);
    if (!m_friendSource || !index || !m_fromSource.contains(*index))
        return; // never signed in here, nor anyone's friend: read at their sign-in
    m_friendSource->read(userId, this, [this, userId](const auto &entry) {
        if (entry)
            (void)syncFromSource(userId, *entry);
    });
}

} // namespace Presence::Server
