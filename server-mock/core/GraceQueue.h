#pragma once

// C++
#include <chrono>
#include <deque>

// Qt
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

namespace Presence::Server {

// Deadlines of one fixed length, one per user at most: since every entry waits the same
// time, expiry order is insertion order, so a FIFO and a single timer serve any number of
// users. Re-arming or cancelling a user leaves a stale entry that is skipped on expiry.
class GraceQueue : public QObject {
    Q_OBJECT
public:
    explicit GraceQueue(std::chrono::milliseconds grace, QObject *parent = nullptr);

    void arm(const QString &userId);
    void cancel(const QString &userId);
    [[nodiscard]] bool isArmed(const QString &userId) const
    {
        return m_generation.contains(userId);
    }
    [[nodiscard]] std::chrono::milliseconds grace() const { return m_grace; }
    // Entries held, live or dead (for tests: dead ones must not pile up).
    [[nodiscard]] size_t entryCount() const { return m_entries.size(); }

Q_SIGNALS:
    void expired(const QString &userId);

private:
    using Clock = std::chrono::steady_clock;
    struct Entry {
        Clock::time_point deadline;
        QString userId;
        quint64 generation;
    };

    void onTimeout();
    void scheduleFront();

    std::chrono::milliseconds m_grace;
    std::deque<Entry> m_entries;
    QHash<QString, quint64> m_generation; // armed users and their live entry
    quint64 m_nextGeneration = 1;
    QTimer m_timer;
};

} // namespace Presence::Server
