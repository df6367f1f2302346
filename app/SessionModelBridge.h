#pragma once

// Qt
#include <QObject>

// Presence
#include "models/PresenceState.h"
#include "protocol/PresenceStatus.h"

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

    // How the list shows a status the gateway pushed.
    [[nodiscard]] static Models::PresenceState shownState(Protocol::PresenceStatus status);
};

} // namespace Presence::App
