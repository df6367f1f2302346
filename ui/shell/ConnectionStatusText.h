#pragma once

// C++
#include <chrono>

// Qt
#include <QString>

// Presence
#include "ui/shell/ConnectionState.h"

namespace Presence::Ui {

// The header's words for the connection: "connected", "reconnecting in 4 s…", the error.
[[nodiscard]] QString connectionStatusText(
    ConnectionState state, std::chrono::milliseconds untilRetry, const QString &error);

} // namespace Presence::Ui
