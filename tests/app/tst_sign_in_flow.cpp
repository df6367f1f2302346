// Who the client signs in as, from launch to Sign out, against a real gateway with the real
// window and dialog: a remembered token signs in without asking, a refused token or a web
// server at the address brings the sign-in dialog over the window (not a Retry that sends the
// same token again), a sign-in whose token ran out with no new one in its token file says "The
// sign-in expired" in the banner and the dialog, Sign out forgets the token and everything the
// list and the header showed, and a Switch account that fails keeps the account signed in. A
// wss:// certificate nobody trusts, at launch or on a switch of account, is trusted from the
// dialog over the window, for every session the app makes.

// C++
#include <chrono>
#include <memory>

// Qt
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

// Presence
#include "GatewayFixture.h"
#include "JwtMinter.h"
#include "TestCertificates.h"
#include "app/ClientSettings.h"
#include "app/SessionModelBridge.h"
#include "app/SignInDialog.h"
#include "app/SignInFlow.h"
#include "app/WindowWiring.h"
#include "models/FriendListModel.h"
#include "server-mock/identity/JwtVerifier.h"
#include "server-mock/transport/TlsContext.h"
#include "session/CertificatePin.h"
#include "session/ChatController.h"
#include "session/FileTokenSource.h"
#include "session/GatewaySession.h"
#include "tests/harness/ClosedPort.h"
#include "ui/shell/ConnectionBanner.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/OwnAvatar.h"
#include "ui/shell/SessionHeader.h"

using namespace Qt::StringLiterals;
using Presence::App::ClientSettings;
using Presence::App::SessionModelBridge;
using Presence::App::SignInFlow;
using Presence::Models::FriendListModel;
using Presence::Session::CertificatePin;
using Presence::Session::ChatController;
using Presence::Session::GatewaySession;
using Presence::Ui::MainWindow;

namespace {

QList<TestUser> population()
{
    return { { u"alice"_s, { u"bob"_s, u"carol"_s } }, { u"bob"_s, { u"alice"_s } },
        { u"carol"_s, { u"alice"_s } } };
}

// Every text the header shows now (labels and the status box), one per line.
QString headerText(const Presence::Ui::SessionHeader *header)
{
    QStringList shown;
    const auto labels = header->findChildren<QLabel *>();
    for (const QLabel *label : labels) {
        if (label->isVisible())
            shown.append(label->text());
    }
    if (header->statusChooser()->isVisible())
        shown.append(header->statusChooser()->currentText());
    return shown.join(u'\n');
}

// A plain web server: it answers the WebSocket upgrade with a page (200), never with 101.
void serveAPage(QTcpServer *web)
{
    QObject::connect(web, &QTcpServer::newConnection, web, [web] {
        while (QTcpSocket *peer = web->nextPendingConnection()) {
            QObject::connect(peer, &QTcpSocket::readyRead, peer, [peer] {
                peer->readAll();
                peer->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi");
                peer->disconnectFromHost();
            });
            QObject::connect(peer, &QTcpSocket::disconnected, peer, &QObject::deleteLater);
        }
    });
}

QAction *menuAction(const MainWindow &window, const QString &text)
{
    const auto actions = window.menuBar()->findChildren<QAction *>();
    for (QAction *action : actions) {
        if (action->text().remove(u'&') == text)
            return action;
    }
    return nullptr;
}

// The application as main() composes it, with settings in a temporary file.
struct App {
    explicit App(const QString &settingsPath)
        : settings(settingsPath)
        , bridge(&session, &model)
        , chat(&session, &model)
        , flow(&session, &settings, &model)
    {
    }
    // The window, shown, with the flow attached.
    void showWindow()
    {
        window = std::make_unique<MainWindow>(&model, &chat);
        wiring
            = std::make_unique<Presence::App::WindowWiring>(&session, &chat, &model, window.get());
        window->show();
        flow.attach(window.get());
    }

    ClientSettings settings;
    GatewaySession session;
    FriendListModel model;
    SessionModelBridge bridge;
    ChatController chat;
    SignInFlow flow;
    std::unique_ptr<MainWindow> window;
    std::unique_ptr<Presence::App::WindowWiring> wiring;
};

} // namespace

