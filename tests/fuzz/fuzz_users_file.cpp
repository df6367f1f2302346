// UsersFile: the users file the gateway reads at start and on reload, as any bytes.
// Properties: a file is loaded or refused with a message that names it. What loads is a
// population the gateway can serve: at most kMaxUsers users, each with a valid id found at its
// own index, a token (1 to kMaxTokenLength characters) that signs in that user only, and
// friends in range, ascending, never itself, and mutual. Saved and read back, it is the same
// population.

// C++
#include <cstddef>
#include <cstdint>

// Qt
#include <QByteArray>
#include <QDir>
#include <QString>
#include <QTemporaryDir>

// Presence
#include "FuzzCheck.h"
#include "protocol/Identifiers.h"
#include "server-mock/directory/UsersFile.h"

using Presence::Server::UserDirectory;
using Presence::Server::UsersFile;

namespace {

void checkServable(const UserDirectory &directory)
{
    fuzzCheck(directory.size() <= UsersFile::kMaxUsers, "no more users than the limit");
    for (int i = 0; i < directory.size(); ++i) {
        const UserDirectory::User &user = directory.user(i);
        fuzzCheck(Presence::Protocol::isValidId(user.id), "every id is valid");
        fuzzCheck(directory.indexOfId(user.id) == i, "an id finds its own user");
        fuzzCheck(!user.token.isEmpty() && directory.indexOfToken(user.token) == i,
            "a token signs in its own user only");
        for (qsizetype k = 0; k < user.friends.size(); ++k) {
            const int other = user.friends.at(k);
            fuzzCheck(
                other >= 0 && other < directory.size() && other != i, "friends are other users");
            fuzzCheck(k == 0 || user.friends.at(k - 1) < other, "friend lists ascend, once each");
            fuzzCheck(directory.areFriends(other, i), "friendship is mutual");
        }
    }
}

bool samePopulation(const UserDirectory &a, const UserDirectory &b)
{
    if (a.size() != b.size())
        return false;
    for (int i = 0; i < a.size(); ++i) {
        const UserDirectory::User &x = a.user(i);
        const UserDirectory::User &y = b.user(i);
        if (x.id != y.id || x.name != y.name || x.token != y.token || x.friends != y.friends)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const QTemporaryDir scratch; // for the round trip through save()
    const QByteArray json(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString name = QStringLiteral("fuzz-users.json");
    QString error;
    const std::optional<UserDirectory> directory = UsersFile::parse(json, name, &error);
    if (!directory) {
        fuzzCheck(error.contains(name), "a refusal names the file");
        return 0;
    }
    checkServable(*directory);
    const QString saved = QDir(scratch.path()).filePath(QStringLiteral("users.json"));
    fuzzCheck(UsersFile::save(*directory, saved, &error), "what loads can be saved");
    const std::optional<UserDirectory> again = UsersFile::load(saved, &error);
    fuzzCheck(again.has_value(), "what is saved loads");
    fuzzCheck(samePopulation(*directory, *again), "and is the same population");
    return 0;
}
