#pragma once

// Qt
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

// Presence
#include "app/SignInDialog.h"
#include "ui/shell/MainWindow.h"

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class GatewaySession;
}
namespace Presence::App {

class ClientSettings;

// Who the client is signed in as, from launch to Sign out. At launch: the address and token
// of the command line (demos, QA), else the address and token remembered, else the sign-in
// dialog. Later the dialog comes back whenever signing in again is the only way on: the
// gateway refused the token (a remembered one may have been revoked) or is no gateway at all,
// the user chose Switch account, or signed out (which forgets the remembered token and what
// the list showed).
class SignInFlow : public QObject {
    Q_OBJECT
public:
    SignInFlow(Session::GatewaySession *session, ClientSettings *settings,
        Models::FriendListModel *friends, QObject *parent = nullptr);

    // Signs in at launch; false when the user closed the sign-in dialog instead.
    [[nodiscard]] bool start(const QUrl &server, const QString &token);
    // From now on the dialog opens over this window, when needed.
    void attach(Ui::MainWindow *window);

    // Shows the sign-in dialog over the window (not blocking); the session keeps running
    // meanwhile, and Cancel leaves it as it was.
    void askToSignIn();
    void signOut();
    // The dialog shown over the window now, if any (tests).
    [[nodiscard]] SignInDialog *dialog() const { return m_dialog; }

private:
    void onStateChanged();

    Session::GatewaySession *m_session;
    ClientSettings *m_settings;
    Models::FriendListModel *m_friends;
    QPointer<Ui::MainWindow> m_window;
    QPointer<SignInDialog> m_dialog;
};

} // namespace Presence::App
