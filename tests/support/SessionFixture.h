#pragma once

// C++
#include <chrono>

// Qt
#include <QList>
#include <QObject>
#include <QSet>
#include <QSignalSpy>
#include <QString>

// Presence
#include "protocol/ServerMessages.h"
#include "session/GatewaySession.h"

// Scenery for tests of the client session; header-only, so the support library stays free of
// client code.

// Session options for tests that reconnect: retries within 20–300 ms instead of seconds.
inline Presence::Session::GatewaySession::Options quickSessionOptions()
{
    using namespace std::chrono_literals;
    Presence::Session::GatewaySession::Options options;
    options.backoff.base = 50ms;
    options.backoff.cap = 300ms;
    options.backoff.floor = 20ms;
    return options;
}

// Every presence entry reported by a presenceReceived spy, from emission `from` on.
inline QList<Presence::Protocol::UserPresence> presenceOf(const QSignalSpy &spy, qsizetype from = 0)
{
    QList<Presence::Protocol::UserPresence> all;
    for (qsizetype i = from; i < spy.size(); ++i)
        all.append(spy.at(i).at(0).value<QList<Presence::Protocol::UserPresence>>());
    return all;
}

// The ids of those entries.
inline QSet<QString> presenceIdsOf(const QSignalSpy &spy, qsizetype from = 0)
{
    QSet<QString> ids;
    for (const Presence::Protocol::UserPresence &presence : presenceOf(spy, from))
        ids.insert(presence.id);
    return ids;
}

// What the session said of itself at the moment it scheduled each retry. By the time a test
// looks, a short backoff may already have started the next attempt (which clears the error).
class RetryLog {
public:
    using GatewaySession = Presence::Session::GatewaySession;

    struct Entry {
        int attempt = 0;
        std::chrono::milliseconds delay { 0 };
        GatewaySession::State state = GatewaySession::State::Disconnected;
        QString errorString;
        int retryAttempt = 0;
        std::chrono::milliseconds retryDelay { 0 };
    };

    explicit RetryLog(GatewaySession &session)
    {
        QObject::connect(&session, &GatewaySession::retryScheduled, &m_context,
            [this, &session](int attempt, std::chrono::milliseconds delay) {
                m_entries.append({ attempt, delay, session.state(), session.errorString(),
                    session.retryAttempt(), session.retryDelay() });
            });
    }
    [[nodiscard]] const QList<Entry> &entries() const { return m_entries; }

private:
    QObject m_context; // disconnects the recorder when the log goes
    QList<Entry> m_entries;
};
