#include "server-mock/server/ChatRelay.h"

// Presence
#include "protocol/Frame.h"
#include "server-mock/directory/UserDirectory.h"
#include "server-mock/server/ClientConnection.h"
#include "server-mock/server/ConnectionRegistry.h"
#include "server-mock/server/GatewayMetrics.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using namespace Protocol;

ChatRelay::ChatRelay(const UserDirectory &directory, ChatStore *chats,
    const ConnectionRegistry &connections, GatewayMetrics &metrics, QObject *parent)
    : QObject(parent)
    , m_directory(directory)
    , m_chats(chats)
    , m_connections(connections)
    , m_metrics(metrics)
{
    m_chats->setParent(this);
    connect(m_chats, &ChatStore::messageArrived, this, &ChatRelay::onMessageArrived);
    connect(m_chats, &ChatStore::readMarkerMoved, this, &ChatRelay::onReadMarkerMoved);
    // The store follows a user's chats while they have a connection here.
    connect(&m_connections, &ConnectionRegistry::userArrived, m_chats, &ChatStore::userArrived);
    connect(&m_connections, &ConnectionRegistry::userLeft, m_chats, &ChatStore::userLeft);
}

void ChatRelay::sendMessage(ClientConnection *connection, const SendMessageRequest &request,
    const std::optional<QString> &ref)
{
    // Unknown ids and strangers look alike, as in subscribe.
    if (!m_directory.areFriends(connection->userId(), request.to)) {
        connection->sendError(
            { ErrorCode::Forbidden, u"message: you can only write to your friends"_s, ref });
        return;
    }
    const QString text = request.text.trimmed();
    if (text.isEmpty() || text.size() > kMaxMessageTextLength) { // the decoder refuses these too
        connection->sendError({ ErrorCode::BadRequest,
            u"message: field 'text' must be 1 to %1 characters long after trimming"_s.arg(
                kMaxMessageTextLength),
            ref });
        return;
    }
    // The store may answer after the sender has gone: looked up again then.
    const ConnectionId senderId = connection->id();
    m_chats->storeMessage(connection->userId(), request.to, text, this,
        [this, senderId, ref](const std::optional<ChatMessage> &message) {
            ClientConnection *sender = m_connections.find(senderId);
            if (!message) {
                if (sender) {
                    sender->sendError({ ErrorCode::Unavailable,
                        u"message: the gateway cannot store messages right now; it was not "
                        "sent, try again later"_s,
                        ref });
                }
                return;
            }
            if (sender)
                sender->send(toJson(Ok { message->id, message->ts }), ref);
            deliver(*message, sender);
        });
}

void ChatRelay::deliver(const ChatMessage &message, const ClientConnection *except)
{
    // Every device of both users here, whatever their status.
    const QByteArray frame = serializeFrame(toJson(MessageEvent { message }));
    m_metrics.chatMessageStored();
    m_metrics.frameOut(u"message"_s,
        writeToDevices(message.to, frame, except) + writeToDevices(message.from, frame, except));
}

void ChatRelay::onMessageArrived(const QString &userId, const ChatMessage &message)
{
    sendToDevices(userId, u"message"_s, toJson(MessageEvent { message }));
}

void ChatRelay::sendToDevices(const QString &userId, const QString &type, const QJsonObject &event)
{
    // Serialised once for every device of the user here.
    m_metrics.frameOut(type, writeToDevices(userId, serializeFrame(event)));
}

quint64 ChatRelay::writeToDevices(
    const QString &userId, const QByteArray &frame, const ClientConnection *except)
{
    quint64 written = 0;
    for (ClientConnection *device : m_connections.devicesOf(userId)) {
        if (device != except) {
            device->sendSerialized(frame);
            ++written;
        }
    }
    return written;
}

void ChatRelay::history(
    ClientConnection *connection, const HistoryRequest &request, const std::optional<QString> &ref)
{
    if (!m_directory.areFriends(connection->userId(), request.with)) {
        connection->sendError({ ErrorCode::Forbidden,
            u"history: you can only read conversations with your friends"_s, ref });
        return;
    }
    m_chats->readPage(connection->userId(), request.with, request.before, request.limit, this,
        [this, id = connection->id(), with = request.with, ref](const auto &result) {
            ClientConnection *asker = m_connections.find(id);
            if (!asker) // gone while the store read
                return;
            if (const auto *page = std::get_if<ChatStore::Page>(&result)) {
                asker->send(toJson(HistoryPage { with, page->messages, page->more }), ref);
            } else if (std::get<ChatStore::Failure>(result) == ChatStore::Failure::NotHeld) {
                asker->sendError({ ErrorCode::BadRequest,
                    u"history: 'before' is not a message of this conversation held by the "
                    "gateway"_s,
                    ref });
            } else {
                asker->sendError({ ErrorCode::Unavailable,
                    u"history: the gateway cannot read conversations right now; try again "
                    "later"_s,
                    ref });
            }
        });
}

void ChatRelay::conversations(ClientConnection *connection, const ConversationsRequest &request,
    const std::optional<QString> &ref)
{
    // Only conversations with friends: one kept from an earlier users file names nobody.
    const auto isFriendOfMine = [this, me = connection->userId()](const QString &otherId) {
        return m_directory.areFriends(me, otherId);
    };
    m_chats->readSummaries(connection->userId(), request.limit, isFriendOfMine, this,
        [this, id = connection->id(), ref](
            const std::variant<ChatStore::Summaries, ChatStore::Failure> &result) {
            ClientConnection *asker = m_connections.find(id);
            if (!asker) // gone while the store read
                return;
            if (const auto *summaries = std::get_if<ChatStore::Summaries>(&result)) {
                asker->send(toJson(ConversationsPage { summaries->items, summaries->more }), ref);
                return;
            }
            asker->sendError({ ErrorCode::Unavailable,
                u"conversations: the gateway cannot read conversations right now; try again "
                "later"_s,
                ref });
        });
}

void ChatRelay::read(
    ClientConnection *connection, const ReadRequest &request, const std::optional<QString> &ref)
{
    // As for message and history: unknown ids, strangers and oneself look alike.
    if (!m_directory.areFriends(connection->userId(), request.with)) {
        connection->sendError({ ErrorCode::Forbidden,
            u"read: you can only mark conversations with your friends as read"_s, ref });
        return;
    }
    m_chats->markRead(connection->userId(), request.with, request.upTo, this,
        [this, id = connection->id(), ref](const std::optional<ChatStore::Failure> &failure) {
            ClientConnection *asker = m_connections.find(id);
            if (!asker) // gone while the store wrote
                return;
            if (!failure) {
                asker->send(toJson(Ok {}), ref);
            } else if (*failure == ChatStore::Failure::NotHeld) {
                asker->sendError({ ErrorCode::BadRequest,
                    u"read: unknown message: 'up_to' is not a message of this conversation held "
                    "by the gateway"_s,
                    ref });
            } else {
                asker->sendError({ ErrorCode::Unavailable,
                    u"read: the gateway cannot store read markers right now; try again later"_s,
                    ref });
            }
        });
}

void ChatRelay::onReadMarkerMoved(const QString &userId, const ReadMarkerEvent &marker)
{
    // Every device of the user, the one that sent the read included; never the friend.
    sendToDevices(userId, u"read_marker"_s, toJson(marker));
}

} // namespace Presence::Server
