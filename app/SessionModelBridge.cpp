#include "app/SessionModelBridge.h"

// Presence
#include "models/FriendListModel.h"
#include "session/GatewaySession.h"

namespace Presence::App {

using Models::FriendListModel;
using Models::FriendRecord;
using Models::PresenceState;
using Protocol::PresenceStatus;
using Session::GatewaySession;

SessionModelBridge::SessionModelBridge(
    GatewaySession *session, FriendListModel *model, QObject *parent)
    : QObject(parent)
{
    connect(session, &GatewaySession::friendsLoaded, model,
        [model](const QList<Protocol::UserInfo> &friends) {
            QList<FriendRecord> records;
            records.reserve(friends.size());
            for (const Protocol::UserInfo &user : friends)
                records.append({ user.id, user.name });
            model->setFriends(records);
        });
    connect(session, &GatewaySession::presenceReceived, model,
        [model](const QList<Protocol::UserPresence> &presence) {
            for (const Protocol::UserPresence &p : presence)
                model->updatePresence(p.id, shownState(p.status), p.lastSeen);
        });
    connect(session, &GatewaySession::availabilityReceived, model,
        [model](const QHash<QString, PresenceStatus> &availability, bool complete) {
            QHash<QString, PresenceState> states;
            states.reserve(availability.size());
            for (auto it = availability.cbegin(); it != availability.cend(); ++it)
                states.insert(it.key(), shownState(it.value()));
            model->updateAvailability(states, complete);
        });
    connect(session, &GatewaySession::presenceStale, model, &FriendListModel::markStale);
    connect(session, &GatewaySession::presenceLost, model, &FriendListModel::markAllUnknown);
}

PresenceState SessionModelBridge::shownState(PresenceStatus status)
{
    switch (status) {
    case PresenceStatus::Online:
        return PresenceState::Online;
    case PresenceStatus::Away:
        return PresenceState::Away;
    case PresenceStatus::Offline:
        return PresenceState::Offline;
    }
    return PresenceState::Unknown;
}

} // namespace Presence::App
