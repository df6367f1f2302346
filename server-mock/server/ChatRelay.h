#pragma once

// C++
#include <optional>

// Qt
#include <QObject>

// Presence
#include "protocol/ClientMessages.h"
#include "protocol/ServerMessages.h"
#include "server-mock/chat/ChatStore.h"

namespace Presence::Server {

class ClientConnection;
class ConnectionRegistry;
class GatewayMetrics;
class UserDirectory;

// 1:1 chat on this gateway: stores what friends write to each other in the ChatStore (memory
// or Redis), answers history, conversations and read requests, and delivers messages and read
// markers to every connection here of the users concerned, whatever gateway they came through.
class ChatRelay : public QObject {
    Q_OBJECT
public:
    // Takes ownership of the store; the others must outlive the relay.
    ChatRelay(const UserDirectory &directory, ChatStore *chats,
        const ConnectionRegistry &connections, GatewayMetrics &metrics, QObject *parent = nullptr);

    [[nodiscard]] ChatStore *store() const { return m_chats; }

    void sendMessage(ClientConnection *connection, const Protocol::SendMessageRequest &request,
        const std::optional<QString> &ref);
    void history(ClientConnection *connection, const Protocol::HistoryRequest &request,
        const std::optional<QString> &ref);
    void conversations(ClientConnection *connection, const Protocol::ConversationsRequest &request,
        const std::optional<QString> &ref);
    void read(ClientConnection *connection, const Protocol::ReadRequest &request,
        const std::optional<QString> &ref);

private:
    void onMessageArrived(const QString &userId, const Protocol::ChatMessage &message);
    // Tells every connection of userId here that their read marker moved.
    void onReadMarkerMoved(const QString &userId, const Protocol::ReadMarkerEvent &marker);
    // Writes one event to every connection of userId here, counted in frames_out as `type`.
    void sendToDevices(const QString &userId, const QString &type, const QJsonObject &event);
    // Pushes a message to every connection here of its two users, except `except` (the sender's
    // connection, which gets an ok instead).
    void deliver(const Protocol::ChatMessage &message, const ClientConnection *except);
    // The one loop over a user's devices: writes frame to each but `except`; returns how many.
    quint64 writeToDevices(
        const QString &userId, const QByteArray &frame, const ClientConnection *except = nullptr);

    const UserDirectory &m_directory;
    ChatStore *m_chats;
    const ConnectionRegistry &m_connections;
    GatewayMetrics &m_metrics;
};

} // namespace Presence::Server
