#pragma once

// C++
#include <functional>

// Qt
#include <QLatin1StringView>
#include <QObject>
#include <QStringList>

// Presence
#include "protocol/PresenceStatus.h"
#include "protocol/ServerMessages.h"
#include "server-mock/core/ConnectionId.h"

namespace Presence::Server {

// Where presence lives. The gateway reports its authenticated connections here and
// learns of published changes from presencePublished(). The interface is asynchronous
// (snapshot() answers through a callback) so that a networked store never blocks the
// event loop; the in-memory store answers at once.
class PresenceStore : public QObject {
    Q_OBJECT
public:
    using SnapshotCallback = std::function<void(const QList<Protocol::UserPresence> &)>;

    using QObject::QObject;
    ~PresenceStore() override = default;

    virtual void connectionOpened(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status)
        = 0;
    virtual void connectionStatusChanged(
        const QString &userId, ConnectionId connection, Protocol::ChosenStatus status)
        = 0;
    virtual void connectionClosed(const QString &userId, ConnectionId connection) = 0;

    // The published presence of each id, in the order asked. The callback is not called
    // once `context` is destroyed.
    virtual void snapshot(const QStringList &ids, QObject *context, SnapshotCallback callback) = 0;

    // This gateway has (or no longer has) a connection watching userId. A shared store
    // listens for that user's changes only in between.
    virtual void watch(const QString &userId) = 0;
    virtual void unwatch(const QString &userId) = 0;

    // What the store is ("memory", "redis"), as GET /healthz names it.
    [[nodiscard]] virtual QLatin1StringView kind() const = 0;
    // Whether it can serve now; a networked store is not while its server is away.
    [[nodiscard]] virtual bool isAvailable() const { return true; }

Q_SIGNALS:
    // A change other users may see, to be pushed to that user's watchers.
    void presencePublished(const Presence::Protocol::UserPresence &presence);
    // What watchers were told may be wrong or missing (a shared store lost its pushes, or
    // restarted empty and counts seq from zero again): send every watcher a fresh snapshot.
    void storeReset();
};

} // namespace Presence::Server
