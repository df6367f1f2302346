#include "session/ChatController.h"

#include "models/ChatModel.h"
#include "models/FriendListModel.h"
#include "protocol/ClientMessages.h"
#include "session/Logging.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Presence::Session {

using Models::ChatMessageRecord;
using Models::ChatModel;
using Models::Delivery;

namespace {

ChatMessageRecord toRecord(const Protocol::ChatMessage &message)
{
    ChatMessageRecord record;
    record.id = message.id;
    record.from = message.from;
    record.text = message.text;
    record.ts = message.ts;
    return record;
}

} // namespace

ChatController::ChatController(
    GatewaySession *session, Models::FriendListModel *friends, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_friends(friends)
{
    connect(session, &GatewaySession::signedIn, this, &ChatController::onSignedIn);
    connect(session, &GatewaySession::stateChanged, this, &ChatController::onStateChanged);
    connect(session, &GatewaySession::chatMessageReceived, this, &ChatController::onMessage);
    connect(
        session, &GatewaySession::chatMessageAcknowledged, this, &ChatController::onAcknowledged);
    connect(session, &GatewaySession::historyReceived, this, &ChatController::onHistory);
    connect(session, &GatewaySession::requestRefused, this, &ChatController::onRefused);
    if (session->state() == GatewaySession::State::Online)
        m_selfId = session->self().id;
    m_wasOnline = isOnline();
}

ChatController::~ChatController() = default;

ChatModel *ChatController::conversation(const QString &friendId)
{
    auto it = m_conversations.find(friendId);
    if (it == m_conversations.end())
        it = m_conversations.insert(friendId, new ChatModel(m_selfId, friendId, this));
    return *it;
}

bool ChatController::hasConversation(const QString &friendId) const
{
    return m_conversations.contains(friendId);
}

void ChatController::setActiveConversation(const QString &friendId)
{
    m_active = friendId;
    if (friendId.isEmpty())
        return;
    if (m_friends)
        m_friends->setUnreadCount(friendId, 0);
    if (conversation(friendId)->historyState() == ChatModel::HistoryState::NotLoaded)
        requestLatest(friendId, false);
}

void ChatController::loadOlder(const QString &friendId)
{
    ChatModel *model = m_conversations.value(friendId);
    if (!model || !model->hasOlder() || model->oldestId().isEmpty()
        || model->historyState() != ChatModel::HistoryState::Loaded)
        return;
    const QString ref = m_session->requestHistory(friendId, model->oldestId(), kHistoryPageSize);
    if (ref.isEmpty())
        return;
    m_histories.insert(ref, { friendId, true, false });
    model->setHistoryState(ChatModel::HistoryState::Loading);
}

std::optional<QString> ChatController::checkText(const QString &text)
{
    if (text.trimmed().isEmpty())
        return tr("Type a message first.");
    if (text.size() > Protocol::kMaxMessageTextLength) {
        const qsizetype over = text.size() - Protocol::kMaxMessageTextLength;
        // Plain English plurals: the project ships no translations (a %n form needs them).
        if (over == 1)
            return tr("The message is 1 character too long (at most %1).")
                .arg(Protocol::kMaxMessageTextLength);
        return tr("The message is %1 characters too long (at most %2).")
            .arg(over)
            .arg(Protocol::kMaxMessageTextLength);
    }
    return std::nullopt;
}

std::optional<QString> ChatController::send(const QString &friendId, const QString &text)
{
    if (auto problem = checkText(text))
        return problem;
    const QString key = u"k"_s + QString::number(++m_keyCounter);
    conversation(friendId)->appendOwn(
        key, text, QDateTime::currentMSecsSinceEpoch(), Delivery::Queued);
    flush(friendId);
    return std::nullopt;
}

void ChatController::resend(const QString &friendId, int row)
{
    ChatModel *model = m_conversations.value(friendId);
    if (!model || row < 0 || row >= model->rowCount()
        || model->at(row).delivery != Delivery::Failed)
        return;
    if (const auto text = model->takeUndelivered(row))
        send(friendId, *text);
}

void ChatController::discard(const QString &friendId, int row)
{
    ChatModel *model = m_conversations.value(friendId);
    if (model && row >= 0 && row < model->rowCount() && model->at(row).delivery == Delivery::Failed)
        (void)model->takeUndelivered(row);
}

void ChatController::onSignedIn(const Protocol::UserInfo &self)
{
    if (!m_selfId.isEmpty() && self.id != m_selfId)
        clearConversations(); // another user: nothing held is theirs
    m_selfId = self.id;
    for (auto it = m_conversations.cbegin(); it != m_conversations.cend(); ++it) {
        ChatModel *model = *it;
        const bool read
            = model->historyState() != ChatModel::HistoryState::NotLoaded || model->rowCount() > 0;
        if (it.key() == m_active || read)
            requestLatest(it.key(), true);
        flush(it.key());
    }
}

void ChatController::onStateChanged(GatewaySession::State state)
{
    const bool online = state == GatewaySession::State::Online;
    if (m_wasOnline && !online) {
        // Answers to what was asked on that connection will never come.
        m_sends.clear();
        m_histories.clear();
        for (ChatModel *model : std::as_const(m_conversations)) {
            model->markSendingUnconfirmed();
            if (model->historyState() == ChatModel::HistoryState::Loading)
                model->setHistoryState(ChatModel::HistoryState::NotLoaded);
        }
    }
    m_wasOnline = online;
}

void ChatController::onMessage(const Protocol::ChatMessage &message)
{
    if (m_selfId.isEmpty())
        return;
    const bool outgoing = message.from == m_selfId;
    const QString friendId = outgoing ? message.to : message.from;
    if (!conversation(friendId)->appendDelivered(toRecord(message)) || outgoing)
        return;
    if (friendId != m_active)
        addUnread(friendId, 1);
    Q_EMIT messageReceived(friendId, toRecord(message));
}

void ChatController::onAcknowledged(const QString &ref, const QString &id, qint64 ts)
{
    const auto pending = m_sends.take(ref);
    if (ChatModel *model = m_conversations.value(pending.friendId))
        model->acknowledge(pending.key, id, ts);
}

void ChatController::onHistory(const QString &ref, const Protocol::HistoryPage &page)
{
    const auto it = m_histories.constFind(ref);
    if (it == m_histories.constEnd())
        return;
    const PendingHistory asked = *it;
    m_histories.erase(it);
    ChatModel *model = m_conversations.value(asked.friendId);
    if (!model)
        return;
    QList<ChatMessageRecord> records;
    records.reserve(page.messages.size());
    int newIncoming = 0;
    for (const Protocol::ChatMessage &message : page.messages) {
        if (message.from != m_selfId && !model->contains(message.id))
            ++newIncoming;
        records.append(toRecord(message));
    }
    model->mergeHistory(records, asked.older, page.more);
    model->setHistoryState(ChatModel::HistoryState::Loaded);
    if (asked.catchUp && asked.friendId != m_active)
        addUnread(asked.friendId, newIncoming);
    flush(asked.friendId);
}

void ChatController::onRefused(const QString &ref, const QString &code, const QString &message)
{
    if (const auto send = m_sends.take(ref); !send.key.isEmpty()) {
        const QString reason = code == Protocol::toString(Protocol::ErrorCode::Forbidden)
            ? tr("Not delivered: only friends can message each other.")
            : tr("Not delivered: %1").arg(message);
        if (ChatModel *model = m_conversations.value(send.friendId))
            model->fail(send.key, reason);
        return;
    }
    const auto history = m_histories.take(ref);
    ChatModel *model = m_conversations.value(history.friendId);
    if (!model)
        return;
    qCWarning(lcSession) << "history refused:" << code << message;
    // Whatever the page was to settle is sent again rather than left waiting.
    if (!history.older)
        model->settleUnconfirmed({});
    model->setHistoryState(ChatModel::HistoryState::Loaded);
    flush(history.friendId);
}

void ChatController::requestLatest(const QString &friendId, bool catchUp)
{
    const QString ref = m_session->requestHistory(friendId, {}, kHistoryPageSize);
    if (ref.isEmpty())
        return; // not online: loads when signed in
    m_histories.insert(ref, { friendId, false, catchUp });
    conversation(friendId)->setHistoryState(ChatModel::HistoryState::Loading);
}

void ChatController::flush(const QString &friendId)
{
    ChatModel *model = m_conversations.value(friendId);
    // Unconfirmed ones wait for the latest page; what was typed after them waits behind.
    if (!model || !isOnline() || model->hasDelivery(Delivery::Unconfirmed))
        return;
    for (const QString &key : model->queuedKeys()) {
        const auto row = model->rowOfKey(key);
        const QString ref = m_session->sendChatMessage(friendId, model->at(*row).text);
        if (ref.isEmpty())
            return;
        m_sends.insert(ref, { friendId, key });
        model->setSending(key);
    }
}

void ChatController::addUnread(const QString &friendId, int count)
{
    if (count <= 0)
        return;
    // The friend list holds the counts (and keeps them across friend-list reloads).
    if (m_friends)
        m_friends->setUnreadCount(friendId, m_friends->unreadCount(friendId) + count);
}

void ChatController::clearConversations()
{
    Q_EMIT conversationsCleared();
    qDeleteAll(m_conversations);
    m_conversations.clear();
    m_sends.clear();
    m_histories.clear();
    if (m_friends) {
        // Nothing the previous user had unread is this user's.
        for (int row = 0; row < m_friends->rowCount(); ++row) {
            m_friends->setUnreadCount(
                m_friends->index(row).data(Models::FriendListModel::IdRole).toString(), 0);
        }
    }
    m_active.clear();
}

bool ChatController::isOnline() const
{
    return m_session->state() == GatewaySession::State::Online;
}

} // namespace Presence::Session
