// presence-scripted-client: plays one user of a scene for tools/screenshots.sh. Signs in with
// a token (from --token-file, never the command line), optionally with a status, sends
// messages to a friend, waits for friends' presence, then prints "ready" and stays connected
// until it is terminated (or exits, with --exit).

// C++
#include <chrono>
#include <optional>

// Qt
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QTextStream>
#include <QTimer>

// Presence
#include "protocol/Identifiers.h"
#include "tools/screenshots/ScriptedClient.h"

using namespace Qt::StringLiterals;
using namespace Presence;

namespace {

struct Options {
    Tools::Script script;
    bool exitWhenDone = false;
    std::chrono::milliseconds timeout { 20000 };
};

std::optional<QString> readToken(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"token file '%1': %2"_s.arg(path, file.errorString());
        return std::nullopt;
    }
    const QString token = QString::fromUtf8(file.read(Protocol::kMaxTokenLength + 2)).trimmed();
    if (token.isEmpty() || token.size() > Protocol::kMaxTokenLength) {
        *error = u"token file '%1' holds no token"_s.arg(path);
        return std::nullopt;
    }
    return token;
}

std::optional<Options> parse(const QStringList &args, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Plays one user of a Presence Chat scene (tools/screenshots.sh): signs in, sends "
        "messages, waits for presence, prints \"ready\" and stays connected until terminated."_s);
    parser.addHelpOption();
    parser.addOptions({
        { u"server"_s, u"Gateway URL (ws://...)."_s, u"URL"_s },
        { u"token-file"_s, u"Read the user's token from FILE."_s, u"FILE"_s },
        { u"status"_s, u"online (default), away or invisible."_s, u"STATUS"_s },
        { u"to"_s, u"The friend the --say messages go to."_s, u"ID"_s },
        { u"say"_s, u"Send TEXT to --to (repeatable, sent in order)."_s, u"TEXT"_s },
        { u"expect"_s,
            u"Wait until friend ID is online, away or offline (repeatable), e.g. ada=away."_s,
            u"ID=STATUS"_s },
        { u"exit"_s, u"Disconnect and exit once ready instead of staying connected."_s },
        { u"timeout-ms"_s, u"Fail when not ready after MS. Default 20000."_s, u"MS"_s },
    });
    parser.process(args); // --help exits here; unknown options exit with code 1
    Options options;
    Tools::Script &script = options.script;
    script.server = QUrl(parser.value(u"server"_s), QUrl::StrictMode);
    if (!script.server.isValid() || !script.server.scheme().startsWith(u"ws")) {
        *error = u"--server must be a ws:// or wss:// URL"_s;
        return std::nullopt;
    }
    const auto token = readToken(parser.value(u"token-file"_s), error);
    if (!token)
        return std::nullopt;
    script.token = *token;
    if (parser.isSet(u"status"_s)) {
        const auto status = Protocol::chosenStatusFromString(parser.value(u"status"_s));
        if (!status) {
            *error = u"--status must be online, away or invisible"_s;
            return std::nullopt;
        }
        script.status = *status;
    }
    script.to = parser.value(u"to"_s);
    script.messages = parser.values(u"say"_s);
    if (!script.messages.isEmpty() && !Protocol::isValidId(script.to)) {
        *error = u"--say needs --to with a friend's id"_s;
        return std::nullopt;
    }
    for (const QString &expectation : parser.values(u"expect"_s)) {
        const QString id = expectation.section(u'=', 0, 0);
        const auto status = Protocol::presenceStatusFromString(expectation.section(u'=', 1));
        if (!Protocol::isValidId(id) || !status) {
            *error = u"--expect must be ID=online, ID=away or ID=offline (got \"%1\")"_s.arg(
                expectation);
            return std::nullopt;
        }
        script.expected.insert(id, *status);
    }
    options.exitWhenDone = parser.isSet(u"exit"_s);
    if (parser.isSet(u"timeout-ms"_s)) {
        bool ok = false;
        options.timeout = std::chrono::milliseconds(parser.value(u"timeout-ms"_s).toInt(&ok));
        if (!ok || options.timeout.count() <= 0) {
            *error = u"--timeout-ms must be a positive number of milliseconds"_s;
            return std::nullopt;
        }
    }
    return options;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"presence-scripted-client"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(PRESENCE_VERSION));

    QString error;
    const auto options = parse(QCoreApplication::arguments(), &error);
    if (!options) {
        QTextStream(stderr) << "presence-scripted-client: " << error << '\n';
        return 2;
    }

    Tools::ScriptedClient client(options->script);
    QTimer deadline;
    deadline.setSingleShot(true);
    QObject::connect(&deadline, &QTimer::timeout, &app, [] {
        QTextStream(stderr) << "presence-scripted-client: not ready in time\n";
        QCoreApplication::exit(1);
    });
    QObject::connect(&client, &Tools::ScriptedClient::failed, &app, [](const QString &reason) {
        QTextStream(stderr) << "presence-scripted-client: " << reason << '\n';
        QCoreApplication::exit(1);
    });
    QObject::connect(&client, &Tools::ScriptedClient::finished, &app, [&] {
        deadline.stop();
        QTextStream(stdout) << "ready" << Qt::endl;
        if (options->exitWhenDone) {
            client.stop();
            QCoreApplication::exit(0);
        }
    });
    deadline.start(options->timeout);
    client.start();
    return app.exec();
}
