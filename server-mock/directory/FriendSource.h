#pragma once

// C++
#include <functional>
#include <optional>

// Qt
#include <QList>
#include <QObject>
#include <QString>

namespace Presence::Server {

// Where the friends of users who are not in the users file come from, for a gateway that
// signs users in with JSON Web Tokens from the app's own backend: that backend keeps the graph
// (Redis sets, docs/redis.md, RedisFriendGraph) and says when a user's friends changed.
class FriendSource : public QObject {
    Q_OBJECT
public:
    struct Friend {
        QString id;
        QString name; // the id when the backend gives none
        friend bool operator==(const Friend &, const Friend &) = default;
    };
    // A user as the backend has them now: their own name and their friends.
    struct Entry {
        QString name; // the id when the backend gives none
        QList<Friend> friends; // in a stable order (friends pages follow it)
    };
    // Nullopt when the user could not be read (the source is away).
    using Read = std::function<void(const std::optional<Entry> &)>;

    using QObject::QObject;

    // `done` is called once, from the event loop, unless `context` is destroyed first.
    virtual void read(const QString &userId, QObject *context, Read done) = 0;

Q_SIGNALS:
    // The backend says userId's friends changed: read them again.
    void friendsChanged(const QString &userId);
};

} // namespace Presence::Server
