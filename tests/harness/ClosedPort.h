#pragma once

// Qt
#include <QUrl>
#include <QtGlobal>

// A loopback port that refuses connections for as long as this object lives: a socket is bound
// to it but never listens. Unlike "a port that was free a moment ago", no other test running at
// the same time can take it and answer (a retrying client once signed in to another test's
// gateway that way).
class ClosedPort {
public:
    ClosedPort();
    ~ClosedPort();
    ClosedPort(const ClosedPort &) = delete;
    ClosedPort &operator=(const ClosedPort &) = delete;

    // 0 when no port could be reserved.
    [[nodiscard]] quint16 port() const { return m_port; }
    // ws://127.0.0.1:PORT/
    [[nodiscard]] QUrl url() const;
    // Frees the port, for a test that starts a gateway on it afterwards.
    void release();

private:
    int m_fd = -1;
    quint16 m_port = 0;
};
