#include "ui/shell/ConnectionStatusText.h"

// C++
#include <cmath>

// Qt
#include <QCoreApplication>

namespace Presence::Ui {

using State = ConnectionState;

// The words have a context of their own, "ConnectionStatus" (a free function has no class to
// give one), spelt out at each call so that lupdate files them under it.

QString connectionStatusText(
    State state, std::chrono::milliseconds untilRetry, const QString &error)
{
    switch (state) {
    case State::Disconnected:
        return QCoreApplication::translate("ConnectionStatus", "not connected");
    case State::Connecting:
    case State::Authenticating:
        return QCoreApplication::translate("ConnectionStatus", "connecting…");
    case State::Online:
        return QCoreApplication::translate("ConnectionStatus", "connected");
    case State::Reconnecting: {
        const int seconds = int(std::ceil(double(untilRetry.count()) / 1000.0));
        return seconds <= 0 ? QCoreApplication::translate("ConnectionStatus", "reconnecting…")
                            : QCoreApplication::translate(
                                "ConnectionStatus", "reconnecting in %n s…", nullptr, seconds);
    }
    case State::Failed:
        return error.isEmpty() ? QCoreApplication::translate("ConnectionStatus", "cannot connect")
                               : error;
    }
    return {};
}

} // namespace Presence::Ui
