// Tests for the command line of presence-chat (ClientOptions::parse): where tokens come from
// (--token-file, --token-command, one of them); --ca-file adds authorities; --open-chat takes a
// friend's id, is listed in --help, and refuses what cannot be an id, naming the option. And the
// real binary answers --help and --version, and refuses bad options, without a display.

// C++
#include <optional>

// Qt
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "TestCertificates.h"
#include "app/ClientOptions.h"

using namespace Qt::StringLiterals;
using Presence::App::ClientOptions;
using Presence::TestSupport::TestCertificates;

namespace {

// As in a terminal over ssh: no X, no Wayland, Qt left to pick its default platform.
QProcessEnvironment withoutDisplay()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : { "DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM" })
        environment.remove(QString::fromLatin1(name));
    return environment;
}

std::optional<ClientOptions> parseArgs(const QStringList &args, QString *error)
{
    return ClientOptions::parse(QStringList { u"presence-chat"_s } + args, {}, error);
}

} // namespace

class TestClientOptions : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tokenSources();
    void tokenSourcesRejects_data();
    void tokenSourcesRejects();
    void caFileAddsAuthorities();
    void caFileRejects();
    void openChatIsOptional();
    void openChatTakesAnId();
    void openChatRejects_data();
    void openChatRejects();
    void showChoosesTheFirstList();
    void helpListsOpenChat();
    void helpAndVersionNeedNoDisplay_data();
    void helpAndVersionNeedNoDisplay();
    void badOptionsAreRefusedWithoutADisplay_data();
    void badOptionsAreRefusedWithoutADisplay();
    void qtOptionsAreLeftToQt();
    void geometryPlacesTheWindow();
    void geometryRejects_data();
    void geometryRejects();
};

void TestClientOptions::geometryPlacesTheWindow()
{
    QString error;
    auto options = parseArgs({ u"--geometry"_s, u"520x760+20-40"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->geometry, std::optional<QRect>(QRect(20, -40, 520, 760)));
    options = parseArgs({}, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->geometry, std::nullopt);
}

void TestClientOptions::geometryRejects_data()
{
    QTest::addColumn<QString>("value");
    QTest::addRow("empty") << QString();
    QTest::addRow("no position") << u"520x760"_s;
    QTest::addRow("too small") << u"100x760+0+0"_s;
    QTest::addRow("too big") << u"520x20000+0+0"_s;
    QTest::addRow("words") << u"wide+0+0"_s;
    QTest::addRow("spaces") << u"520 x 760 +0+0"_s;
}

void TestClientOptions::geometryRejects()
{
    QFETCH(QString, value);
    QString error;
    QVERIFY(!parseArgs({ u"--geometry"_s, value }, &error));
    QVERIFY2(error.contains(u"--geometry"_s), qPrintable(error));
}

void TestClientOptions::tokenSources()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"token"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("  alice-secret\n");
    file.close();
    QString error;
    // A token file gives the first token and is read again for the next.
    const auto fromFile = parseArgs({ u"--token-file"_s, path }, &error);
    QVERIFY2(fromFile, qPrintable(error));
    QCOMPARE(fromFile->token, u"alice-secret"_s);
    QCOMPARE(fromFile->tokenFile, path);
    QCOMPARE(fromFile->tokenCommand, QString());
    // A command is run when the client starts, not while the command line is read.
    const auto fromCommand = parseArgs({ u"--token-command"_s, u"my-login --print"_s }, &error);
    QVERIFY2(fromCommand, qPrintable(error));
    QCOMPARE(fromCommand->token, QString());
    QCOMPARE(fromCommand->tokenCommand, u"my-login --print"_s);
    QCOMPARE(fromCommand->tokenFile, QString());
}

void TestClientOptions::tokenSourcesRejects_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("both") << QStringList { u"--token-file"_s, u"t"_s, u"--token-command"_s,
        u"echo t"_s } << u"give --token-file or --token-command, not both"_s;
    QTest::newRow("blank command")
        << QStringList { u"--token-command"_s, u"  "_s } << u"--token-command needs a command"_s;
    QTest::newRow("missing file") << QStringList { u"--token-file"_s, u"/nonexistent/token"_s }
                                  << u"token file '/nonexistent/token': cannot open: No such "
                                     "file or directory"_s;
}

void TestClientOptions::tokenSourcesRejects()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    QString problem;
    QVERIFY(!parseArgs(args, &problem));
    QCOMPARE(problem, error);
}

void TestClientOptions::caFileAddsAuthorities()
{
    TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QString error;
    const auto options = parseArgs({ u"--ca-file"_s, certificates.caFile() }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->caCertificates, QSslCertificate::fromPath(certificates.caFile()));
    QCOMPARE(options->caCertificates.size(), 1);
    QVERIFY(parseArgs({}, &error)->caCertificates.isEmpty());
}

void TestClientOptions::caFileRejects()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString notPem = dir.filePath(u"notes.txt"_s);
    QFile file(notPem);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("just some notes\n");
    file.close();
    QString error;
    QVERIFY(!parseArgs({ u"--ca-file"_s, notPem }, &error));
    QCOMPARE(error, u"--ca-file '%1': no PEM certificate in it"_s.arg(notPem));
    QVERIFY(!parseArgs({ u"--ca-file"_s, u"/nonexistent/ca.pem"_s }, &error));
    QCOMPARE(error, u"--ca-file '/nonexistent/ca.pem': No such file or directory"_s);
}

