#pragma once

// C++
#include <optional>

// Qt
#include <QString>

// Presence
#include "session/TokenSource.h"

namespace Presence::Session {

// A token file, read again on every fetch: whatever renews the token (a login helper, a
// cron job) writes the new one there.
class FileTokenSource : public TokenSource {
    Q_OBJECT
public:
    explicit FileTokenSource(QString path, QObject *parent = nullptr);

    void fetch() override;

    // One token, surrounding white space ignored; errors name the file.
    [[nodiscard]] static std::optional<QString> read(const QString &path, QString *error);

private:
    QString m_path;
    bool m_fetching = false;
};

} // namespace Presence::Session
