#pragma once

// C++
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace LoadGen {

// What presence-loadgen is asked to do (--help lists the options).
struct LoadOptions {
    std::string host = "127.0.0.1"; // of --url
    unsigned short port = 0;
    std::string usersFile;
    int firstUser = 0; // connections sign in as users firstUser .. firstUser+connections-1
    int connections = -1; // -1: every user of the file from firstUser on
    double rate = 100; // set_status changes per second, all connections together
    double seconds = 10; // of changes; 0: set up, measure memory, stop
    int threads = 2;
    int sources = 8; // client sockets bound to 127.0.0.1 .. 127.0.0.<sources>
    int concurrency = 256; // connections being set up at once
    bool subscribe = true; // false: hello and welcome only (idle connections)
    // Above 0: each connection watches its friends through the availability set in
    // presence_batch frames of this window (ms), instead of subscribing to each.
    int presenceBatchMs = 0;
    // The last this many connections are slow readers: signed in, they stop reading once the
    // changes start and ask for large answers (subscribes of unknown ids, all denied) until the
    // gateway drops them. They make no changes and their users' pushes are not measured.
    int slowReaders = 0;
    // Above 0: every this many seconds each connection scrolls, as a client's list does: the
    // second half of its friends is not subscribed for good but through a window of a few ids
    // that moves on (unsubscribe the old, subscribe the new). Their pushes are not measured.
    double scrollSeconds = 0;
    int gatewayPid = 0; // read its memory and CPU time from /proc when set
    double connectTimeout = 300; // s for every connection to be set up
    double drainTimeout = 10; // s after the last change for the last pushes
    double holdSeconds = 0; // s to keep the connections open once set up (and measured)
    std::string markFile; // gets "changing" when the changes start, "stopped" when they stop

    // The connections a run opens with a users file of `users` users.
    [[nodiscard]] int connectionsFor(int users) const
    {
        const int available = std::max(0, users - firstUser);
        return connections < 0 ? available : std::min(connections, available);
    }

    // The options of `args` (argv without the program), or nullopt with *error set; an empty
    // *error with nullopt means --help was printed.
    static std::optional<LoadOptions> parse(
        const std::vector<std::string> &args, std::string *error);
    static const char *usage();
};

} // namespace LoadGen
