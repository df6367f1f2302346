#pragma once

// Qt
#include <QObject>

namespace Presence::Models {
class FriendListModel;
}

namespace Presence::Session {
class GatewaySession;
}

namespace Presence::App {

// Feeds a friend-list model from a gateway session: the friend list, presence that is
// newer than what the model holds, staleness when a friend is no longer watched, and
// "unknown" for everyone while there is no live connection.
class SessionModelBridge : public QObject {
    Q_OBJECT
public:
    SessionModelBridge(Session::GatewaySession *session, Models::FriendListModel *model,
        QObject *parent = nullptr);
};

} // namespace Presence::App
