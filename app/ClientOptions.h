#pragma once

// C++
#include <optional>

// Qt
#include <QList>
#include <QRect>
#include <QSslCertificate>
#include <QString>
#include <QStringList>
#include <QUrl>

namespace Presence::App {

// The command line of presence-chat. --server and a token (from --token-file or the
// PRESENCE_TOKEN environment variable, never the command line, where `ps` would show it)
// skip the sign-in dialog.
struct ClientOptions {
    enum class Action { Run, ShowHelp, ShowVersion };

    Action action = Action::Run;
    QUrl server; // empty: ask in the sign-in dialog
    QString token; // empty: ask in the sign-in dialog
    // Where the next token comes from once this one runs out (tokens from an app's auth
    // service expire): the --token-file read again, or --token-command run. Empty: nowhere.
    QString tokenFile;
    QString tokenCommand;
    // --ca-file: authorities trusted besides the system's, for a gateway whose wss://
    // certificate comes from its own (QA, a company's internal one).
    QList<QSslCertificate> caCertificates;
    QString openChat; // a friend's id: open the chat with them once signed in (empty: none)
    bool showChats = false; // --show chats: the Chats tab first, not Friends
    // --geometry WxH+X+Y: where the main window goes (demos place two side by side).
    std::optional<QRect> geometry;
    QString helpText;

    // args includes the program name; environmentToken is PRESENCE_TOKEN's value, if set.
    [[nodiscard]] static std::optional<ClientOptions> parse(
        const QStringList &args, const QString &environmentToken, QString *error);
    // args without the options QGuiApplication and QApplication take for themselves ("-style
    // Fusion", "-platform offscreen", "-reverse"…): what parse() sees once a QApplication
    // exists, for checking the command line before one does.
    [[nodiscard]] static QStringList withoutQtOptions(const QStringList &args);
    // ws:// or wss:// with a host.
    [[nodiscard]] static bool isGatewayUrl(const QUrl &url);
};

} // namespace Presence::App
