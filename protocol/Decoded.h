#pragma once

// C++
#include <utility>
#include <variant>

// Presence
#include "protocol/ErrorCode.h"

namespace Presence::Protocol {

// The outcome of decoding something from the wire: a value or the error to report.
template <typename T> class Decoded {
public:
    Decoded(T value)
        : m_state(std::move(value))
    {
    }
    Decoded(ProtocolError error)
        : m_state(std::move(error))
    {
    }

    [[nodiscard]] bool ok() const { return std::holds_alternative<T>(m_state); }
    [[nodiscard]] const T &value() const & { return std::get<T>(m_state); }
    [[nodiscard]] T &&value() && { return std::get<T>(std::move(m_state)); }
    [[nodiscard]] const ProtocolError &error() const { return std::get<ProtocolError>(m_state); }

private:
    std::variant<T, ProtocolError> m_state;
};

// An error about a request names the request's ref, so the peer can match it.
template <typename T>
[[nodiscard]] Decoded<T> withRef(Decoded<T> decoded, const std::optional<QString> &ref)
{
    if (decoded.ok())
        return decoded;
    ProtocolError error = decoded.error();
    error.ref = ref;
    return error;
}

} // namespace Presence::Protocol
