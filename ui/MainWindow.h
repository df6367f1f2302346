#pragma once

#include <QMainWindow>
#include <QTimer>

class QLabel;
class QSplitter;

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class GatewaySession;
}

namespace Presence::Ui {

class FriendListPane;
class SessionHeader;

// The window people keep open: the header, the friend list on the left, the chat on the
// right, and a status bar that shows how few friends are actually watched.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(Session::GatewaySession *session, Models::FriendListModel *model,
        QWidget *parent = nullptr);

    [[nodiscard]] FriendListPane *friendList() const { return m_friends; }
    [[nodiscard]] SessionHeader *header() const { return m_header; }
    [[nodiscard]] QSplitter *splitter() const { return m_splitter; }
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    void chatRequested(const QString &friendId);

private:
    void scheduleStatusUpdate();
    void updateStatus();

    Session::GatewaySession *m_session;
    Models::FriendListModel *m_model;
    SessionHeader *m_header;
    FriendListPane *m_friends;
    QSplitter *m_splitter;
    QLabel *m_status;
    QTimer m_statusTimer;
};

} // namespace Presence::Ui
