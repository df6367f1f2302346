// The sign-in dialog, driven through the real widgets against an in-process gateway: a refused
// token, a good one (remembered or not, owner-only file), an unreachable gateway that comes up
// later, addresses that are not gateway addresses, the wrong scheme (ws:// to a TLS gateway,
// wss:// to a plain one), a certificate nobody trusts (trusted for its server with one click)
// or another than the one trusted (refused until the user trusts the new one), and a corrupt
// settings file. The settings themselves: tst_client_settings.

// C++
#include <memory>

// Qt
#include <QCheckBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

// Presence
#include "GatewayFixture.h"
#include "TestCertificates.h"
#include "app/ClientSettings.h"
#include "app/SignInDialog.h"
#include "server-mock/transport/TlsContext.h"
#include "session/CertificatePin.h"
#include "session/GatewaySession.h"
#include "tests/harness/ClosedPort.h"

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Presence::App::ClientSettings;
using Presence::App::SignInDialog;
using Presence::Session::CertificatePin;
using Presence::Session::GatewaySession;

namespace {

const QString kAlice = u"alice"_s;
const QString kTokenRefused = u"The gateway did not accept this token."_s;

QList<TestUser> population()
{
    return { { kAlice, {} } };
}

constexpr auto kGroupAndOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
    | QFileDevice::ExeOther;

// The dialog's widgets, found the way a user sees them.
struct Form {
    explicit Form(SignInDialog &dialog)
        : url(dialog.findChild<QLineEdit *>(u"gatewayUrl"_s))
        , token(dialog.findChild<QLineEdit *>(u"token"_s))
        , remember(dialog.findChild<QCheckBox *>(u"rememberToken"_s))
        , status(dialog.findChild<QLabel *>(u"status"_s))
        , signIn(dialog.findChild<QPushButton *>(u"signIn"_s))
        , cancel(dialog.findChild<QPushButton *>(u"cancel"_s))
        , fingerprint(dialog.findChild<QLabel *>(u"fingerprint"_s))
        , trust(dialog.findChild<QPushButton *>(u"trustCertificate"_s))
        , trustNew(dialog.findChild<QPushButton *>(u"trustNewCertificate"_s))
    {
    }
    [[nodiscard]] bool complete() const
    {
        return url && token && remember && status && signIn && cancel && fingerprint && trust
            && trustNew;
    }
    // Nothing about a certificate is offered.
    [[nodiscard]] bool offersNoCertificate() const
    {
        return !fingerprint->isVisible() && !trust->isVisible() && !trustNew->isVisible();
    }
    [[nodiscard]] bool inputsEnabled() const
    {
        return url->isEnabled() && token->isEnabled() && remember->isEnabled()
            && signIn->isEnabled();
    }
    [[nodiscard]] bool inputsDisabled() const
    {
        return !url->isEnabled() && !token->isEnabled() && !remember->isEnabled()
            && !signIn->isEnabled();
    }

    QLineEdit *url;
    QLineEdit *token;
    QCheckBox *remember;
    QLabel *status;
    QPushButton *signIn;
    QPushButton *cancel;
    QLabel *fingerprint;
    QPushButton *trust;
    QPushButton *trustNew;
};

// Replaces a field's text as a user does: select all, type over it.
void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    if (text.isEmpty())
        QTest::keyClick(edit, Qt::Key_Delete);
    else
        QTest::keyClicks(edit, text);
}

QString gatewayUrlText(quint16 port)
{
    return u"ws://127.0.0.1:%1/"_s.arg(port);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(bytes) == bytes.size();
}

} // namespace

class TestSignInDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void prefillsFromSettings();
    void refusedTokenKeepsTheDialogOpen();
    void goodTokenSignsInAndRemembers_data();
    void goodTokenSignsInAndRemembers();
    void unreachableGatewayThenSignInAgain();
    void unreachableGatewayComesUpByItself();
    void retryCountdownCountsDown();
    void cancelClosesTheSession_data();
    void cancelClosesTheSession();
    void invalidInputIsRejectedWithoutConnecting_data();
    void invalidInputIsRejectedWithoutConnecting();
    void corruptSettingsStartTheDialogFromTheDefaults();
    void wrongSchemeSaysWhichToUse_data();
    void wrongSchemeSaysWhichToUse();
    void untrustedCertificateIsTrustedForItsServer();
    void changedCertificateIsRefusedUntilTrusted();

