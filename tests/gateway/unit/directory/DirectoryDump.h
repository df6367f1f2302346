#pragma once

// Qt
#include <QList>
#include <QStringList>

// Presence
#include "server-mock/directory/UserDirectory.h"

// A directory as lines, for the tests of what fills one (UsersFile, PopulationGenerator) to
// compare; header-only.
namespace DirectoryDump {

using namespace Qt::StringLiterals;

// The ids of those users.
inline QStringList idsOf(
    const Presence::Server::UserDirectory &directory, const QList<int> &indices)
{
    QStringList ids;
    for (const int index : indices)
        ids.append(directory.user(index).id);
    return ids;
}

// Every user as "id|name|token|friend,friend": equal dumps mean equal directories.
inline QStringList dump(const Presence::Server::UserDirectory &directory)
{
    QStringList lines;
    for (int i = 0; i < directory.size(); ++i) {
        const Presence::Server::UserDirectory::User &user = directory.user(i);
        lines.append(u"%1|%2|%3|%4"_s.arg(
            user.id, user.name, user.token, idsOf(directory, user.friends).join(u',')));
    }
    return lines;
}

} // namespace DirectoryDump
