#pragma once

// Qt
#include <QtGlobal>

namespace BenchSupport {

// Header bytes of a WebSocket frame with this payload (RFC 6455 §5.2): 2, 4 or 10, plus the
// 4-byte mask every client frame carries.
inline qint64 frameHeader(qint64 payload, bool fromClient)
{
    const qint64 header = payload <= 125 ? 2 : payload <= 65535 ? 4 : 10;
    return header + (fromClient ? 4 : 0);
}

} // namespace BenchSupport