private:
    [[nodiscard]] QString settingsPath() const { return m_dir->filePath(u"presence.ini"_s); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestSignInDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestSignInDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestSignInDialog::cleanup()
{
    m_dir.reset();
}

void TestSignInDialog::prefillsFromSettings()
{
    {
        ClientSettings saved(settingsPath());
        saved.setGatewayUrl(QUrl(u"wss://chat.example.com:9000/gw"_s));
        saved.setToken(u"remembered-secret"_s, true);
    }
    ClientSettings settings(settingsPath());
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    QCOMPARE(form.url->text(), u"wss://chat.example.com:9000/gw"_s);
    QCOMPARE(form.token->text(), u"remembered-secret"_s);
    QCOMPARE(form.token->echoMode(), QLineEdit::Password);
    QVERIFY(form.remember->isChecked());
    QCOMPARE(form.remember->text().remove(u'&'), u"Remember token on this computer"_s);
    QCOMPARE(form.url->accessibleName(), u"Gateway address"_s);
    QCOMPARE(form.token->accessibleName(), u"Token"_s);
    QVERIFY(!form.remember->accessibleName().isEmpty());
    QVERIFY(form.signIn->isDefault());

    // Nothing saved: the default address, empty token, box unticked.
    QVERIFY(QFile::remove(settingsPath()));
    ClientSettings fresh(settingsPath());
    SignInDialog freshDialog(&session, &fresh);
    const Form freshForm(freshDialog);
    QCOMPARE(freshForm.url->text(), u"ws://127.0.0.1:8765/"_s);
    QVERIFY(freshForm.token->text().isEmpty());
    QVERIFY(!freshForm.remember->isChecked());
    QCOMPARE(session.state(), GatewaySession::State::Disconnected);
}

void TestSignInDialog::refusedTokenKeepsTheDialogOpen()
{
    auto gateway = startGateway(population());
    QVERIFY(gateway);
    ClientSettings settings(settingsPath());
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    typeInto(form.url, gateway->url().toString());
    typeInto(form.token, u"not-alice-secret"_s);
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    // While the attempt runs, the inputs are locked and the user sees it is connecting.
    QCOMPARE(form.status->text(), u"Connecting…"_s);
    QVERIFY(form.inputsDisabled());
    QVERIFY(form.cancel->isEnabled());

    QTRY_COMPARE(form.status->text(), kTokenRefused);
    QCOMPARE(session.state(), GatewaySession::State::Failed);
    QVERIFY(dialog.isVisible());
    QVERIFY(form.offersNoCertificate());
    QCOMPARE(dialog.result(), int(QDialog::Rejected)); // not accepted (the initial value)
    QVERIFY(form.inputsEnabled());
    QVERIFY(form.token->hasFocus());
    // Nothing of a failed attempt is saved.
    ClientSettings reread(settingsPath());
    QCOMPARE(reread.gatewayUrl(), ClientSettings::defaultGatewayUrl());
    QVERIFY(!readAll(settingsPath()).contains("not-alice-secret"));

    // Correcting the token and signing in again works from the same dialog.
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(session.self().id, kAlice);
}

void TestSignInDialog::goodTokenSignsInAndRemembers_data()
{
    QTest::addColumn<bool>("previouslyRemembered");
    QTest::addColumn<bool>("remember");

    QTest::addRow("not remembered") << false << false;
    QTest::addRow("remembered") << false << true;
    QTest::addRow("was remembered, now unticked") << true << false;
    QTest::addRow("was remembered, still ticked") << true << true;
}

void TestSignInDialog::goodTokenSignsInAndRemembers()
{
    QFETCH(bool, previouslyRemembered);
    QFETCH(bool, remember);

    auto gateway = startGateway(population());
    QVERIFY(gateway);
    const QString token = tokenOf(kAlice);
    {
        ClientSettings before(settingsPath());
        before.setSortMode(1); // the file exists before the token goes in
        if (previouslyRemembered)
            before.setToken(token, true);
    }
    // Whatever the file's mode was, a stored token must make it owner-only.
    QVERIFY(QFile::setPermissions(settingsPath(),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
            | QFileDevice::ReadOther));

    ClientSettings settings(settingsPath());
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    QCOMPARE(form.remember->isChecked(), previouslyRemembered);
    QCOMPARE(form.token->text(), previouslyRemembered ? token : QString());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());

    typeInto(form.url, gateway->url().toString());
    if (!previouslyRemembered)
        typeInto(form.token, token);
    if (form.remember->isChecked() != remember)
        QTest::mouseClick(
            form.remember, Qt::LeftButton, {}, QPoint(5, form.remember->height() / 2));
    QCOMPARE(form.remember->isChecked(), remember);
    // Enter signs in.
    QTest::keyClick(form.token, Qt::Key_Return);
    QCOMPARE(form.status->text(), u"Connecting…"_s);

    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(dialog.signedInUrl(), gateway->url());

    const ClientSettings reread(settingsPath());
    QCOMPARE(reread.gatewayUrl(), gateway->url());
    QCOMPARE(reread.rememberToken(), remember);
    QCOMPARE(reread.token(), remember ? token : QString());
    QCOMPARE(reread.sortMode(), 1); // other settings survive
    QCOMPARE(readAll(settingsPath()).contains(token.toUtf8()), remember);
    if (remember) {
        const QFileInfo info(settingsPath());
        QCOMPARE(info.permissions() & kGroupAndOthers, QFileDevice::Permissions());
        QVERIFY(info.permissions().testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    }
}

void TestSignInDialog::unreachableGatewayThenSignInAgain()
{
    ClosedPort closed;
    const quint16 port = closed.port();
    QVERIFY(port != 0);
    ClientSettings settings(settingsPath());
    // Retries far off, so only pressing Sign in again can bring the session online.
    GatewaySession::Options options;
    options.backoff.floor = 20s;
    options.backoff.base = 25s;
    GatewaySession session(options);
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());

    typeInto(form.url, gatewayUrlText(port));
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    QTRY_COMPARE(session.state(), GatewaySession::State::Reconnecting);
    const qint64 seconds = (session.retryDelay().count() + 999) / 1000;
    QVERIFY2(seconds >= 20 && seconds <= 25, qPrintable(QString::number(seconds)));
    // The countdown may already have ticked once on a slow machine.
    QTRY_VERIFY2(form.status->text()
                == u"Cannot reach the gateway at %1 (retrying in %2 s)"_s.arg(gatewayUrlText(port))
                       .arg(seconds)
            || form.status->text()
                == u"Cannot reach the gateway at %1 (retrying in %2 s)"_s.arg(gatewayUrlText(port))
                       .arg(seconds - 1),
        qPrintable(form.status->text()));
    QVERIFY(form.inputsEnabled());
    QVERIFY(dialog.isVisible());
    QCOMPARE(accepted.size(), 0);

    closed.release();
    auto config = testConfig();
    config.port = port;
    auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    QCOMPARE(gateway->port(), port);

    QTest::mouseClick(form.signIn, Qt::LeftButton);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(ClientSettings(settingsPath()).gatewayUrl(), QUrl(gatewayUrlText(port)));
}

