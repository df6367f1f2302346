#pragma once

// C++
#include <functional>
#include <optional>

// Qt
#include <QList>
#include <QString>
#include <QStringList>

namespace Presence::Server {

// --config FILE: an INI file whose keys are the long options of the command line, without
// their dashes (`listen = 0.0.0.0:8765`, `admin-remote = true`). It gives only what the command
// line does not: the command line wins, key by key. A repeatable option takes a comma-separated
// list; a path that is not absolute is taken from the file's folder, so that a service's
// config can name the files beside it. An unknown key, a section, a flag that is neither true
// nor false, and an unreadable file are refused with a message naming the file.
class ConfigFile {
public:
    struct Option {
        QString name;
        bool takesValue = true;
        bool repeatable = false;
        // Its value names a file, possibly after "KID=" (the JWT keys).
        bool isPath = false;
    };

    // The options the file sets, as arguments to add to the command line ("--name=value"),
    // leaving out those isGiven() says the command line gives already.
    [[nodiscard]] static std::optional<QStringList> arguments(const QString &path,
        const QList<Option> &options, const std::function<bool(const QString &)> &isGiven,
        QString *error);
};

} // namespace Presence::Server
