#pragma once

// Qt
#include <QString>

namespace Presence::Server {

class ServerCommandLine;
struct ServerOptions;

// Who the gateway serves and how they move: --users or --generate (with --friends and --seed),
// --dump-users, and QA's --churn and --scenario, checked and read into ServerOptions.
class PopulationOptions {
public:
    [[nodiscard]] static bool read(
        const ServerCommandLine &line, ServerOptions &options, QString *error);
};

} // namespace Presence::Server