void TestSignInDialog::unreachableGatewayComesUpByItself()
{
    ClosedPort closed;
    const quint16 port = closed.port();
    QVERIFY(port != 0);
    ClientSettings settings(settingsPath());
    GatewaySession::Options options;
    options.backoff.base = 200ms;
    options.backoff.cap = 300ms;
    GatewaySession session(options);
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());

    typeInto(form.url, gatewayUrlText(port));
    typeInto(form.token, tokenOf(kAlice));
    QTest::keyClick(form.url, Qt::Key_Enter);
    QTRY_VERIFY2(form.status->text().startsWith(
                     u"Cannot reach the gateway at %1 ("_s.arg(gatewayUrlText(port))),
        qPrintable(form.status->text()));
    QVERIFY(form.inputsEnabled());

    // The session keeps trying by itself; once the gateway is there, the dialog is done.
    closed.release();
    auto config = testConfig();
    config.port = port;
    auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(dialog.signedInUrl(), QUrl(gatewayUrlText(port)));
}

void TestSignInDialog::retryCountdownCountsDown()
{
    ClosedPort closed;
    const quint16 port = closed.port();
    QVERIFY(port != 0);
    ClientSettings settings(settingsPath());
    GatewaySession::Options options;
    options.backoff.floor = 2100ms; // every delay exactly 2.1 s
    options.backoff.base = 2100ms;
    options.backoff.cap = 2100ms;
    GatewaySession session(options);
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    typeInto(form.url, gatewayUrlText(port));
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);
    const QString prefix = u"Cannot reach the gateway at %1 "_s.arg(gatewayUrlText(port));
    QTRY_COMPARE(form.status->text(), prefix + u"(retrying in 3 s)"_s);
    QTRY_COMPARE(form.status->text(), prefix + u"(retrying in 2 s)"_s);
    QTRY_COMPARE(form.status->text(), prefix + u"(retrying in 1 s)"_s);
    QTRY_COMPARE(session.retryAttempt(), 2);
    QTRY_COMPARE(form.status->text(), prefix + u"(retrying in 3 s)"_s);
}

