#pragma once

namespace Presence::Ui {

// What the window shows of the connection to the gateway; the application maps the session's
// state to it (the widgets never see the session).
enum class ConnectionState {
    Disconnected, // not started, or closed on purpose
    Connecting,
    Authenticating, // socket open, signing in
    Online,
    Reconnecting, // waiting for the next attempt
    Failed, // retrying cannot help (a refused token, an address that is no gateway)
};

} // namespace Presence::Ui
