#include "session/FileTokenSource.h"

// Qt
#include <QFile>
#include <QTimer>

// Presence
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;

namespace Presence::Session {

FileTokenSource::FileTokenSource(QString path, QObject *parent)
    : TokenSource(parent)
    , m_path(std::move(path))
{
}

void FileTokenSource::fetch()
{
    if (m_fetching)
        return;
    m_fetching = true;
    // Answered later, as every source answers: the caller may not expect it inside fetch().
    QTimer::singleShot(0, this, [this] {
        m_fetching = false;
        QString error;
        if (const std::optional<QString> token = read(m_path, &error))
            Q_EMIT tokenReady(*token);
        else
            Q_EMIT tokenFailed(error);
    });
}

std::optional<QString> FileTokenSource::read(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"token file '%1': cannot open: %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    // A token is short; refuse to read a large file by mistake (say, a binary).
    constexpr qint64 kMaxBytes = 2 * Protocol::kMaxTokenLength;
    const QByteArray data = file.read(kMaxBytes + 1);
    if (data.size() > kMaxBytes) {
        *error = u"token file '%1': larger than %2 bytes, not a token"_s.arg(
            path, QString::number(kMaxBytes));
        return std::nullopt;
    }
    const QString token = QString::fromUtf8(data).trimmed();
    if (!isWellFormed(token)) {
        *error
            = u"token file '%1': must hold one token of 1-%2 characters without spaces"_s.arg(path)
                  .arg(Protocol::kMaxTokenLength);
        return std::nullopt;
    }
    return token;
}

} // namespace Presence::Session
