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

} // namespace

int main(int argc, char *argv[])
{
    std::optional<App::ClientOptions> options;
    {
        // The command line is answered (--help, --version) or refused (exit 2) before the GUI
        // starts: without a display (a terminal over ssh, a packaging script) QApplication
        // aborts. Qt's own options are Qt's: QApplication takes them out below.
        QCoreApplication core(argc, argv);
        describeApplication();
        if (const auto exitCode = answerCommandLine(
                App::ClientOptions::withoutQtOptions(QCoreApplication::arguments()), &options))
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