void TestSignInDialog::cancelClosesTheSession_data()
{
    QTest::addColumn<bool>("useEscape");
    QTest::addColumn<bool>("whileRetrying");

    QTest::addRow("cancel button, while connecting") << false << false;
    QTest::addRow("escape, while connecting") << true << false;
    QTest::addRow("cancel button, while retrying") << false << true;
    QTest::addRow("escape, while retrying") << true << true;
}

void TestSignInDialog::cancelClosesTheSession()
{
    QFETCH(bool, useEscape);
    QFETCH(bool, whileRetrying);

    // A gateway that accepts the socket but never says welcome keeps the session connecting.
    auto config = testConfig();
    config.helloTimeout = 10s;
    auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    ClosedPort closed;
    const quint16 port = closed.port();
    QVERIFY(port != 0);

    ClientSettings settings(settingsPath());
    GatewaySession::Options options;
    options.backoff.base = 100ms;
    options.backoff.cap = 100ms;
    GatewaySession session(options);
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy rejected(&dialog, &QDialog::rejected);
    QVERIFY(rejected.isValid());

    typeInto(form.url, whileRetrying ? gatewayUrlText(port) : gateway->url().toString());
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);
    if (whileRetrying)
        QTRY_VERIFY(form.status->text().startsWith(u"Cannot reach"_s));
    else
        QCOMPARE(form.status->text(), u"Connecting…"_s);

    if (useEscape)
        QTest::keyClick(&dialog, Qt::Key_Escape);
    else
        QTest::mouseClick(form.cancel, Qt::LeftButton);
    QCOMPARE(rejected.size(), 1);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(session.state(), GatewaySession::State::Disconnected);

    // Closed on purpose: no retry follows (retries were 100 ms apart), and nothing is saved.
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QVERIFY(states.isValid());
    QTest::qWait(400);
    QCOMPARE(states.size(), 0);
    QCOMPARE(session.state(), GatewaySession::State::Disconnected);
    QVERIFY(!QFileInfo::exists(settingsPath()) || !readAll(settingsPath()).contains("gateway"));
}

