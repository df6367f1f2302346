// presence-test-redis: the one redis-server of a test run, started by the harness's RedisServer
// (127.0.0.1, a free port, no persistence, files in a temporary directory). It prints the
// server's URL on a line of its own, then keeps it until its standard input closes or it is
// told to stop (SIGTERM, SIGINT, SIGHUP). The test command holds that input, so the server goes
// with the command however the command ends.

// C++
#include <csignal>
#include <cstdio>
// System
#include <sys/signalfd.h>
#include <unistd.h>

// Qt
#include <QCoreApplication>
#include <QSocketNotifier>

// Presence
#include "tests/harness/RedisServer.h"

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (app.arguments().size() > 1) {
        std::fprintf(stderr,
            "usage: presence-test-redis\n"
            "Starts a private redis-server, prints its URL, and stops it when standard input "
            "closes.\n");
        return 2;
    }

    // The stop signals arrive as reads, so the server is stopped by the destructors below.
    sigset_t stops;
    sigemptyset(&stops);
    for (const int stop : { SIGTERM, SIGINT, SIGHUP })
        sigaddset(&stops, stop);
    sigprocmask(SIG_BLOCK, &stops, nullptr);
    const int stopFd = signalfd(-1, &stops, SFD_CLOEXEC | SFD_NONBLOCK);
    if (stopFd < 0) {
        std::perror("presence-test-redis: signalfd");
        return 1;
    }

    RedisServer server;
    if (!server.start()) {
        std::fprintf(stderr, "presence-test-redis: %s\n", qPrintable(server.error()));
        return 1;
    }
    std::printf("%s\n", qPrintable(server.url().toString()));
    std::fflush(stdout);

    QSocketNotifier stopRequested(stopFd, QSocketNotifier::Read);
    QObject::connect(&stopRequested, &QSocketNotifier::activated, &app, &QCoreApplication::quit);
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&app] {
        char buffer[256];
        if (::read(STDIN_FILENO, buffer, sizeof buffer) <= 0)
            app.quit(); // closed: the test command has ended
    });
    const int status = app.exec();
    ::close(stopFd);
    return status;
}
