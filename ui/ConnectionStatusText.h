#pragma once

#include "session/GatewaySession.h"

#include <QString>
#include <chrono>

namespace Presence::Ui {

// The header's words for the connection: "connected", "reconnecting in 4 s…", the error.
[[nodiscard]] QString connectionStatusText(Session::GatewaySession::State state,
    std::chrono::milliseconds untilRetry, const QString &error);

} // namespace Presence::Ui
