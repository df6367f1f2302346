#pragma once

// Qt
#include <QObject>
#include <QString>

namespace Presence::Session {

// Where a session gets a current token when the one it has runs out: an app's auth service
// mints short-lived ones, so a desktop session that lasts longer than one needs the next.
// fetch() answers once with tokenReady or tokenFailed, later (never from inside the call); a
// fetch while one is under way joins it.
class TokenSource : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void fetch() = 0;

    // A token as the protocol takes it: 1-4096 characters, none of them white space.
    [[nodiscard]] static bool isWellFormed(const QString &token);

Q_SIGNALS:
    void tokenReady(const QString &token);
    // Why there is none, for the log and the status line; names the file or command.
    void tokenFailed(const QString &error);
};

} // namespace Presence::Session