class TestSignInFlow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void rememberedTokenSignsInWithoutAsking();
    void refusedTokenBringsTheDialogOverTheWindow();
    void anExpiredSignInSaysSo();
    void aWebServerAtTheAddressIsExplained();
    void signOutForgetsTheAccount();
    void aFailedSwitchKeepsTheAccount_data();
    void aFailedSwitchKeepsTheAccount();
    void anUntrustedCertificateAtLaunchIsTrustedFromTheWindow();
    void aSwitchToAnUntrustedCertificateIsTrustedForBothSessions();

private:
    [[nodiscard]] QString settingsPath() const { return m_dir->filePath(u"presence.ini"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

// A gateway serving a certificate that signs itself (no authority a system trusts), and that
// certificate's SHA-256 digest.
std::unique_ptr<Presence::Server::Gateway> startSelfSignedGateway(
    const Presence::TestSupport::TestCertificates &certificates, QByteArray *digest)
{
    auto config = testConfig();
    QString error;
    config.tls = Presence::Server::TlsContext::load(
        certificates.selfSignedCertificateFile(), certificates.selfSignedKeyFile(), &error);
    const auto read = QSslCertificate::fromPath(certificates.selfSignedCertificateFile());
    if (!config.tls || read.isEmpty()) {
        qWarning() << error;
        return {};
    }
    *digest = CertificatePin::digestOf(read.constFirst());
    return startGateway(population(), config);
}

} // namespace

void TestSignInFlow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestSignInFlow::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestSignInFlow::rememberedTokenSignsInWithoutAsking()
{
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    {
        ClientSettings saved(settingsPath());
        saved.setGatewayUrl(gateway->url());
        saved.setToken(tokenOf(u"alice"_s), true);
    }
    App app(settingsPath());
    // A dialog would block start() in exec(): close any that appears, and say so.
    bool asked = false;
    QTimer watch;
    connect(&watch, &QTimer::timeout, &watch, [&asked] {
        if (QWidget *modal = QApplication::activeModalWidget()) {
            asked = true;
            modal->close();
        }
    });
    watch.start(50);
    QVERIFY(app.flow.start({}, {}));
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"alice"_s);
    QVERIFY(!asked);
    app.showWindow();
    QVERIFY(!app.flow.dialog());
}

void TestSignInFlow::refusedTokenBringsTheDialogOverTheWindow()
{
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    App app(settingsPath());
    QVERIFY(app.flow.start(gateway->url(), u"not-a-token"_s)); // as --token-file would give it
    app.showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(app.window.get()));

    // Refused: the dialog comes by itself, says why, and has the cursor in the token field
    // (empty: a token from a file or the environment is not shown).
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    Presence::App::SignInDialog *dialog = app.flow.dialog();
    QCOMPARE(dialog->parentWidget(), app.window.get());
    QCOMPARE(dialog->statusText(), u"The gateway did not accept this token."_s);
    auto *token = dialog->findChild<QLineEdit *>(u"token"_s);
    QVERIFY(token);
    QTRY_VERIFY(token->hasFocus());
    QVERIFY(token->text().isEmpty());
    // Behind it the header offers a new sign-in, not a retry of the same token, and shows
    // nobody: no avatar, no name, no status box of nobody's.
    Presence::Ui::SessionHeader *header = app.window->header();
    QVERIFY(!header->retryButton()->isVisible());
    QVERIFY(header->signInButton()->isVisible());
    QVERIFY(!header->avatar()->isVisible());
    QVERIFY2(!header->statusChooser()->isVisible(), qPrintable(headerText(header)));

    // The right token signs in and the dialog goes.
    QTest::keyClicks(token, tokenOf(u"alice"_s));
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"signIn"_s), Qt::LeftButton);
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QTRY_VERIFY(!app.flow.dialog());
    QTRY_COMPARE(app.model.rowCount(), 2);
    QVERIFY(!header->signInButton()->isVisible());
    QVERIFY(header->statusChooser()->isVisible());
    QVERIFY2(headerText(header).contains(u"@alice"_s), qPrintable(headerText(header)));

    // Sign in… in the header brings it back after a later refusal, once.
    app.session.open(gateway->url(), u"another-bad-one"_s);
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    QPointer<Presence::App::SignInDialog> first = app.flow.dialog();
    QTest::mouseClick(app.window->header()->signInButton(), Qt::LeftButton);
    QCOMPARE(app.flow.dialog(), first.data());
}

