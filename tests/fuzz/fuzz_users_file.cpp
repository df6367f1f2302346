// UsersFile: the users file the gateway reads at start and on reload, as any bytes. Property:
// a file is loaded or refused with a message that names it.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QString>

// Presence
#include "FuzzCheck.h"
#include "server-mock/directory/UsersFile.h"

using Presence::Server::UsersFile;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString name = QStringLiteral("fuzz-users.json");
    QString error;
    const std::optional<Presence::Server::UserDirectory> directory
        = UsersFile::parse(json, name, &error);
    if (!directory)
        fuzzCheck(error.contains(name), "a refusal names the file");
    return 0;
}
