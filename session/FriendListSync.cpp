#include "session/FriendListSync.h"

// Presence
#include "protocol/ClientMessages.h"
#include "session/FramePacer.h"

namespace Presence::Session {

FriendListSync::FriendListSync(FramePacer *pacer, int pageSize, QObject *parent)
    : QObject(parent)
    , m_pacer(pacer)
    , m_pageSize(pageSize)
{
}

void FriendListSync::read()
{
    m_friends.clear();
    m_reading = true;
    request(0);
}

void FriendListSync::stop()
{
    m_friends.clear();
    m_reading = false;
}

void FriendListSync::onPage(const Protocol::FriendsPage &page)
{
    if (!m_reading || page.offset != m_friends.size())
        return; // a page of an earlier reading, or out of order
    m_friends.append(page.items);
    if (!page.items.isEmpty() && m_friends.size() < page.total) {
        request(int(m_friends.size()));
        return;
    }
    m_reading = false;
    const QList<Protocol::UserInfo> friends = std::exchange(m_friends, {});
    Q_EMIT loaded(friends);
}

void FriendListSync::request(int offset)
{
    m_pacer->send(toJson(Protocol::FriendsRequest { offset, m_pageSize }));
}

} // namespace Presence::Session
