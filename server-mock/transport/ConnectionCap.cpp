#include "server-mock/transport/ConnectionCap.h"

// C++
#include <cstring>
#include <utility>

// Qt
#include <QHostAddress>

namespace Presence::Server {

ConnectionCap::Ticket::Ticket(Ticket &&other) noexcept
    : m_cap(std::exchange(other.m_cap, nullptr))
    , m_key(other.m_key)
{
}

ConnectionCap::Ticket &ConnectionCap::Ticket::operator=(Ticket &&other) noexcept
{
    if (this != &other) {
        release();
        m_cap = std::exchange(other.m_cap, nullptr);
        m_key = other.m_key;
    }
    return *this;
}

void ConnectionCap::Ticket::release()
{
    if (ConnectionCap *cap = std::exchange(m_cap, nullptr))
        cap->release(m_key);
}

ConnectionCap::ConnectionCap()
    : ConnectionCap(Limits {})
{
}

ConnectionCap::ConnectionCap(Limits limits)
    : m_limits(limits)
{
}

ConnectionCap::Admission ConnectionCap::admit(const QHostAddress &peer)
{
    if (m_limits.total > 0 && m_count >= m_limits.total)
        return { Verdict::Full, {} };
    AddressKey key {};
    if (capsAddresses()) {
        key = keyOf(peer);
        int &fromPeer = m_perAddress[key];
        if (fromPeer >= m_limits.perAddress) {
            if (fromPeer == 0)
                m_perAddress.erase(key);
            return { Verdict::AddressFull, {} };
        }
        ++fromPeer;
    }
    ++m_count;
    return { Verdict::Admitted, Ticket(this, key) };
}

int ConnectionCap::countFrom(const QHostAddress &peer) const
{
    const auto it = m_perAddress.find(keyOf(peer));
    return it == m_perAddress.end() ? 0 : it->second;
}

ConnectionCap::AddressKey ConnectionCap::keyOf(const QHostAddress &peer)
{
    // IPv4 (plain or mapped) becomes ::ffff:a.b.c.d, so both spellings are one address.
    bool isV4 = false;
    const quint32 v4 = peer.toIPv4Address(&isV4);
    AddressKey key {};
    if (isV4) {
        key[10] = 0xff;
        key[11] = 0xff;
        key[12] = quint8(v4 >> 24);
        key[13] = quint8(v4 >> 16);
        key[14] = quint8(v4 >> 8);
        key[15] = quint8(v4);
        return key;
    }
    const Q_IPV6ADDR v6 = peer.toIPv6Address();
    std::memcpy(key.data(), &v6, 8); // the /64
    return key;
}

std::size_t ConnectionCap::KeyHash::operator()(const AddressKey &key) const noexcept
{
    quint64 high = 0;
    quint64 low = 0;
    std::memcpy(&high, key.data(), 8);
    std::memcpy(&low, key.data() + 8, 8);
    return std::size_t((high * 0x9E3779B97F4A7C15ULL) ^ (low * 0xC2B2AE3D27D4EB4FULL));
}

void ConnectionCap::release(const AddressKey &key)
{
    --m_count;
    if (!capsAddresses())
        return;
    const auto it = m_perAddress.find(key);
    if (it != m_perAddress.end() && --it->second == 0)
        m_perAddress.erase(it);
}

} // namespace Presence::Server