void TestSignInFlow::anExpiredSignInSaysSo()
{
    // Issue 46: a --token-file nobody renews. The gateway takes JSON Web Tokens with no leeway
    // and warns 1.5 s ahead.
    const QByteArray secret = "the app's HS256 secret, 32 bytes or more"_ba;
    QString error;
    const auto key = Presence::Server::JwtKey::fromSecret(secret, {}, &error);
    QVERIFY2(key, qPrintable(error));
    Presence::Server::GatewayConfig config = testConfig();
    config.jwt = std::make_shared<const Presence::Server::JwtVerifier>(
        QList<Presence::Server::JwtKey> { *key }, std::chrono::seconds(0));
    config.tokenWarning = std::chrono::milliseconds(1500);
    auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    const QString token = Presence::TestSupport::JwtMinter::hs256(secret).mint(
        Presence::TestSupport::JwtMinter::claims(u"alice"_s, 3));
    const QString path = m_dir->filePath(u"token"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.write(token.toUtf8()) > 0);
    file.close();
    Presence::Session::FileTokenSource source(path);
    App app(settingsPath());
    app.session.setTokenSource(&source);
    QVERIFY(app.flow.start(gateway->url(), token));
    app.showWindow();
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);

    // Once the token has run out: the dialog over the window and the banner behind it say
    // so, with Sign in…, not that the token was refused.
    QTRY_VERIFY_WITH_TIMEOUT(app.flow.dialog() && app.flow.dialog()->isVisible(), 6000);
    QCOMPARE(app.flow.dialog()->statusText(), u"The sign-in expired: sign in again."_s);
    Presence::Ui::SessionHeader *header = app.window->header();
    QCOMPARE(header->banner()->text(), u"The sign-in expired: sign in again."_s);
    QVERIFY(header->signInButton()->isVisible());
    QVERIFY(!header->retryButton()->isVisible());
}

void TestSignInFlow::aWebServerAtTheAddressIsExplained()
{
    QTcpServer web;
    QVERIFY(web.listen(QHostAddress::LocalHost, 0));
    serveAPage(&web);
    App app(settingsPath());
    const QUrl url(u"ws://127.0.0.1:%1/"_s.arg(web.serverPort()));
    QVERIFY(app.flow.start(url, u"some-token"_s));
    app.showWindow();
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    const QString status = app.flow.dialog()->statusText();
    QVERIFY2(
        status.contains(u"is a web server, not a presence gateway (it answered HTTP 200 OK)"_s),
        qPrintable(status));
    auto *address = app.flow.dialog()->findChild<QLineEdit *>(u"gatewayUrl"_s);
    QVERIFY(address);
    QTRY_VERIFY(address->hasFocus());
}

void TestSignInFlow::signOutForgetsTheAccount()
{
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    {
        ClientSettings saved(settingsPath());
        saved.setGatewayUrl(gateway->url());
        saved.setToken(tokenOf(u"alice"_s), true);
    }
    App app(settingsPath());
    QVERIFY(app.flow.start({}, {}));
    app.showWindow();
    QTRY_COMPARE(app.model.rowCount(), 2);
    app.window->openChat(u"bob"_s);
    Presence::Ui::SessionHeader *header = app.window->header();
    QTRY_VERIFY2(headerText(header).contains(u"@alice"_s), qPrintable(headerText(header)));
    QVERIFY(header->avatar()->isVisible());

    QAction *signOut = menuAction(*app.window, u"Sign out"_s);
    QVERIFY(signOut);
    signOut->trigger();
    QCOMPARE(app.session.state(), GatewaySession::State::Disconnected);
    QCOMPARE(app.model.rowCount(), 0); // nothing of that account stays on screen
    QVERIFY(app.settings.token().isEmpty());
    QVERIFY(!app.settings.rememberToken());
    QVERIFY(!ClientSettings(settingsPath()).rememberToken()); // on disk too
    QVERIFY(ClientSettings(settingsPath()).token().isEmpty());
    // Nor in the header: nobody is signed in.
    QVERIFY2(!headerText(header).contains(u"alice"_s, Qt::CaseInsensitive),
        qPrintable(headerText(header)));
    QVERIFY(!header->avatar()->isVisible());
    QVERIFY(!header->statusChooser()->isVisible());
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());

    // Cancel leaves a signed-out window whose header offers to sign in.
    app.flow.dialog()->reject();
    QTRY_VERIFY(!app.flow.dialog());
    QVERIFY(app.window->header()->signInButton()->isVisible());

    // Switch account signs in as someone else: their friends, not alice's.
    QAction *switchAccount = menuAction(*app.window, u"Switch account…"_s);
    QVERIFY(switchAccount);
    switchAccount->trigger();
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    auto *token = app.flow.dialog()->findChild<QLineEdit *>(u"token"_s);
    QVERIFY(token);
    token->setText(tokenOf(u"bob"_s));
    app.flow.dialog()->signIn();
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"bob"_s);
    QTRY_COMPARE(app.model.rowCount(), 1);
    QCOMPARE(app.model.index(0).data(FriendListModel::IdRole).toString(), u"alice"_s);
}

