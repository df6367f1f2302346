#pragma once

// C++
#include <array>
#include <unordered_map>

// Qt
#include <QtGlobal>

class QHostAddress;

namespace Presence::Server {

// How many connections a gateway holds at once, in total and per source address, counting
// each from its accept to its close, upgraded or not. An IPv6 peer counts by its /64, since
// one host is commonly given a whole /64 and could otherwise take any number of places. Each
// admitted connection holds a Ticket that gives its place back when it goes; the cap must
// outlive its tickets. A limit of 0 is no cap.
class ConnectionCap {
public:
    struct Limits {
        int total = 0;
        int perAddress = 0;
    };
    enum class Verdict { Admitted, Full, AddressFull };
    // The 16 bytes of an IPv6 address (IPv4 mapped into it), the last 8 zeroed for a /64.
    using AddressKey = std::array<quint8, 16>;

    class Ticket {
    public:
        Ticket() = default;
        Ticket(Ticket &&other) noexcept;
        Ticket &operator=(Ticket &&other) noexcept;
        Ticket(const Ticket &) = delete;
        Ticket &operator=(const Ticket &) = delete;
        ~Ticket() { release(); }

        [[nodiscard]] bool isHeld() const { return m_cap != nullptr; }
        void release();

    private:
        friend class ConnectionCap;
        Ticket(ConnectionCap *cap, const AddressKey &key)
            : m_cap(cap)
            , m_key(key)
        {
        }

        ConnectionCap *m_cap = nullptr;
        AddressKey m_key {};
    };

    struct Admission {
        Verdict verdict = Verdict::Admitted;
        Ticket ticket; // held when admitted
    };

    ConnectionCap(); // no cap
    explicit ConnectionCap(Limits limits);
    ConnectionCap(const ConnectionCap &) = delete;
    ConnectionCap &operator=(const ConnectionCap &) = delete;

    [[nodiscard]] const Limits &limits() const { return m_limits; }
    // Whether admit() looks at the peer's address at all; when not, any address will do, so a
    // caller may skip finding it out (getpeername).
    [[nodiscard]] bool capsAddresses() const { return m_limits.perAddress > 0; }

    [[nodiscard]] Admission admit(const QHostAddress &peer);
    [[nodiscard]] int count() const { return m_count; }
    [[nodiscard]] int countFrom(const QHostAddress &peer) const;

    [[nodiscard]] static AddressKey keyOf(const QHostAddress &peer);

private:
    struct KeyHash {
        std::size_t operator()(const AddressKey &key) const noexcept;
    };
    void release(const AddressKey &key);

    Limits m_limits;
    int m_count = 0;
    std::unordered_map<AddressKey, int, KeyHash> m_perAddress; // only when capsAddresses()
};

} // namespace Presence::Server
