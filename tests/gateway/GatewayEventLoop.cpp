// Linked into the gateway's tests (tests/CMakeLists.txt, presence_on_gateway_loop): their main
// thread runs on the gateway's epoll event dispatcher, as presence-mock-server's does, or on
// Qt's own with PRESENCE_EVENT_LOOP=qt (the *_qt_loop twins). A static initializer installs it
// before QTEST_*_MAIN constructs the application; a start-up function checks it is the one in
// use, so that a test never silently runs on the other loop.

// C++
#include <cstdlib>
#include <cstring>

// Qt
#include <QAbstractEventDispatcher>
#include <QCoreApplication>

// Presence
#include "server-mock/loop/EpollEventDispatcher.h"

namespace {

bool wantsQtLoop()
{
    const char *choice = std::getenv("PRESENCE_EVENT_LOOP");
    if (!choice || !*choice || std::strcmp(choice, "epoll") == 0)
        return false;
    if (std::strcmp(choice, "qt") == 0)
        return true;
    qFatal("PRESENCE_EVENT_LOOP must be epoll or qt (got \"%s\")", choice);
}

[[maybe_unused]] const bool installed = [] {
    if (!wantsQtLoop())
        QCoreApplication::setEventDispatcher(new Presence::Server::EpollEventDispatcher);
    return true;
}();

void checkEventLoop()
{
    const bool onEpoll = qobject_cast<Presence::Server::EpollEventDispatcher *>(
                             QAbstractEventDispatcher::instance())
        != nullptr;
    if (onEpoll == wantsQtLoop())
        qFatal("the test runs on the wrong event loop (PRESENCE_EVENT_LOOP=%s)",
            qgetenv("PRESENCE_EVENT_LOOP").constData());
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(checkEventLoop)