void TestSignInFlow::aFailedSwitchKeepsTheAccount_data()
{
    QTest::addColumn<QString>("where"); // gateway, web server, closed port
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("said");
    QTest::addRow("refused token")
        << u"gateway"_s << u"not-a-token"_s << u"The gateway did not accept this token."_s;
    QTest::addRow("web server") << u"web server"_s << tokenOf(u"bob"_s)
                                << u"is a web server, not a presence gateway"_s;
    QTest::addRow("unreachable") << u"closed port"_s << tokenOf(u"bob"_s)
                                 << u"Cannot reach the gateway at"_s;
}

void TestSignInFlow::aFailedSwitchKeepsTheAccount()
{
    QFETCH(QString, where);
    QFETCH(QString, token);
    QFETCH(QString, said);
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    QTcpServer web;
    QVERIFY(web.listen(QHostAddress::LocalHost, 0));
    serveAPage(&web);
    const ClosedPort closed;
    QVERIFY(closed.port() != 0);
    const QUrl url = where == u"gateway"_s ? gateway->url()
        : where == u"web server"_s         ? QUrl(u"ws://127.0.0.1:%1/"_s.arg(web.serverPort()))
                                           : closed.url();
    {
        ClientSettings saved(settingsPath());
        saved.setGatewayUrl(gateway->url());
        saved.setToken(tokenOf(u"alice"_s), true);
    }
    App app(settingsPath());
    QVERIFY(app.flow.start({}, {}));
    app.showWindow();
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QTRY_COMPARE(app.model.rowCount(), 2);
    Presence::Ui::SessionHeader *header = app.window->header();
    QTRY_VERIFY(headerText(header).contains(u"@alice"_s));

    // Switch account… to an account that cannot sign in: the dialog says why.
    QAction *switchAccount = menuAction(*app.window, u"Switch account…"_s);
    QVERIFY(switchAccount);
    switchAccount->trigger();
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    QPointer<Presence::App::SignInDialog> dialog = app.flow.dialog();
    dialog->findChild<QLineEdit *>(u"gatewayUrl"_s)->setText(url.toString());
    dialog->findChild<QLineEdit *>(u"token"_s)->setText(token);
    dialog->signIn();
    QTRY_VERIFY2(dialog->statusText().contains(said), qPrintable(dialog->statusText()));
    // Alice stays signed in meanwhile, with her friends and her name in the header.
    QCOMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"alice"_s);
    QCOMPARE(app.model.rowCount(), 2);
    QVERIFY2(headerText(header).contains(u"@alice"_s), qPrintable(headerText(header)));

    // Cancel leaves her signed in, and the dialog opened again has nothing stale to say.
    dialog->reject();
    QTRY_VERIFY(!dialog);
    QCOMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"alice"_s);
    QVERIFY(!header->signInButton()->isVisible());
    QVERIFY2(headerText(header).contains(u"@alice"_s), qPrintable(headerText(header)));
    switchAccount->trigger();
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    QCOMPARE(app.flow.dialog()->statusText(), QString());

    // A switch that works signs in as bob, on the window's own session.
    app.flow.dialog()->findChild<QLineEdit *>(u"gatewayUrl"_s)->setText(gateway->url().toString());
    app.flow.dialog()->findChild<QLineEdit *>(u"token"_s)->setText(tokenOf(u"bob"_s));
    app.flow.dialog()->signIn();
    QTRY_COMPARE(app.session.self().id, u"bob"_s);
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QTRY_VERIFY(!app.flow.dialog());
    QTRY_COMPARE(app.model.rowCount(), 1);
    QTRY_VERIFY2(headerText(header).contains(u"@bob"_s), qPrintable(headerText(header)));
    QCOMPARE(app.settings.gatewayUrl(), gateway->url());
}

