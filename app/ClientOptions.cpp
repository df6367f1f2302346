#include "app/ClientOptions.h"

// Qt
#include <QCommandLineParser>
#include <QFile>
#include <QRegularExpression>

// Presence
#include "protocol/Identifiers.h"
#include "session/FileTokenSource.h"

using namespace Qt::StringLiterals;

namespace Presence::App {

bool ClientOptions::isGatewayUrl(const QUrl &url)
{
    return url.isValid() && (url.scheme() == u"ws" || url.scheme() == u"wss")
        && !url.host().isEmpty();
}

QStringList ClientOptions::withoutQtOptions(const QStringList &args)
{
    // Qt's documented options (QGuiApplication's, QApplication's); Qt reads "--x" as "-x".
    static const QStringList withValue { u"-platform"_s, u"-platformpluginpath"_s,
        u"-platformtheme"_s, u"-plugin"_s, u"-qwindowgeometry"_s, u"-qwindowicon"_s,
        u"-qwindowtitle"_s, u"-session"_s, u"-display"_s, u"-style"_s, u"-stylesheet"_s };
    static const QStringList alone { u"-reverse"_s, u"-widgetcount"_s, u"-nograb"_s, u"-dograb"_s,
        u"-sync"_s };
    // X11's, which Qt takes only on X11; "--geometry" is ours, so only the one-dash form.
    static const QStringList x11WithValue { u"-geometry"_s, u"-title"_s, u"-icon"_s };
    QStringList kept;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &given = args.at(i);
        const QString arg = i > 0 && given.startsWith(u"--") ? given.mid(1) : given;
        const QString name = arg.section(u'=', 0, 0);
        if (i > 0 && (withValue.contains(name) || x11WithValue.contains(given))) {
            if (!arg.contains(u'='))
                ++i; // and its value
            continue;
        }
        if (i > 0 && (alone.contains(arg) || arg.startsWith(u"-qmljsdebugger=")))
            continue;
        kept.append(given);
    }
    return kept;
}

std::optional<ClientOptions> ClientOptions::parse(
    const QStringList &args, const QString &environmentToken, QString *error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Presence Chat: see which friends are online right now, and chat with them."_s);
    const auto help = parser.addHelpOption();
    const auto version = parser.addVersionOption();
    parser.addOptions({
        { u"server"_s,
            u"Gateway URL, e.g. ws://127.0.0.1:8765/ (skips the sign-in dialog "
            "together with a token)."_s,
            u"URL"_s },
        { u"token-file"_s,
            u"Read the token from FILE (or set PRESENCE_TOKEN); read again for a new one when "
            "the token expires."_s,
            u"FILE"_s },
        { u"token-command"_s,
            u"Run CMD (with /bin/sh) for a token, at start and whenever the token expires; it "
            "prints one token."_s,
            u"CMD"_s },
        { u"ca-file"_s,
            u"Also trust the certificate authorities in FILE (PEM) for wss:// gateways, besides "
            "the system's: for a gateway with a certificate of its own authority."_s,
            u"FILE"_s },
        { u"open-chat"_s, u"Open the chat with the friend whose id is ID once signed in."_s,
            u"ID"_s },
        { u"show"_s, u"Which list the left pane shows first: chats or friends (the default)."_s,
            u"LIST"_s },
        { u"geometry"_s, u"Place the main window: width x height + x + y, e.g. 520x760+20+40."_s,
            u"WxH+X+Y"_s },
    });
    if (!parser.parse(args)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    ClientOptions options;
    options.helpText = parser.helpText();
    if (parser.isSet(help)) {
        options.action = Action::ShowHelp;
        return options;
    }
    if (parser.isSet(version)) {
        options.action = Action::ShowVersion;
        return options;
    }
    if (!parser.positionalArguments().isEmpty()) {
        *error
            = u"unexpected argument \"%1\" (a token goes in --token-file or PRESENCE_TOKEN)"_s.arg(
                parser.positionalArguments().constFirst());
        return std::nullopt;
    }
    if (parser.isSet(u"server"_s)) {
        options.server = QUrl(parser.value(u"server"_s), QUrl::StrictMode);
        if (!isGatewayUrl(options.server)) {
            *error = u"--server must be a ws:// or wss:// URL with a host (got \"%1\")"_s.arg(
                parser.value(u"server"_s));
            return std::nullopt;
        }
    }
    if (parser.isSet(u"open-chat"_s)) {
        options.openChat = parser.value(u"open-chat"_s);
        if (!Protocol::isValidId(options.openChat)) {
            *error = u"--open-chat must be a user id: 1-%1 characters of A-Z a-z 0-9 . _ - "
                     "(got \"%2\")"_s.arg(Protocol::kMaxIdLength)
                         .arg(options.openChat);
            return std::nullopt;
        }
    }
    if (parser.isSet(u"show"_s)) {
        const QString list = parser.value(u"show"_s);
        if (list == u"chats")
            options.showChats = true;
        else if (list != u"friends") {
            *error = u"--show must be chats or friends (got \"%1\")"_s.arg(list);
            return std::nullopt;
        }
    }
    if (parser.isSet(u"geometry"_s)) {
        static const QRegularExpression pattern(
            u"^(\\d{1,5})x(\\d{1,5})([+-]\\d{1,5})([+-]\\d{1,5})$"_s);
        const QRegularExpressionMatch match = pattern.match(parser.value(u"geometry"_s));
        const auto number = [&match](int group) { return match.captured(group).toInt(); };
        if (!match.hasMatch() || number(1) < 200 || number(2) < 200 || number(1) > 10000
            || number(2) > 10000) {
            *error = u"--geometry must be WxH+X+Y with a size from 200 to 10000 pixels, e.g. "
                     "520x760+20+40 (got \"%1\")"_s.arg(parser.value(u"geometry"_s));
            return std::nullopt;
        }
        options.geometry = QRect(number(3), number(4), number(1), number(2));
    }
    if (parser.isSet(u"ca-file"_s)) {
        const QString path = parser.value(u"ca-file"_s);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = u"--ca-file '%1': %2"_s.arg(path, file.errorString());
            return std::nullopt;
        }
        // Bounded: a certificate file is kilobytes, never the megabytes a wrong path may be.
        constexpr qint64 kMaxBytes = 1024 * 1024;
        const QByteArray pem = file.read(kMaxBytes + 1);
        options.caCertificates = QSslCertificate::fromData(pem, QSsl::Pem);
        if (pem.size() > kMaxBytes) {
            *error = u"--ca-file '%1': larger than 1 MiB, not a certificate file"_s.arg(path);
            return std::nullopt;
        }
        if (options.caCertificates.isEmpty()) {
            *error = u"--ca-file '%1': no PEM certificate in it"_s.arg(path);
            return std::nullopt;
        }
    }
    if (parser.isSet(u"token-file"_s) && parser.isSet(u"token-command"_s)) {
        *error = u"give --token-file or --token-command, not both"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"token-file"_s)) {
        options.tokenFile = parser.value(u"token-file"_s);
        const auto token = Session::FileTokenSource::read(options.tokenFile, error);
        if (!token)
            return std::nullopt;
        options.token = *token;
    } else if (parser.isSet(u"token-command"_s)) {
        options.tokenCommand = parser.value(u"token-command"_s);
        if (options.tokenCommand.trimmed().isEmpty()) {
            *error = u"--token-command needs a command"_s;
            return std::nullopt;
        }
    } else if (!environmentToken.trimmed().isEmpty()) {
        options.token = environmentToken.trimmed();
    }
    return options;
}

} // namespace Presence::App
