#pragma once

// C++
#include <optional>

// Qt
#include <QHash>
#include <QList>
#include <QString>

namespace Presence::Server {

// The population a gateway serves: users, their tokens and their (mutual) friendships.
// Users keep the order they were added in; friend lists follow that order, which makes
// `friends` paging stable.
class UserDirectory {
public:
    struct User {
        QString id;
        QString name;
        QString token;
        QList<int> friends; // indices into the directory, ascending
        bool removed = false;
    };

    // Adds a user; the caller has validated the id and checked it is not taken. An empty token
    // signs nobody in.
    int addUser(QString id, QString name, QString token);
    // Records a mutual friendship; repeated calls are harmless.
    void addFriendship(int a, int b);
    // Sorts and de-duplicates friend lists; call once after the last addFriendship().
    void finish();
    // A live change to a finished directory: makes a and b friends or not. False when they
    // already were what was asked (or a == b); the lists stay sorted either way.
    bool setFriendship(int a, int b, bool friends);
    // Live changes of one user. A removed user keeps its index (so that others' indexes hold)
    // but is found by neither id nor token, and has no friends left.
    void removeUser(int index);
    void setToken(int index, const QString &token);
    void setName(int index, const QString &name) { m_users[index].name = name; }
    [[nodiscard]] bool isRemoved(int index) const { return m_users.at(index).removed; }

    [[nodiscard]] int size() const { return int(m_users.size()); }
    [[nodiscard]] const User &user(int index) const { return m_users.at(index); }
    [[nodiscard]] std::optional<int> indexOfId(const QString &id) const;
    [[nodiscard]] std::optional<int> indexOfToken(const QString &token) const;
    [[nodiscard]] bool areFriends(int a, int b) const;
    // The same by id: false when either is nobody here (unknown or removed).
    [[nodiscard]] bool areFriends(const QString &a, const QString &b) const;
    [[nodiscard]] bool containsToken(const QString &token) const
    {
        return m_byToken.contains(token);
    }

private:
    QList<User> m_users;
    QHash<QString, int> m_byId;
    QHash<QString, int> m_byToken;
};

} // namespace Presence::Server