void TestSignInFlow::anUntrustedCertificateAtLaunchIsTrustedFromTheWindow()
{
    if (testConfig().transport == Presence::Server::GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QByteArray digest;
    auto gateway = startSelfSignedGateway(certificates, &digest);
    QVERIFY(gateway);

    // Started from a launcher with --server and --token-file: no dialog until it fails.
    App app(settingsPath());
    QVERIFY(app.flow.start(gateway->url(), tokenOf(u"alice"_s)));
    app.showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(app.window.get()));

    // The banner says it with the fingerprint, and the dialog over the window offers to trust
    // it; Sign in… in the banner leads to that same dialog.
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    Presence::App::SignInDialog *dialog = app.flow.dialog();
    Presence::Ui::SessionHeader *header = app.window->header();
    QVERIFY2(header->banner()->text().contains(CertificatePin::displayed(digest)),
        qPrintable(header->banner()->text()));
    QVERIFY(header->signInButton()->isVisible());
    QTest::mouseClick(header->signInButton(), Qt::LeftButton);
    QCOMPARE(app.flow.dialog(), dialog);
    auto *trust = dialog->findChild<QPushButton *>(u"trustCertificate"_s);
    QVERIFY(trust);
    QTRY_VERIFY(trust->isVisible());
    QVERIFY(dialog->findChild<QLineEdit *>(u"token"_s)->text().isEmpty()); // never shown

    // Trusted: the session signs in again with its own token, and the window is signed in.
    QTest::mouseClick(trust, Qt::LeftButton);
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"alice"_s);
    QTRY_VERIFY(!app.flow.dialog());
    QTRY_COMPARE(app.model.rowCount(), 2);
    QVERIFY(!header->banner()->isVisible());
    const ClientSettings saved(settingsPath());
    const QHash<QString, QByteArray> pinned { { CertificatePin::serverOf(gateway->url()),
        digest } };
    QCOMPARE(saved.trustedCertificates(), pinned);
    QVERIFY(saved.token().isEmpty()); // a token from a file is not written anywhere
    QVERIFY(!saved.rememberToken());
}

void TestSignInFlow::aSwitchToAnUntrustedCertificateIsTrustedForBothSessions()
{
    if (testConfig().transport == Presence::Server::GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QByteArray digest;
    auto tlsGateway = startSelfSignedGateway(certificates, &digest);
    QVERIFY(tlsGateway);
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    App app(settingsPath());
    QVERIFY(app.flow.start(gateway->url(), tokenOf(u"alice"_s)));
    app.showWindow();
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);

    // Switch account… to bob on the TLS gateway: tried on the dialog's own session, refused.
    QAction *switchAccount = menuAction(*app.window, u"Switch account…"_s);
    QVERIFY(switchAccount);
    switchAccount->trigger();
    QTRY_VERIFY(app.flow.dialog() && app.flow.dialog()->isVisible());
    Presence::App::SignInDialog *dialog = app.flow.dialog();
    dialog->findChild<QLineEdit *>(u"gatewayUrl"_s)->setText(tlsGateway->url().toString());
    dialog->findChild<QLineEdit *>(u"token"_s)->setText(tokenOf(u"bob"_s));
    dialog->signIn();
    auto *trust = dialog->findChild<QPushButton *>(u"trustCertificate"_s);
    QTRY_VERIFY(trust->isVisible());
    QCOMPARE(app.session.self().id, u"alice"_s); // still signed in meanwhile

    // Trusted: the trial signs in, then the window's own session does, with the pin too.
    QTest::mouseClick(trust, Qt::LeftButton);
    QTRY_VERIFY(!app.flow.dialog());
    QTRY_COMPARE(app.session.state(), GatewaySession::State::Online);
    QCOMPARE(app.session.self().id, u"bob"_s);
    QCOMPARE(app.session.url(), tlsGateway->url());
    QCOMPARE(
        app.session.options().pinnedCertificates.value(CertificatePin::serverOf(tlsGateway->url())),
        digest);
}

QTEST_MAIN(TestSignInFlow)
#include "tst_sign_in_flow.moc"
