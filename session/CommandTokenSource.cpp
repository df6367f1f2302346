#include "session/CommandTokenSource.h"

// Qt
#include <QProcess>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Presence::Session {

namespace {

// What a command may print: a token and a newline, with room to spare; more is no token.
constexpr qint64 kMaxOutputBytes = 16 * 1024;
// Of what it says on stderr, the start goes into the error.
constexpr qsizetype kMaxErrorCharacters = 200;
const QString kNoToken = u"printed no token (one of 1-4096 characters without spaces)"_s;

} // namespace

CommandTokenSource::CommandTokenSource(
    QString command, QObject *parent, std::chrono::milliseconds timeout)
    : TokenSource(parent)
    , m_command(std::move(command))
    , m_timeout(timeout)
{
}

CommandTokenSource::~CommandTokenSource()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
}

void CommandTokenSource::fetch()
{
    if (m_process)
        return; // the running one answers for both
    m_process = new QProcess(this);
    m_process->setProgram(u"/bin/sh"_s);
    m_process->setArguments({ u"-c"_s, m_command });
    m_process->setStandardInputFile(QProcess::nullDevice());
    connect(m_process, &QProcess::finished, this, &CommandTokenSource::onFinished);
    // QProcess keeps whatever the command prints: bounded as it comes, not once it is all in.
    m_errors.clear();
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
        if (m_process->bytesAvailable() > kMaxOutputBytes)
            fail(kNoToken);
    });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        const QByteArray errors = m_process->readAllStandardError();
        if (m_errors.size() < kMaxErrorCharacters)
            m_errors += QString::fromUtf8(errors).left(kMaxErrorCharacters - m_errors.size());
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            fail(u"cannot run /bin/sh: %1"_s.arg(m_process->errorString()));
    });
    auto *timer = new QTimer(m_process);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this,
        [this] { fail(u"gave no token within %1 ms"_s.arg(m_timeout.count())); });
    timer->start(m_timeout);
    m_process->start();
}

void CommandTokenSource::onFinished()
{
    QProcess *process = m_process;
    const QByteArray output = process->read(kMaxOutputBytes + 1);
    m_errors += QString::fromUtf8(process->readAllStandardError());
    const QString errors = m_errors.trimmed().left(kMaxErrorCharacters);
    if (process->exitStatus() != QProcess::NormalExit)
        return fail(u"crashed"_s);
    if (process->exitCode() != 0) {
        return fail(u"exited with %1%2"_s.arg(process->exitCode())
                        .arg(errors.isEmpty() ? QString() : u": "_s + errors));
    }
    const QString token = QString::fromUtf8(output).trimmed();
    if (output.size() > kMaxOutputBytes || !isWellFormed(token))
        return fail(kNoToken);
    m_process = nullptr;
    process->deleteLater();
    Q_EMIT tokenReady(token);
}

void CommandTokenSource::fail(const QString &why)
{
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning)
        process->kill();
    process->deleteLater();
    Q_EMIT tokenFailed(u"token command: %1"_s.arg(why));
}

} // namespace Presence::Session
