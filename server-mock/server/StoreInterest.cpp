#include "server-mock/server/StoreInterest.h"

namespace Presence::Server {

void StoreInterest::acquire(const QString &userId)
{
    if (++m_holds[userId] == 1)
        Q_EMIT userWatched(userId);
}

void StoreInterest::release(const QString &userId)
{
    const auto it = m_holds.find(userId);
    if (it == m_holds.end())
        return;
    if (--*it > 0)
        return;
    m_holds.erase(it);
    Q_EMIT userUnwatched(userId);
}

} // namespace Presence::Server
