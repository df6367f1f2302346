#pragma once

#include "session/GatewaySession.h"

// Session options for tests that reconnect: retries within 20–300 ms instead of seconds.
// Header-only, so the support library stays free of client code.
inline Presence::Session::GatewaySession::Options quickSessionOptions()
{
    using namespace std::chrono_literals;
    Presence::Session::GatewaySession::Options options;
    options.backoff.base = 50ms;
    options.backoff.cap = 300ms;
    options.backoff.floor = 20ms;
    return options;
}
