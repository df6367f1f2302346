#pragma once

// Qt
#include <QList>
#include <QObject>

// Presence
#include "protocol/ServerMessages.h"

namespace Presence::Session {

class FramePacer;

// The friend list on one connection: read page by page once signed in, and read again from
// its first page when the gateway says it changed. Pages of an earlier reading, or of an
// earlier connection, are told apart by their offset and ignored.
class FriendListSync : public QObject {
    Q_OBJECT
public:
    FriendListSync(FramePacer *pacer, int pageSize, QObject *parent = nullptr);

    // Reads the whole list from its first page, dropping any reading under way.
    void read();
    // The connection is gone: pages still on their way belong to it.
    void stop();
    [[nodiscard]] bool isReading() const { return m_reading; }

    void onPage(const Protocol::FriendsPage &page);

Q_SIGNALS:
    // The whole list, in the gateway's order.
    void loaded(const QList<Presence::Protocol::UserInfo> &friends);

private:
    void request(int offset);

    FramePacer *m_pacer;
    int m_pageSize;
    bool m_reading = false;
    QList<Protocol::UserInfo> m_friends; // the pages read so far
};

} // namespace Presence::Session
