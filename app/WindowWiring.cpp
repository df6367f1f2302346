#include "app/WindowWiring.h"

// Qt
#include <QAction>

// Presence
#include "app/DesktopNotifications.h"
#include "app/MessageNotifier.h"
#include "session/ChatController.h"
#include "ui/friends/FriendListPane.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/SessionHeader.h"

namespace Presence::App {

using Session::GatewaySession;
using Ui::ConnectionState;

WindowWiring::WindowWiring(GatewaySession *session, Session::ChatController *chat,
    Models::FriendListModel *friends, Ui::MainWindow *window, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_window(window)
    , m_notifications(new DesktopNotifications(window))
    , m_messageNotifier(new MessageNotifier(chat, friends, m_notifications, window))
{
    // The header: what the session is, and what the user asks of it.
    Ui::SessionHeader *header = window->header();
    connect(session, &GatewaySession::stateChanged, this, &WindowWiring::showConnection);
    connect(session, &GatewaySession::retryScheduled, header,
        [header](int, std::chrono::milliseconds delay) { header->setRetryIn(delay); });
    connect(session, &GatewaySession::signedIn, header,
        [header](const Protocol::UserInfo &self) { header->setSelf(self.id, self.name); });
    connect(
        session, &GatewaySession::chosenStatusChanged, header, &Ui::SessionHeader::setChosenStatus);
    connect(header, &Ui::SessionHeader::statusChosen, session, &GatewaySession::setChosenStatus);
    connect(header, &Ui::SessionHeader::retryClicked, session, &GatewaySession::retryNow);
    header->setSelf(session->self().id, session->self().name);
    header->setChosenStatus(session->chosenStatus());

    // The friend list: the rows on screen are the ones watched, up to the gateway's cap.
    Ui::FriendListPane *list = window->friendList();
    connect(list, &Ui::FriendListPane::wantedChanged, session, &GatewaySession::setWanted);
    connect(session, &GatewaySession::signedIn, list,
        [list, session] { list->setMaxSubscriptions(session->limits().maxSubscriptions); });

    // The status bar's counts.
    connect(session, &GatewaySession::subscriptionsChanged, window,
        [window, session] { window->setWatchedCount(int(session->subscribed().size())); });
    showConnection();

    // Notifications of new messages, while their chat is not in front.
    connect(window->messageNotifyAction(), &QAction::toggled, m_messageNotifier,
        &MessageNotifier::setEnabled);
    connect(window, &Ui::MainWindow::frontChatChanged, m_messageNotifier,
        &MessageNotifier::setFrontChat);
    m_messageNotifier->setFrontChat(window->frontChat());
    connect(window, &Ui::MainWindow::settingsMenuOpened, this,
        &WindowWiring::updateNotificationAvailability);
    updateNotificationAvailability();
}

void WindowWiring::updateNotificationAvailability()
{
    m_window->setNotificationsAvailable(
        m_notifications->canNotify(), DesktopNotifications::unavailableText());
}

void WindowWiring::showConnection()
{
    const auto state = m_session->state();
    m_window->header()->setConnection(
        connectionState(state), m_session->retryAttempt(), m_session->errorString());
    // Signed out, or refused: nobody is signed in any more (reconnecting, the user still is).
    if (state == GatewaySession::State::Disconnected || state == GatewaySession::State::Failed)
        m_window->header()->setSelf({}, {});
    m_window->setConnection(connectionState(state));
    m_window->setWatchedCount(int(m_session->subscribed().size()));
}

ConnectionState WindowWiring::connectionState(GatewaySession::State state)
{
    switch (state) {
    case GatewaySession::State::Disconnected:
        return ConnectionState::Disconnected;
    case GatewaySession::State::Connecting:
        return ConnectionState::Connecting;
    case GatewaySession::State::Authenticating:
        return ConnectionState::Authenticating;
    case GatewaySession::State::Online:
        return ConnectionState::Online;
    case GatewaySession::State::Reconnecting:
        return ConnectionState::Reconnecting;
    case GatewaySession::State::Failed:
        return ConnectionState::Failed;
    }
    return ConnectionState::Disconnected;
}

} // namespace Presence::App