void TestClientOptions::openChatIsOptional()
{
    QString error;
    const auto options = parseArgs({ u"--server"_s, u"ws://127.0.0.1:8765/"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ClientOptions::Action::Run);
    QCOMPARE(options->openChat, QString());
}

void TestClientOptions::openChatTakesAnId()
{
    QString error;
    const auto options = parseArgs(
        { u"--server"_s, u"ws://127.0.0.1:8765/"_s, u"--open-chat"_s, u"ada.l_1-x"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ClientOptions::Action::Run);
    QCOMPARE(options->openChat, u"ada.l_1-x"_s);
    QCOMPARE(options->server, QUrl(u"ws://127.0.0.1:8765/"_s));
}

void TestClientOptions::openChatRejects_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("errorPart");

    QTest::addRow("no value") << QStringList { u"--open-chat"_s } << u"open-chat"_s;
    QTest::addRow("empty") << QStringList { u"--open-chat"_s, QString() } << u"--open-chat"_s;
    QTest::addRow("space") << QStringList { u"--open-chat"_s, u"ada lovelace"_s }
                           << u"--open-chat"_s;
    QTest::addRow("slash") << QStringList { u"--open-chat=../ada"_s } << u"--open-chat"_s;
    QTest::addRow("too long") << QStringList { u"--open-chat"_s, QString(65, u'a') }
                              << u"--open-chat"_s;
}

void TestClientOptions::openChatRejects()
{
    QFETCH(QStringList, args);
    QFETCH(QString, errorPart);
    QString error;
    QVERIFY(!parseArgs(args, &error));
    QVERIFY2(error.contains(errorPart), qPrintable(error));
}

void TestClientOptions::showChoosesTheFirstList()
{
    QString error;
    auto options = parseArgs({ u"--show"_s, u"chats"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->showChats);
    options = parseArgs({ u"--show"_s, u"friends"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(!options->showChats);
    options = parseArgs({}, &error);
    QVERIFY(options && !options->showChats);
    QVERIFY(!parseArgs({ u"--show"_s, u"Chats"_s }, &error));
    QCOMPARE(error, u"--show must be chats or friends (got \"Chats\")"_s);
    QVERIFY(!parseArgs({ u"--show"_s }, &error));
}

void TestClientOptions::helpListsOpenChat()
{
    QString error;
    const auto options = parseArgs({ u"--help"_s }, &error);
    QVERIFY2(options, qPrintable(error));
    QCOMPARE(options->action, ClientOptions::Action::ShowHelp);
    QVERIFY2(options->helpText.contains(u"--open-chat <ID>"_s), qPrintable(options->helpText));
}

void TestClientOptions::helpAndVersionNeedNoDisplay_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<QString>("expected");
    QTest::addRow("--help") << u"--help"_s << u"Usage: "_s;
    QTest::addRow("-h") << u"-h"_s << u"--open-chat <ID>"_s;
    QTest::addRow("--version") << u"--version"_s << u"presence-chat "_s;
}

void TestClientOptions::helpAndVersionNeedNoDisplay()
{
    QFETCH(QString, argument);
    QFETCH(QString, expected);
    QProcess process;
    process.setProcessEnvironment(withoutDisplay());
    process.start(QStringLiteral(PRESENCE_CHAT), { argument });
    QVERIFY(process.waitForFinished(20000));
    const QString out = QString::fromLocal8Bit(process.readAllStandardOutput());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(process.exitCode() == 0,
        qPrintable(QString::fromLocal8Bit(process.readAllStandardError())));
    QVERIFY2(out.contains(expected), qPrintable(out));
}

void TestClientOptions::badOptionsAreRefusedWithoutADisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::addRow("unknown option") << QStringList { u"--bogus"_s } << u"Unknown option 'bogus'"_s;
    QTest::addRow("http server") << QStringList { u"--server"_s, u"http://x"_s }
                                 << u"--server must be a ws:// or wss:// URL"_s;
    // Qt's own options are not in the way of the check.
    QTest::addRow("after -style") << QStringList { u"-style"_s, u"Fusion"_s, u"--show"_s,
        u"sideways"_s } << u"--show must be chats or friends"_s;
}

void TestClientOptions::badOptionsAreRefusedWithoutADisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    // Refused before the GUI starts: without a display QApplication would abort (134) first.
    QProcess process;
    process.setProcessEnvironment(withoutDisplay());
    process.start(QStringLiteral(PRESENCE_CHAT), arguments);
    QVERIFY(process.waitForFinished(20000));
    const QString err = QString::fromLocal8Bit(process.readAllStandardError());
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QVERIFY2(
        process.exitCode() == 2, qPrintable(u"exit %1: %2"_s.arg(process.exitCode()).arg(err)));
    QVERIFY2(err.contains(u"presence-chat: "_s + expected), qPrintable(err));
    QVERIFY2(err.contains(u"Try 'presence-chat --help'."_s), qPrintable(err));
}

void TestClientOptions::qtOptionsAreLeftToQt()
{
    // What QApplication takes for itself, parse() never sees; "--geometry" stays ours.
    const QStringList args { u"presence-chat"_s, u"-style"_s, u"Fusion"_s, u"--reverse"_s,
        u"-platform"_s, u"offscreen"_s, u"-stylesheet=a.qss"_s, u"-geometry"_s, u"300x300"_s,
        u"--show"_s, u"chats"_s, u"--geometry"_s, u"520x760+20+40"_s };
    const QStringList kept = ClientOptions::withoutQtOptions(args);
    QCOMPARE(kept,
        (QStringList {
            u"presence-chat"_s, u"--show"_s, u"chats"_s, u"--geometry"_s, u"520x760+20+40"_s }));
    QString error;
    const auto options = ClientOptions::parse(kept, {}, &error);
    QVERIFY2(options, qPrintable(error));
    QVERIFY(options->showChats);
    QCOMPARE(options->geometry, QRect(20, 40, 520, 760));
}

QTEST_GUILESS_MAIN(TestClientOptions)
#include "tst_client_options.moc"
