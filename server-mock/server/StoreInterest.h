#pragma once

// Qt
#include <QHash>
#include <QObject>
#include <QString>

namespace Presence::Server {

// The users this gateway needs its presence store to follow, for whatever reason: exact
// subscriptions and availability sets both take a hold. A shared store listens to a user's
// changes from the first hold to the last release, so two reasons never fight over one
// channel.
class StoreInterest : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    void acquire(const QString &userId);
    void release(const QString &userId);
    [[nodiscard]] int followedCount() const { return int(m_holds.size()); }

Q_SIGNALS:
    void userWatched(const QString &userId);
    void userUnwatched(const QString &userId);

private:
    QHash<QString, int> m_holds;
};

} // namespace Presence::Server