void TestSignInDialog::invalidInputIsRejectedWithoutConnecting_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("message");
    QTest::addColumn<bool>("urlFocused");

    const QString token = tokenOf(kAlice);
    QTest::addRow("http") << u"http://x"_s << token
                          << u"The gateway address must start with ws:// or wss://, not http://."_s
                          << true;
    QTest::addRow("not a url")
        << u"not a url"_s << token
        << u"“not a url” is not a gateway address. It should look like ws://127.0.0.1:8765/"_s
        << true;
    QTest::addRow("host and port only")
        << u"localhost:8765"_s << token
        << u"“localhost:8765” is not a gateway address. It should look like ws://127.0.0.1:8765/"_s
        << true;
    QTest::addRow("no host") << u"ws:///path"_s << token
                             << u"The gateway address has no host name. It should look like "
                                "ws://127.0.0.1:8765/"_s
                             << true;
    QTest::addRow("bad port")
        << u"ws://host:99999/"_s << token
        << u"“ws://host:99999/” is not a gateway address. It should look like ws://127.0.0.1:8765/"_s
        << true;
    QTest::addRow("empty url") << QString() << token
                               << u"Enter the gateway address, for example ws://127.0.0.1:8765/"_s
                               << true;
    QTest::addRow("empty token") << u"ws://127.0.0.1:8765/"_s << QString() << u"Enter your token."_s
                                 << false;
    QTest::addRow("blank token") << u"ws://127.0.0.1:8765/"_s << u"   "_s << u"Enter your token."_s
                                 << false;
    QTest::addRow("token too long")
        << u"ws://127.0.0.1:8765/"_s << QString(4097, u'x')
        << u"This token is too long to be right (a token has at most 4096 characters)."_s << false;
}

void TestSignInDialog::invalidInputIsRejectedWithoutConnecting()
{
    QFETCH(QString, url);
    QFETCH(QString, token);
    QFETCH(QString, message);
    QFETCH(bool, urlFocused);

    ClientSettings settings(settingsPath());
    GatewaySession session;
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QVERIFY(states.isValid());
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    typeInto(form.url, url);
    typeInto(form.token, token);
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    QCOMPARE(form.status->text(), message);
    QCOMPARE(states.size(), 0); // open() was never called
    QCOMPARE(session.state(), GatewaySession::State::Disconnected);
    QVERIFY(dialog.isVisible());
    QVERIFY(form.inputsEnabled());
    QCOMPARE(form.url->hasFocus(), urlFocused);
    QCOMPARE(form.token->hasFocus(), !urlFocused);
}

void TestSignInDialog::corruptSettingsStartTheDialogFromTheDefaults()
{
    // The settings' own checks are tst_client_settings'; here, what the dialog makes of them.
    QVERIFY(writeFile(settingsPath(), "[gateway]\nurl=ftp://example.com/\n"));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"gateway/url"_s));
    ClientSettings settings(settingsPath());
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    QCOMPARE(Form(dialog).url->text(), u"ws://127.0.0.1:8765/"_s);
}

void TestSignInDialog::wrongSchemeSaysWhichToUse_data()
{
    QTest::addColumn<bool>("tlsGateway");
    QTest::addRow("ws:// to a TLS gateway") << true;
    QTest::addRow("wss:// to a plain gateway") << false;
}

void TestSignInDialog::wrongSchemeSaysWhichToUse()
{
    QFETCH(bool, tlsGateway);
    auto config = testConfig();
    Presence::TestSupport::TestCertificates certificates;
    if (tlsGateway) {
        if (config.transport == Presence::Server::GatewayConfig::Transport::Qt)
            QSKIP("TLS is served by the gateway's own transport");
        QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
        QString error;
        config.tls = Presence::Server::TlsContext::load(
            certificates.certificateFile(), certificates.keyFile(), &error);
        QVERIFY2(config.tls, qPrintable(error));
    }
    auto gateway = startGateway(population(), config);
    QVERIFY(gateway);
    const quint16 port = gateway->port();
    ClientSettings settings(settingsPath());
    GatewaySession session;
    QSignalSpy retries(&session, &GatewaySession::retryScheduled);
    QVERIFY(retries.isValid());
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    typeInto(form.url, u"%1://127.0.0.1:%2/"_s.arg(tlsGateway ? u"ws"_s : u"wss"_s).arg(port));
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    const QString expected = tlsGateway
        ? u"ws://127.0.0.1:%1 answered with TLS: use wss://127.0.0.1:%1"_s.arg(port)
        : u"wss://127.0.0.1:%1 is not a TLS server: use ws://127.0.0.1:%1"_s.arg(port);
    QTRY_COMPARE(form.status->text(), expected);
    QCOMPARE(session.state(), GatewaySession::State::Failed);
    QVERIFY(retries.isEmpty());
    QVERIFY(dialog.isVisible());
    QVERIFY(form.inputsEnabled());
    QVERIFY(form.url->hasFocus()); // the address is what to correct
    QVERIFY(form.offersNoCertificate());
}

