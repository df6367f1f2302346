#pragma once

// Qt
#include <QHostAddress>
#include <QObject>
#include <QTimer>

class QSocketNotifier;

namespace Presence::Server {

// A listening TCP socket of our own, so that accepting is ours to get right: a deep backlog
// (a burst of thousands of connects is not left to SYN retries), and at the descriptor limit
// no spinning: one reserve descriptor is given up to accept the waiting connection and close
// it at once, then accepting pauses for a moment (Qt's QTcpServer retries on every loop turn).
class ListeningSocket : public QObject {
    Q_OBJECT
public:
    static constexpr int kBacklog = 4096; // the kernel caps it at net.core.somaxconn
    static constexpr std::chrono::milliseconds kPauseAtLimit { 100 };

    explicit ListeningSocket(QObject *parent = nullptr);
    ~ListeningSocket() override;

    [[nodiscard]] bool listen(const QHostAddress &address, quint16 port, QString *error);
    void close();
    [[nodiscard]] QHostAddress address() const { return m_address; }
    [[nodiscard]] quint16 port() const { return m_port; }

Q_SIGNALS:
    // A new connection, non-blocking and close-on-exec; the receiver owns the descriptor.
    void accepted(qintptr descriptor);
    // One connection was taken and closed at once: no descriptor was left for it.
    void refusedAtDescriptorLimit();
    // Accepting found no descriptor left and pauses for kPauseAtLimit: at most ten a second
    // however long the limit lasts, where an accept loop that spins would say it thousands of
    // times (tst_own_transport counts them).
    void pausedAtDescriptorLimit();

private:
    void onReadable();
    void refuseOneAtLimit();

    int m_descriptor = -1;
    int m_reserve = -1; // kept open to be given up at the descriptor limit
    QSocketNotifier *m_notifier = nullptr;
    QTimer m_resume;
    QHostAddress m_address;
    quint16 m_port = 0;
};

} // namespace Presence::Server
