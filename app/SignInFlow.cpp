#include "app/SignInFlow.h"

// Presence
#include "app/ClientSettings.h"
#include "app/SignInDialog.h"
#include "models/FriendListModel.h"
#include "session/GatewaySession.h"
#include "ui/chat/ChatPane.h"
#include "ui/shell/MainWindow.h"

namespace Presence::App {

using Session::GatewaySession;

SignInFlow::SignInFlow(GatewaySession *session, ClientSettings *settings,
    Models::FriendListModel *friends, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_settings(settings)
    , m_friends(friends)
{
    connect(session, &GatewaySession::stateChanged, this, &SignInFlow::onStateChanged);
}

bool SignInFlow::start(const QUrl &server, const QString &token)
{
    if (!server.isEmpty() && !token.isEmpty()) {
        m_session->open(server, token); // demos and QA: no dialog
        return true;
    }
    if (!server.isEmpty())
        m_settings->setGatewayUrl(server);
    // "Remember token" means not being asked again.
    if (server.isEmpty() && m_settings->rememberToken() && !m_settings->token().isEmpty()
        && ClientSettings::isUsableGatewayUrl(m_settings->gatewayUrl())) {
        m_session->open(m_settings->gatewayUrl(), m_settings->token());
        return true;
    }
    SignInDialog dialog(m_session, m_settings);
    return dialog.exec() == QDialog::Accepted;
}

void SignInFlow::attach(Ui::MainWindow *window)
{
    m_window = window;
    connect(window, &Ui::MainWindow::signInRequested, this, &SignInFlow::askToSignIn);
    connect(window, &Ui::MainWindow::signOutRequested, this, &SignInFlow::signOut);
    onStateChanged(); // it may have failed before the window was there
}

void SignInFlow::onStateChanged()
{
    // A failure retrying cannot fix: the dialog says why and takes the correction.
    if (m_window && m_session->state() == GatewaySession::State::Failed && !m_dialog)
        askToSignIn();
}

void SignInFlow::askToSignIn()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    auto *dialog = new SignInDialog(m_session, m_settings, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog = dialog;
    // The address tried last (from --server, say), not only the one remembered.
    if (!m_session->url().isEmpty())
        dialog->setGatewayUrl(m_session->url());
    dialog->explainFailure();
    dialog->open();
}

void SignInFlow::signOut()
{
    m_settings->setToken({}, false);
    m_session->close();
    // Nothing of that account stays on screen.
    if (m_window)
        m_window->chatPane()->setFriend({});
    m_friends->setFriends({});
    askToSignIn();
}

} // namespace Presence::App