namespace {

// A gateway serving a certificate that signs itself (no authority a system trusts).
std::unique_ptr<Presence::Server::Gateway> startSelfSignedGateway(
    const Presence::TestSupport::TestCertificates &certificates)
{
    auto config = testConfig();
    QString error;
    config.tls = Presence::Server::TlsContext::load(
        certificates.selfSignedCertificateFile(), certificates.selfSignedKeyFile(), &error);
    if (!config.tls) {
        qWarning() << error;
        return {};
    }
    return startGateway(population(), config);
}

QByteArray digestOf(const QString &certificateFile)
{
    const QList<QSslCertificate> certificates = QSslCertificate::fromPath(certificateFile);
    return certificates.isEmpty() ? QByteArray()
                                  : CertificatePin::digestOf(certificates.constFirst());
}

} // namespace

void TestSignInDialog::untrustedCertificateIsTrustedForItsServer()
{
    if (testConfig().transport == Presence::Server::GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    auto gateway = startSelfSignedGateway(certificates);
    QVERIFY(gateway);
    const QByteArray digest = digestOf(certificates.selfSignedCertificateFile());
    QCOMPARE(digest.size(), 32);
    const QString server = u"127.0.0.1:%1"_s.arg(gateway->port());

    ClientSettings settings(settingsPath());
    GatewaySession session;
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(form.offersNoCertificate());
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());

    typeInto(form.url, u"wss://127.0.0.1:%1/"_s.arg(gateway->port()));
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    // Refused, with what to check: the fingerprint (as openssl and browsers write it,
    // selectable to copy) and the button to trust it.
    QTRY_VERIFY(form.trust->isVisible());
    QCOMPARE(session.failure(), GatewaySession::Failure::UntrustedCertificate);
    QVERIFY2(form.status->text().startsWith(
                 u"The certificate of wss://127.0.0.1:%1 is not trusted: "_s.arg(gateway->port())),
        qPrintable(form.status->text()));
    QVERIFY(form.status->property("error").toBool());
    QVERIFY(form.fingerprint->isVisible());
    const QString fingerprint = CertificatePin::displayed(digest);
    QVERIFY(fingerprint.contains(QRegularExpression(u"^([0-9A-F]{2}:){31}[0-9A-F]{2}$"_s)));
    QVERIFY2(QString(form.fingerprint->text()).remove(u'\n').endsWith(fingerprint),
        qPrintable(form.fingerprint->text()));
    QVERIFY(form.fingerprint->textInteractionFlags().testFlag(Qt::TextSelectableByMouse));
    QCOMPARE(form.trust->text().remove(u'&'), u"Trust this certificate for this server"_s);
    QVERIFY(!form.trustNew->isVisible());
    QVERIFY(form.inputsEnabled());
    QCOMPARE(gateway->authenticatedCount(), 0);
    QVERIFY(accepted.isEmpty());
    QVERIFY(settings.trustedCertificates().isEmpty());

    // Typing in a field makes it another attempt: the offer goes, and comes back with the
    // same failure.
    typeInto(form.token, tokenOf(kAlice));
    QVERIFY(form.offersNoCertificate());
    QTest::mouseClick(form.signIn, Qt::LeftButton);
    QTRY_VERIFY(form.trust->isVisible());

    // Trusted: signed in at once, and remembered for that server.
    QTest::mouseClick(form.trust, Qt::LeftButton);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(gateway->authenticatedCount(), 1);
    const QHash<QString, QByteArray> pinned { { server, digest } };
    QCOMPARE(settings.trustedCertificates(), pinned);
    QCOMPARE(ClientSettings(settingsPath()).trustedCertificates(), pinned);
    QCOMPARE(session.options().pinnedCertificates, pinned); // for its reconnects
}

