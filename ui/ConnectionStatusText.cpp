#include "ui/ConnectionStatusText.h"

#include <QCoreApplication>
#include <cmath>

namespace Presence::Ui {

using State = Session::GatewaySession::State;

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("ConnectionStatus", text);
}
} // namespace

QString connectionStatusText(
    State state, std::chrono::milliseconds untilRetry, const QString &error)
{
    switch (state) {
    case State::Disconnected:
        return tr("not connected");
    case State::Connecting:
    case State::Authenticating:
        return tr("connecting…");
    case State::Online:
        return tr("connected");
    case State::Reconnecting: {
        const int seconds = int(std::ceil(double(untilRetry.count()) / 1000.0));
        return seconds <= 0 ? tr("reconnecting…")
                            : QCoreApplication::translate(
                                "ConnectionStatus", "reconnecting in %n s…", nullptr, seconds);
    }
    case State::Failed:
        return error.isEmpty() ? tr("cannot connect") : error;
    }
    return {};
}

} // namespace Presence::Ui
