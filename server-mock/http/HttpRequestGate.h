#pragma once

// C++
#include <optional>

// Qt
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

// Presence
#include "server-mock/http/HttpLimits.h"

class QTcpSocket;

namespace Presence::Server {

class HttpReply;

// Holds one accepted connection until its whole request (head and body) has arrived, and lets
// it through only within the limits. Qt 6.4's QHttpServer reads request lines, headers and
// bodies into memory without any bound; behind the gate it only ever sees one complete request
// of bounded size. The gate never reads the request itself (it peeks), so what it lets through
// is still in the socket for Qt to parse. Refusals are answered here, as JSON errors.
class HttpRequestGate : public QObject {
    Q_OBJECT
public:
    // Watches socket from now on, as its child.
    HttpRequestGate(QTcpSocket *socket, const HttpLimits &limits);

    // Answers reply and closes the connection, passing nothing on (unless it already did).
    void refuse(const HttpReply &reply);

Q_SIGNALS:
    // The whole request is in the socket, unread. Whoever takes it must read it before
    // returning: afterwards, whatever else the client sends is dropped, never parsed.
    void requestArrived(QTcpSocket *socket);

private:
    enum class State { Reading, Passed, Refused };
    // What the gate keeps of an acceptable head.
    struct Body {
        qsizetype offset = 0; // the size of the head
        qint64 length = 0;
        bool expectsContinue = false; // Expect: 100-continue
    };

    void onReadyRead();
    // The body that follows the head buffered so far; nullopt while the head is incomplete,
    // and once it is refused (with the refusal sent).
    std::optional<Body> readHead();
    void pass();
    void dropInput();

    QTcpSocket *m_socket;
    HttpLimits m_limits;
    State m_state = State::Reading;
    std::optional<Body> m_body; // once the head is complete and acceptable
    bool m_continueSent = false;
    QTimer m_deadline; // for the whole request to arrive
    QTimer m_quiet; // after a refusal: closes once the client has stopped sending
    QElapsedTimer m_refusedFor;
};

} // namespace Presence::Server
