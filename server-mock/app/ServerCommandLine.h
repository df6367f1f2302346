#pragma once

// C++
#include <optional>

// Qt
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

// Presence
#include "server-mock/app/ConfigFile.h"

namespace Presence::Server {

// The command line of presence-mock-server as given: every option described once (for --help,
// and each also a key of --config), the options of a --config file added where the command line
// does not give them, and a value read as an integer within its range. What the options mean is
// for the readers of each group (ListeningOptions, PopulationOptions, …).
class ServerCommandLine {
public:
    ServerCommandLine();
    ServerCommandLine(const ServerCommandLine &) = delete;
    ServerCommandLine &operator=(const ServerCommandLine &) = delete;

    // args (the program name first) with a --config file's options added; false with *error
    // for a config file that does not load, an unknown option or a stray argument.
    [[nodiscard]] bool parse(const QStringList &args, QString *error);
    // The same, taking whatever parses (parse() is the one to report problems): for the
    // options read before the application exists.
    void parseLeniently(const QStringList &args);

    [[nodiscard]] bool helpWanted() const { return m_parser.isSet(m_help); }
    [[nodiscard]] bool versionWanted() const { return m_parser.isSet(m_version); }
    [[nodiscard]] QString helpText() const { return m_parser.helpText(); }
    [[nodiscard]] bool isSet(const QString &name) const { return m_parser.isSet(name); }
    [[nodiscard]] QString value(const QString &name) const { return m_parser.value(name); }
    [[nodiscard]] QStringList values(const QString &name) const { return m_parser.values(name); }
    // The option's value as an integer in [min, max], or fallback when it is absent; nullopt
    // with *error naming the option otherwise.
    [[nodiscard]] std::optional<qint64> integer(
        const QString &name, qint64 min, qint64 max, qint64 fallback, QString *error) const;

    // The longest a duration option may be, in milliseconds.
    static constexpr qint64 kDayMs = 24LL * 3600 * 1000;

    // Every option of the command line, in --help's order.
    [[nodiscard]] static QList<QCommandLineOption> options();
    // The options as --config keys: which take a value, may repeat, or name a file.
    [[nodiscard]] static QList<ConfigFile::Option> configOptions();

private:
    static void describe(QCommandLineParser &parser);
    // args with the options of a --config file added where args do not give them; args as
    // they are when there is no --config, or when they do not parse (parse() says why).
    static std::optional<QStringList> withConfig(const QStringList &args, QString *error);

    QCommandLineParser m_parser;
    QCommandLineOption m_help;
    QCommandLineOption m_version;
};

} // namespace Presence::Server
