#include "server-mock/directory/UserDirectory.h"

// C++
#include <algorithm>
#include <utility>

namespace Presence::Server {

int UserDirectory::addUser(QString id, QString name, QString token)
{
    const int index = size();
    m_byId.insert(id, index);
    if (!token.isEmpty()) // a user without one signs in some other way (a JSON Web Token)
        m_byToken.insert(token, index);
    m_users.append(User { std::move(id), std::move(name), std::move(token), {} });
    return index;
}

void UserDirectory::addFriendship(int a, int b)
{
    if (a == b)
        return;
    m_users[a].friends.append(b);
    m_users[b].friends.append(a);
}

void UserDirectory::finish()
{
    for (User &user : m_users) {
        std::sort(user.friends.begin(), user.friends.end());
        user.friends.erase(
            std::unique(user.friends.begin(), user.friends.end()), user.friends.end());
    }
}

bool UserDirectory::setFriendship(int a, int b, bool friends)
{
    if (a == b || areFriends(a, b) == friends)
        return false;
    for (const auto &[self, other] : { std::pair { a, b }, std::pair { b, a } }) {
        QList<int> &list = m_users[self].friends;
        const auto at = std::lower_bound(list.begin(), list.end(), other);
        if (friends)
            list.insert(at, other);
        else
            list.erase(at);
    }
    return true;
}

void UserDirectory::removeUser(int index)
{
    User &user = m_users[index];
    while (!user.friends.isEmpty())
        setFriendship(index, user.friends.constLast(), false);
    if (m_byId.value(user.id, -1) == index)
        m_byId.remove(user.id);
    setToken(index, {});
    user.removed = true;
}

void UserDirectory::setToken(int index, const QString &token)
{
    User &user = m_users[index];
    // Tokens may be swapped between users within one change: forget ours only if still ours.
    if (m_byToken.value(user.token, -1) == index)
        m_byToken.remove(user.token);
    user.token = token;
    if (!token.isEmpty())
        m_byToken.insert(token, index);
}

std::optional<int> UserDirectory::indexOfId(const QString &id) const
{
    const auto it = m_byId.constFind(id);
    if (it == m_byId.constEnd())
        return std::nullopt;
    return *it;
}

std::optional<int> UserDirectory::indexOfToken(const QString &token) const
{
    const auto it = m_byToken.constFind(token);
    if (it == m_byToken.constEnd())
        return std::nullopt;
    return *it;
}

bool UserDirectory::areFriends(int a, int b) const
{
    const QList<int> &friends = m_users.at(a).friends;
    return std::binary_search(friends.cbegin(), friends.cend(), b);
}

bool UserDirectory::areFriends(const QString &a, const QString &b) const
{
    const auto first = indexOfId(a);
    const auto second = first ? indexOfId(b) : std::nullopt;
    return second && areFriends(*first, *second);
}

} // namespace Presence::Server
