#pragma once

// C++
#include <chrono>

// Qt
#include <QString>

// Presence
#include "session/TokenSource.h"

class QProcess;

namespace Presence::Session {

// A command that prints a current token, run through /bin/sh on every fetch: the way to ask
// an app's auth service (`curl … | jq -r .token`, a keyring helper). It must exit 0 within the
// timeout and print one token; what it writes to stderr goes into the error.
class CommandTokenSource : public TokenSource {
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds kDefaultTimeout { 10'000 };

    explicit CommandTokenSource(QString command, QObject *parent = nullptr,
        std::chrono::milliseconds timeout = kDefaultTimeout);
    ~CommandTokenSource() override;

    void fetch() override;

private:
    void onFinished();
    void fail(const QString &why);

    QString m_command;
    std::chrono::milliseconds m_timeout;
    QProcess *m_process = nullptr; // while one runs
    QString m_errors; // the start of its stderr
};

} // namespace Presence::Session
