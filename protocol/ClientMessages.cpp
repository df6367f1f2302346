#include "protocol/ClientMessages.h"

// C++
#include <limits>
#include <utility>

// Qt
#include <QJsonArray>

// Presence
#include "protocol/FieldReader.h"
#include "protocol/Identifiers.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

namespace {

constexpr qint64 kMaxInt = std::numeric_limits<int>::max();

QJsonObject typed(QLatin1StringView type)
{
    return QJsonObject { { "type"_L1, type } };
}

Decoded<ClientMessage> decodeHello(FieldReader &in)
{
    Hello hello;
    hello.token = in.string("token"_L1, 1, kMaxTokenLength, Need::Required);
    hello.protocol = int(in.integer("protocol"_L1, 0, kMaxInt, Need::Required).value_or(0));
    hello.client = in.string("client"_L1, 0, kMaxClientNameLength, Need::Optional);
    hello.status = in.name("status"_L1, kChosenStatusNames, Need::Optional);
    if (in.has("presence_batch_ms"_L1))
        hello.presenceBatchMs = int(in.integer("presence_batch_ms"_L1, kMinPresenceBatchMs,
                                          kMaxPresenceBatchMs, Need::Required)
                                        .value_or(0));
    return in.decoded<ClientMessage>(hello);
}

Decoded<ClientMessage> decodeRefresh(FieldReader &in)
{
    RefreshRequest request;
    request.token = in.string("token"_L1, 1, kMaxTokenLength, Need::Required);
    return in.decoded<ClientMessage>(request);
}

Decoded<ClientMessage> decodeFriends(FieldReader &in)
{
    FriendsRequest request;
    request.offset = int(in.integer("offset"_L1, 0, kMaxInt, Need::Optional).value_or(0));
    request.limit = int(
        in.integer("limit"_L1, 1, kMaxFriendsLimit, Need::Optional).value_or(kDefaultFriendsLimit));
    return in.decoded<ClientMessage>(request);
}

template <typename Request> Decoded<ClientMessage> decodeIds(FieldReader &in)
{
    Request request;
    request.ids = in.ids("ids"_L1, Need::Required);
    return in.decoded<ClientMessage>(request);
}

Decoded<ClientMessage> decodeSetStatus(FieldReader &in)
{
    const auto status = in.name("status"_L1, kChosenStatusNames, Need::Required);
    return in.decoded<ClientMessage>(SetStatusRequest { status.value_or(ChosenStatus::Online) });
}

Decoded<ClientMessage> decodeSendMessage(FieldReader &in)
{
    SendMessageRequest request;
    request.to = in.id("to"_L1, Need::Required);
    request.text = in.string("text"_L1, 1, kMaxMessageTextLength, Need::Required);
    if (!in.failed() && request.text.trimmed().isEmpty())
        in.fail(u"field 'text' must not be blank"_s);
    return in.decoded<ClientMessage>(request);
}

Decoded<ClientMessage> decodeHistory(FieldReader &in)
{
    HistoryRequest request;
    request.with = in.id("with"_L1, Need::Required);
    if (in.has("before"_L1))
        request.before = in.id("before"_L1, Need::Required);
    request.limit = int(
        in.integer("limit"_L1, 1, kMaxHistoryLimit, Need::Optional).value_or(kDefaultHistoryLimit));
    return in.decoded<ClientMessage>(request);
}

Decoded<ClientMessage> decodeConversations(FieldReader &in)
{
    ConversationsRequest request;
    request.limit = int(in.integer("limit"_L1, 1, kMaxConversationsLimit, Need::Optional)
                            .value_or(kDefaultConversationsLimit));
    return in.decoded<ClientMessage>(request);
}

Decoded<ClientMessage> decodeRead(FieldReader &in)
{
    ReadRequest request;
    request.with = in.id("with"_L1, Need::Required);
    request.upTo = in.id("up_to"_L1, u"a message id", Need::Required);
    return in.decoded<ClientMessage>(request);
}

QJsonArray toArray(const QStringList &ids)
{
    return QJsonArray::fromStringList(ids);
}

} // namespace

QJsonObject toJson(const Hello &message)
{
    QJsonObject object = typed("hello"_L1);
    object.insert("token"_L1, message.token);
    object.insert("protocol"_L1, message.protocol);
    object.insert("client"_L1, message.client);
    if (message.status)
        object.insert("status"_L1, toString(*message.status));
    if (message.presenceBatchMs)
        object.insert("presence_batch_ms"_L1, *message.presenceBatchMs);
    return object;
}

