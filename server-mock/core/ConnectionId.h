#pragma once

// Qt
#include <QtGlobal>

namespace Presence::Server {

// One device of this gateway process in its presence store: a client connection (counted up
// from 1) or a simulated device (from 2^62, SimulatedUsers). The stores, the subscriptions and
// the fan-out all key devices by it.
using ConnectionId = quint64;

} // namespace Presence::Server
