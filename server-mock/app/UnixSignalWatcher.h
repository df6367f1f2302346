#pragma once

// Qt
#include <QList>
#include <QObject>

class QSocketNotifier;

namespace Presence::Server {

// Turns SIGINT/SIGTERM into a Qt signal on the event loop (self-pipe trick: the handler
// only writes a byte, everything else happens outside signal context).
// At most one instance may exist, since signal handlers are process-wide.
class UnixSignalWatcher : public QObject {
    Q_OBJECT
public:
    explicit UnixSignalWatcher(const QList<int> &signalNumbers, QObject *parent = nullptr);
    ~UnixSignalWatcher() override;

Q_SIGNALS:
    void signalReceived(int signalNumber);

private:
    void onReadable();

    int m_fds[2] = { -1, -1 };
    QList<int> m_signals;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace Presence::Server