QJsonObject toJson(const FriendsRequest &message)
{
    QJsonObject object = typed("friends"_L1);
    object.insert("offset"_L1, message.offset);
    object.insert("limit"_L1, message.limit);
    return object;
}

QJsonObject toJson(const SubscribeRequest &message)
{
    QJsonObject object = typed("subscribe"_L1);
    object.insert("ids"_L1, toArray(message.ids));
    return object;
}

QJsonObject toJson(const UnsubscribeRequest &message)
{
    QJsonObject object = typed("unsubscribe"_L1);
    object.insert("ids"_L1, toArray(message.ids));
    return object;
}

QJsonObject toJson(const SetStatusRequest &message)
{
    QJsonObject object = typed("set_status"_L1);
    object.insert("status"_L1, toString(message.status));
    return object;
}

QJsonObject toJson(const SendMessageRequest &message)
{
    QJsonObject object = typed("message"_L1);
    object.insert("to"_L1, message.to);
    object.insert("text"_L1, message.text);
    return object;
}

QJsonObject toJson(const HistoryRequest &message)
{
    QJsonObject object = typed("history"_L1);
    object.insert("with"_L1, message.with);
    if (message.before)
        object.insert("before"_L1, *message.before);
    object.insert("limit"_L1, message.limit);
    return object;
}

QJsonObject toJson(const ConversationsRequest &message)
{
    QJsonObject object = typed("conversations"_L1);
    object.insert("limit"_L1, message.limit);
    return object;
}

QJsonObject toJson(const ReadRequest &message)
{
    QJsonObject object = typed("read"_L1);
    object.insert("with"_L1, message.with);
    object.insert("up_to"_L1, message.upTo);
    return object;
}

QJsonObject toJson(const PingRequest &)
{
    return typed("ping"_L1);
}

QJsonObject toJson(const WatchAvailabilityRequest &)
{
    return typed("watch_availability"_L1);
}

QJsonObject toJson(const UnwatchAvailabilityRequest &)
{
    return typed("unwatch_availability"_L1);
}

QJsonObject toJson(const RefreshRequest &message)
{
    QJsonObject object = typed("refresh"_L1);
    object.insert("token"_L1, message.token);
    return object;
}

QJsonObject toJson(const ClientMessage &message)
{
    return std::visit([](const auto &m) { return toJson(m); }, message);
}

bool isChatRequest(const ClientMessage &message)
{
    return std::holds_alternative<SendMessageRequest>(message)
        || std::holds_alternative<HistoryRequest>(message)
        || std::holds_alternative<ConversationsRequest>(message)
        || std::holds_alternative<ReadRequest>(message);
}

ProtocolError unknownTypeError(QStringView type, std::optional<QString> ref)
{
    return { ErrorCode::UnknownType, u"unknown message type '%1'"_s.arg(type.left(64)),
        std::move(ref) };
}

Decoded<ClientMessage> decodeClientMessage(const Envelope &envelope)
{
    FieldReader in(envelope.body, envelope.type);
    auto decoded = [&]() -> Decoded<ClientMessage> {
        if (envelope.type == u"hello")
            return decodeHello(in);
        if (envelope.type == u"friends")
            return decodeFriends(in);
        if (envelope.type == u"subscribe")
            return decodeIds<SubscribeRequest>(in);
        if (envelope.type == u"unsubscribe")
            return decodeIds<UnsubscribeRequest>(in);
        if (envelope.type == u"set_status")
            return decodeSetStatus(in);
        if (envelope.type == u"message")
            return decodeSendMessage(in);
        if (envelope.type == u"history")
            return decodeHistory(in);
        if (envelope.type == u"conversations")
            return decodeConversations(in);
        if (envelope.type == u"read")
            return decodeRead(in);
        if (envelope.type == u"ping")
            return ClientMessage(PingRequest {});
        if (envelope.type == u"watch_availability")
            return ClientMessage(WatchAvailabilityRequest {});
        if (envelope.type == u"unwatch_availability")
            return ClientMessage(UnwatchAvailabilityRequest {});
        if (envelope.type == u"refresh")
            return decodeRefresh(in);
        return unknownTypeError(envelope.type);
    }();
    return withRef(std::move(decoded), envelope.ref);
}

Decoded<ClientMessage> decodeClientFrame(const QByteArray &utf8)
{
    const Decoded<Envelope> envelope = parseFrame(utf8);
    if (!envelope.ok())
        return envelope.error();
    return decodeClientMessage(envelope.value());
}

} // namespace Presence::Protocol
