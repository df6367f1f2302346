// ClientApp, the client composed as main() runs it, against a real gateway: what the command
// line asks for once signed in. --open-chat opens a chat the way the list of chats does, at the
// first unread message, never by marking everything read before the counts are known. A
// certificate the user trusted for a server in an earlier run is trusted there again.

// C++
#include <memory>

// Qt
#include <QApplication>
#include <QJsonObject>
#include <QListView>
#include <QLoggingCategory>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTest>

// Presence
#include "ClientSteps.h"
#include "GatewayFixture.h"
#include "TestCertificates.h"
#include "TestClient.h"
#include "app/ClientApp.h"
#include "app/ClientOptions.h"
#include "app/ClientSettings.h"
#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "server-mock/transport/TlsContext.h"
#include "session/CertificatePin.h"
#include "ui/chat/ChatMessageDelegate.h"
#include "ui/chat/ChatPane.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/SessionHeader.h"

using namespace Qt::StringLiterals;
using Presence::App::ClientApp;
using Presence::App::ClientOptions;

class TestClientApp : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLoggingCategory::setFilterRules(u"presence.*.info=false"_s);
    }
    void openChatOpensAtTheFirstUnreadMessage();
    void aTrustedCertificateIsTrustedAfterARestart();
};

void TestClientApp::openChatOpensAtTheFirstUnreadMessage()
{
    // V2: bob wrote 70 messages while alice was away. Started with --open-chat bob, the chat
    // opened before the gateway had told the unread counts: all 70 were marked read at once,
    // the view sat at the bottom and the "New messages" divider 51 messages up, out of sight.
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } });
    QVERIFY(gateway);
    {
        const auto bob = ClientSteps::signIn(gateway->url(), u"bob"_s);
        QVERIFY(bob);
        for (int n = 1; n <= 70; ++n) {
            const QJsonObject ok = bob->request({ { "type"_L1, "message"_L1 },
                { "to"_L1, "alice"_L1 }, { "text"_L1, u"message %1"_s.arg(n) } });
            QCOMPARE(ok.value("type"_L1).toString(), u"ok"_s);
        }
    }

    ClientOptions options;
    options.server = gateway->url();
    options.token = tokenOf(u"alice"_s);
    options.openChat = u"bob"_s;
    ClientApp app(options);
    QVERIFY(app.start());
    Presence::Ui::MainWindow *window = app.window();
    QVERIFY(window);
    window->resize(800, 500);
    Presence::Ui::ChatPane *chat = window->chatPane();
    QTRY_COMPARE(chat->friendId(), u"bob"_s);

    // The divider goes above bob's first unread message, and it is in sight.
    QTRY_VERIFY(!chat->messageDelegate()->firstUnreadId().isEmpty());
    QListView *view = chat->messageView();
    const auto dividerRow = [&] {
        for (int row = 0; row < view->model()->rowCount(); ++row) {
            const QModelIndex index = view->model()->index(row, 0);
            if (index.data(Presence::Models::ChatModel::IdRole).toString()
                == chat->messageDelegate()->firstUnreadId())
                return index;
        }
        return QModelIndex();
    };
    QTRY_VERIFY(dividerRow().isValid());
    QCOMPARE(dividerRow().data(Presence::Models::ChatModel::TextRole).toString(), u"message 1"_s);
    QTRY_VERIFY(view->viewport()->rect().intersects(view->visualRect(dividerRow())));
    QVERIFY(view->verticalScrollBar()->value() < view->verticalScrollBar()->maximum());
    // Only what came on screen is read: most of the 70 still wait below, as after opening
    // the chat from the list of chats.
    const auto *friends = qobject_cast<const Presence::Models::FriendListModel *>(
        window->friendList()->proxy()->sourceModel());
    QVERIFY(friends);
    QTRY_VERIFY(!chat->shownUpTo().isEmpty());
    QVERIFY2(friends->unreadCount(u"bob"_s) > 0 && friends->unreadCount(u"bob"_s) < 70,
        qPrintable(QString::number(friends->unreadCount(u"bob"_s))));
}

void TestClientApp::aTrustedCertificateIsTrustedAfterARestart()
{
    using Presence::Session::CertificatePin;
    auto config = testConfig();
    if (config.transport == Presence::Server::GatewayConfig::Transport::Qt)
        QSKIP("TLS is served by the gateway's own transport");
    Presence::TestSupport::TestCertificates certificates;
    QVERIFY2(certificates.isValid(), qPrintable(certificates.error()));
    QString error;
    config.tls = Presence::Server::TlsContext::load(
        certificates.selfSignedCertificateFile(), certificates.selfSignedKeyFile(), &error);
    QVERIFY2(config.tls, qPrintable(error));
    const auto gateway = startGateway({ { u"alice"_s, { u"bob"_s } }, { u"bob"_s, {} } }, config);
    QVERIFY(gateway);
    const auto served = QSslCertificate::fromPath(certificates.selfSignedCertificateFile());
    QCOMPARE(served.size(), 1);

    // The run before trusted it, in the app's own settings file (a test one, in test mode).
    const QString settingsFile
        = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/presence.ini"_s;
    const QString server = CertificatePin::serverOf(gateway->url());
    Presence::App::ClientSettings(settingsFile)
        .trustCertificate(server, CertificatePin::digestOf(served.constFirst()));
    const auto forget = qScopeGuard(
        [&] { Presence::App::ClientSettings(settingsFile).forgetCertificate(server); });

    ClientOptions options;
    options.server = gateway->url();
    options.token = tokenOf(u"alice"_s);
    ClientApp app(options);
    QVERIFY(app.start());
    QVERIFY(app.window());
    QTRY_COMPARE(app.window()->header()->connectionText(), u"connected"_s);
    QCOMPARE(gateway->authenticatedCount(), 1);
}

QTEST_MAIN(TestClientApp)
#include "tst_client_app.moc"
