#pragma once

// C++
#include <chrono>

// Qt
#include <QAbstractSocket>
#include <QByteArray>
#include <QObject>
#include <QString>
#include <QTimer>

class QTcpSocket;

namespace Presence::Session {

// Asks a server once what it speaks on its port, TLS or plain HTTP: it sends a TLS ClientHello
// and reads the first bytes of the answer. A TLS server answers with a TLS record (a handshake,
// or an alert when it dislikes the hello: 0x16 or 0x15, then 0x03); a plain HTTP server with
// "HTTP/" (its 400 to bytes it cannot read). Anything else, a close without an answer, or
// silence until the timeout, is Unknown: not a reason to think the address is wrong.
// It never completes a handshake and sends nothing else: no token leaves this way.
class SchemeProbe : public QObject {
    Q_OBJECT
public:
    enum class Answer {
        Tls,
        Http,
        Unknown,
    };
    Q_ENUM(Answer)

    explicit SchemeProbe(QObject *parent = nullptr);
    ~SchemeProbe() override;

    // Starts a probe of host:port (cancelling one running); finished() follows within timeout.
    void start(const QString &host, quint16 port, std::chrono::milliseconds timeout);
    // Stops a probe running, without finished().
    void cancel();
    [[nodiscard]] bool isRunning() const { return m_socket != nullptr; }

    // Whether an attempt that failed with error may have used the wrong scheme (secure: it
    // tried wss://), so that a probe could tell: a refused connection or a timeout is a server
    // away, not a wrong scheme.
    [[nodiscard]] static bool mayExplain(bool secure, QAbstractSocket::SocketError error);
    // The ClientHello sent (TLS 1.2 with the usual suites and groups): any TLS server answers it.
    [[nodiscard]] static QByteArray clientHello();
    // What the first bytes of an answer say; `complete` once no more will come (or enough came).
    [[nodiscard]] static Answer classify(const QByteArray &reply, bool complete);

Q_SIGNALS:
    void finished(Presence::Session::SchemeProbe::Answer answer);

private:
    void onReadyRead();
    void finish(Answer answer);

    QTcpSocket *m_socket = nullptr; // the running probe's, a child of this
    QTimer m_timer;
    QByteArray m_reply;
};

} // namespace Presence::Session
