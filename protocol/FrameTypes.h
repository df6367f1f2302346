#pragma once

// Qt
#include <QStringList>

namespace Presence::Protocol {

// Every `type` protocol v1 defines, by direction (docs/protocol.md §3). The decoders and
// toJson() speak exactly these; whoever labels or counts frames by type (the gateway's
// metrics) walks these lists rather than a copy, so a new type cannot be left out
// (tst_frame_types holds them to the codec).
[[nodiscard]] const QStringList &clientFrameTypes();
[[nodiscard]] const QStringList &serverFrameTypes();

} // namespace Presence::Protocol
