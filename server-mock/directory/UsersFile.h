#pragma once

// C++
#include <optional>

// Qt
#include <QString>

// Presence
#include "server-mock/directory/UserDirectory.h"

namespace Presence::Server {

// Reads and writes the users file: {"users":[{"id","name","token","friends":[ids]}]}.
// Friendship is mutual: listing it on either side is enough.
class UsersFile {
public:
    static constexpr qint64 kMaxFileBytes = 256 * 1024 * 1024;
    static constexpr int kMaxUsers = 1'000'000;

    // The directory, or nullopt with *error naming the file, the entry and the problem.
    [[nodiscard]] static std::optional<UserDirectory> load(const QString &path, QString *error);
    [[nodiscard]] static std::optional<UserDirectory> parse(
        const QByteArray &json, const QString &path, QString *error);
    // Writes the population (tokens included) atomically; false with *error on failure.
    [[nodiscard]] static bool save(
        const UserDirectory &directory, const QString &path, QString *error);
};

} // namespace Presence::Server
