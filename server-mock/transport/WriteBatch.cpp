#include "server-mock/transport/WriteBatch.h"

// C++
#include <algorithm>
#include <utility>

// Presence
#include "server-mock/transport/RawWebSocketTransport.h"

namespace Presence::Server {

WriteBatch::~WriteBatch()
{
    for (RawWebSocketTransport *transport : m_pending)
        transport->leftBatch();
}

void WriteBatch::add(RawWebSocketTransport *transport)
{
    m_pending.push_back(transport);
    if (!std::exchange(m_posted, true))
        QMetaObject::invokeMethod(this, &WriteBatch::flush, Qt::QueuedConnection);
}

void WriteBatch::remove(RawWebSocketTransport *transport)
{
    // Rare (a transport destroyed with output not yet flushed): a linear search is fine.
    std::erase(m_pending, transport);
    std::replace(m_flushing.begin(), m_flushing.end(), transport,
        static_cast<RawWebSocketTransport *>(nullptr));
}

void WriteBatch::flush()
{
    m_posted = false;
    // Swapped out first: a flush may end a connection, and a transport written to while the
    // batch is flushed joins the next one.
    std::swap(m_flushing, m_pending);
    for (RawWebSocketTransport *transport : m_flushing) {
        if (transport)
            transport->flushBatch();
    }
    m_flushing.clear();
}

} // namespace Presence::Server