void TestSignInDialog::changedCertificateIsRefusedUntilTrusted()
{
    if (testConfig().transport == Presence::Server::GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    auto gateway = startSelfSignedGateway(certificates);
    QVERIFY(gateway);
    const QByteArray presented = digestOf(certificates.selfSignedCertificateFile());
    // What the user trusted for this server before: another certificate.
    const QByteArray trusted = digestOf(certificates.renewedCertificateFile());
    QCOMPARE(trusted.size(), 32);
    const QString server = u"127.0.0.1:%1"_s.arg(gateway->port());
    ClientSettings settings(settingsPath());
    settings.trustCertificate(server, trusted);

    GatewaySession::Options options;
    options.pinnedCertificates = settings.trustedCertificates(); // as the app makes it
    GatewaySession session(options);
    QSignalSpy states(&session, &GatewaySession::stateChanged);
    QVERIFY(states.isValid());
    SignInDialog dialog(&session, &settings);
    const Form form(dialog);
    QVERIFY(form.complete());
    dialog.resize(420, 200);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QVERIFY(accepted.isValid());

    typeInto(form.url, u"wss://127.0.0.1:%1/"_s.arg(gateway->port()));
    typeInto(form.token, tokenOf(kAlice));
    QTest::mouseClick(form.signIn, Qt::LeftButton);

    // Refused loudly, both fingerprints shown; nothing is trusted by itself.
    QTRY_VERIFY(form.trustNew->isVisible());
    QCOMPARE(session.failure(), GatewaySession::Failure::CertificateChanged);
    QVERIFY2(form.status->text().startsWith(
                 u"The certificate of wss://127.0.0.1:%1 changed since you trusted it."_s.arg(
                     gateway->port())),
        qPrintable(form.status->text()));
    QVERIFY(form.status->text().contains(u"someone is intercepting the connection"_s));
    QVERIFY(form.status->property("error").toBool());
    const QString shown = QString(form.fingerprint->text()).remove(u'\n');
    QVERIFY2(shown.contains(CertificatePin::displayed(trusted)), qPrintable(shown));
    QVERIFY2(shown.contains(CertificatePin::displayed(presented)), qPrintable(shown));
    QVERIFY(shown.indexOf(CertificatePin::displayed(trusted))
        < shown.indexOf(CertificatePin::displayed(presented)));
    QCOMPARE(form.trustNew->text().remove(u'&'), u"Trust the new certificate"_s);
    QVERIFY(!form.trust->isVisible());
    QCOMPARE(session.state(), GatewaySession::State::Failed);
    states.clear();
    QVERIFY(!states.wait(500)); // no retry on its own
    QCOMPARE(gateway->authenticatedCount(), 0);
    QVERIFY(accepted.isEmpty());
    QCOMPARE(settings.trustedCertificates().value(server), trusted);
    QCOMPARE(ClientSettings(settingsPath()).trustedCertificates().value(server), trusted);

    // Only the user's explicit click trusts the new one, instead of the old.
    QTest::mouseClick(form.trustNew, Qt::LeftButton);
    QTRY_COMPARE(accepted.size(), 1);
    QCOMPARE(session.state(), GatewaySession::State::Online);
    QCOMPARE(gateway->authenticatedCount(), 1);
    const QHash<QString, QByteArray> pinned { { server, presented } };
    QCOMPARE(settings.trustedCertificates(), pinned);
    QCOMPARE(ClientSettings(settingsPath()).trustedCertificates(), pinned);
}

QTEST_MAIN(TestSignInDialog)
#include "tst_sign_in_dialog.moc"
