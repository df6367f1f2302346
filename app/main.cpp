// C++
#include <optional>

// Qt
#include <QApplication>
#include <QIcon>
#include <QLocale>
#include <QTextStream>

// Presence
#include "app/ClientApp.h"
#include "app/ClientOptions.h"
#include "app/Translations.h"

using namespace Qt::StringLiterals;
using namespace Presence;

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName(u"presence-chat"_s);
    QCoreApplication::setOrganizationName(u"Presence Chat"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(PRESENCE_VERSION));
}

// Parses the command line; prints help, the version or the error. Returns the exit code when
// there is nothing more to do.
std::optional<int> answerCommandLine(
    const QStringList &arguments, std::optional<App::ClientOptions> *parsed)
{
    QString error;
    *parsed = App::ClientOptions::parse(arguments, qEnvironmentVariable("PRESENCE_TOKEN"), &error);
    if (!*parsed) {
        QTextStream(stderr) << "presence-chat: " << error << "\nTry 'presence-chat --help'.\n";
        return 2;
    }
    if ((*parsed)->action == App::ClientOptions::Action::ShowHelp) {
        QTextStream(stdout) << (*parsed)->helpText;
        return 0;
    }
    if ((*parsed)->action == App::ClientOptions::Action::ShowVersion) {
        QTextStream(stdout) << "presence-chat " << QCoreApplication::applicationVersion() << '\n';
        return 0;
    }
    return std::nullopt;
}

// --help and --version must work without a display (a terminal over ssh, a packaging
// script): QApplication aborts there, so they are answered by a QCoreApplication first.
bool asksOnlyForWords(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArrayView arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "-?"
            || arg == "--version" || arg == "-v")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    std::optional<App::ClientOptions> options;
    if (asksOnlyForWords(argc, argv)) {
        QCoreApplication core(argc, argv);
        describeApplication();
        if (const auto exitCode = answerCommandLine(QCoreApplication::arguments(), &options))
            return *exitCode;
    }

    QApplication app(argc, argv);
    describeApplication();
    // The system's language (LANG, LC_MESSAGES, LANGUAGE), before the first widget exists.
    App::Translations translations;
    translations.install(QLocale::system());
    QApplication::setWindowIcon(QIcon(u":/presence/presence-chat.svg"_s));
    QGuiApplication::setDesktopFileName(u"presence-chat"_s);
    if (const auto exitCode = answerCommandLine(QApplication::arguments(), &options))
        return *exitCode;
    App::ClientApp client(*options);
    if (!client.start())
        return 0; // the sign-in dialog was closed
    return app.exec();
}
