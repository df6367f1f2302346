#include "session/ChatController.h"

// C++
#include <algorithm>
#include <utility>

// Qt
#include <QDateTime>

// Presence
#include "models/ChatModel.h"
#include "models/ConversationListModel.h"
#include "models/FriendListModel.h"
#include "protocol/ClientMessages.h"
#include "session/Logging.h"

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
    , m_list(new Models::ConversationListModel(friends, this))
{
    connect(session, &GatewaySession::signedIn, this, &ChatController::onSignedIn);
    connect(session, &GatewaySession::stateChanged, this, &ChatController::onStateChanged);
    connect(session, &GatewaySession::chatMessageReceived, this, &ChatController::onMessage);
    connect(session, &GatewaySession::okReceived, this, &ChatController::onOk);
    connect(session, &GatewaySession::historyReceived, this, &ChatController::onHistory);
    connect(session, &GatewaySession::requestRefused, this, &ChatController::onRefused);
    connect(
        session, &GatewaySession::conversationsReceived, this, &ChatController::onConversations);
    connect(session, &GatewaySession::readMarkerReceived, this, &ChatController::onReadMarker);
    if (friends) {
        // A reloaded friend list shows the counts held here.
        connect(
            friends, &QAbstractItemModel::modelReset, this, &ChatController::applyUnreadToFriends);
        connect(friends, &QAbstractItemModel::rowsInserted, this,
            &ChatController::applyUnreadToFriends);
    }
    if (session->state() == GatewaySession::State::Online) {
        m_selfId = session->self().id;
        m_list->setSelfId(m_selfId);
        m_conversationsRef = requestConversations();
    }
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
    if (friendId != m_active)
        m_shownUpTo.clear();
    m_active = friendId;
    if (friendId.isEmpty())
        return;
    if (conversation(friendId)->historyState() == ChatModel::HistoryState::NotLoaded)
        requestLatest(friendId, false);
    syncReading(friendId);
}

void ChatController::setInFront(bool inFront)
{
    if (inFront == m_inFront)
        return;
    m_inFront = inFront;
    syncReading(m_active);
}

void ChatController::setShownUpTo(const QString &messageId)
{
    m_shownByView = true;
    const ChatModel *model = m_conversations.value(m_active);
    if (!model || !isReading(m_active))
        return;
    const auto next = model->rowOfId(messageId);
    if (!next)
        return;
    // Scrolling back up reads nothing again.
    if (const auto held = model->rowOfId(m_shownUpTo); held && *held >= *next)
        return;
    m_shownUpTo = messageId;
    syncReading(m_active);
}

std::optional<int> ChatController::readUpTo(const QString &friendId) const
{
    const ChatModel *model = m_conversations.value(friendId);
    if (!model || !isReading(friendId))
        return std::nullopt;
    if (!m_shownByView)
        return model->deliveredCount() - 1;
    return model->rowOfId(m_shownUpTo);
}

bool ChatController::syncReading(const QString &friendId, int arrived)
{
    const auto upTo = readUpTo(friendId);
    if (!upTo)
        return false;
    const ChatModel &model = *m_conversations.value(friendId);
    int below = 0;
    for (int row = *upTo + 1; row < model.deliveredCount(); ++row) {
        if (model.at(row).from == friendId)
            ++below;
    }
    setUnread(friendId, std::min(m_list->unread(friendId) + arrived, below));
    markRead(friendId);
    return true;
}

bool ChatController::isReading(const QString &friendId) const
{
    return m_inFront && !friendId.isEmpty() && friendId == m_active;
}

int ChatController::totalUnread() const
{
    return m_list->totalUnread();
}

void ChatController::loadOlder(const QString &friendId)
{
    ChatModel *model = m_conversations.value(friendId);
    if (!model || !model->hasOlder() || model->oldestId().isEmpty()
        || model->historyState() != ChatModel::HistoryState::Loaded)
        return;
    const QString ref = requestHistory(friendId, model->oldestId());
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
        // One sentence per English plural form, each translated as it is.
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
    if (!m_chatOffered)
        return tr("This gateway offers no chat: messages cannot be sent through it.");
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
    m_list->setSelfId(m_selfId);
    // Asked before any history: its answer comes first, so catch-up pages know whose counts
    // are the truth.
    m_gatewayCounts = false;
    m_conversationsLoaded = false;
    m_conversationsRef = requestConversations();
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
        m_reads.clear();
        m_readInFlight.clear();
        m_readAgain.clear();
        m_conversationsRef.clear();
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
    if (!conversation(friendId)->appendDelivered(toRecord(message)))
        return;
    m_list->noteMessage(friendId, toRecord(message));
    if (outgoing)
        return;
    if (!syncReading(friendId, 1))
        addUnread(friendId, 1);
    Q_EMIT messageReceived(friendId, toRecord(message));
}

void ChatController::onOk(const QString &ref, const Protocol::Ok &ok)
{
    if (const PendingRead read = m_reads.take(ref); !read.friendId.isEmpty())
        onReadAcknowledged(read);
    else if (ok.id)
        onAcknowledged(ref, *ok.id, ok.ts.value_or(0));
}

void ChatController::onAcknowledged(const QString &ref, const QString &id, qint64 ts)
{
    const auto pending = m_sends.take(ref);
    ChatModel *model = m_conversations.value(pending.friendId);
    if (!model)
        return;
    const auto row = model->rowOfKey(pending.key);
    const QString text = row ? model->at(*row).text : QString();
    model->acknowledge(pending.key, id, ts);
    ChatMessageRecord sent;
    sent.id = id;
    sent.from = m_selfId;
    sent.text = text;
    sent.ts = ts;
    m_list->noteMessage(pending.friendId, sent);
}

void ChatController::onHistory(const QString &ref, const Protocol::HistoryPage &page)
{
    const auto it = m_histories.find(ref);
    if (it == m_histories.end())
        return;
    const PendingHistory asked = std::move(*it);
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
    if (!asked.older && !records.isEmpty())
        m_list->noteMessage(asked.friendId, records.last());
    // With the gateway's read markers its counts already hold what arrived meanwhile.
    const int arrived = asked.catchUp && !m_gatewayCounts ? newIncoming : 0;
    if (!syncReading(asked.friendId, arrived))
        addUnread(asked.friendId, arrived);
    flush(asked.friendId);
}

void ChatController::onRefused(const QString &ref, const QString &code, const QString &message)
{
    // Until gateways list what they offer (issue 32), unknown_type to a chat request is how
    // one without chat says so.
    const bool noChat = code == Protocol::toString(Protocol::ErrorCode::UnknownType);
    if (ref == m_conversationsRef) {
        // A gateway without read markers: the counts are ours to keep.
        qCInfo(lcSession) << "conversations refused:" << code << message;
        m_conversationsRef.clear();
        finishConversations(!noChat);
        return;
    }
    if (noChat)
        setChatOffered(false);
    if (const auto read = m_reads.take(ref); !read.friendId.isEmpty()) {
        qCInfo(lcSession) << "read refused:" << code << message;
        m_readInFlight.remove(read.friendId);
        m_readAgain.remove(read.friendId);
        return;
    }
    if (const auto send = m_sends.take(ref); !send.key.isEmpty()) {
        const QString reason = noChat ? tr("Not delivered: this gateway offers no chat.")
            : code == Protocol::toString(Protocol::ErrorCode::Forbidden)
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
    const QString ref = requestHistory(friendId, {});
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
        const QString ref = requestMessage(friendId, model->at(*row).text);
        if (ref.isEmpty())
            return;
        m_sends.insert(ref, { friendId, key });
        model->setSending(key);
    }
}

void ChatController::onConversations(
    const QString &ref, const QList<Protocol::ConversationSummary> &conversations)
{
    if (ref != m_conversationsRef)
        return;
    m_conversationsRef.clear();
    m_gatewayCounts = true;
    QList<Models::ConversationSummary> summaries;
    summaries.reserve(conversations.size());
    QSet<QString> told;
    for (const Protocol::ConversationSummary &item : conversations) {
        told.insert(item.with);
        if (item.read)
            advanceMarker(item.with, *item.read);
        // Held messages newer than the gateway's newest cannot be; older ones can (we sent
        // one meanwhile and it was acknowledged after this answer left): keep the later.
        ChatMessageRecord last = toRecord(item.last);
        if (const auto held = m_list->rowOf(item.with); held && m_list->at(*held).last.ts > last.ts)
            last = m_list->at(*held).last;
        // Without a marker the gateway may have forgotten one (a gateway that keeps chats in
        // memory and restarted): what was never read here stays unread, whatever it counts.
        const int unread = item.read ? item.unread : std::max(item.unread, unreadHeld(item.with));
        summaries.append({ item.with, last, unread });
    }
    // Conversations the gateway no longer knows at all: what is held here stays listed.
    for (auto it = m_conversations.cbegin(); it != m_conversations.cend(); ++it) {
        const ChatModel &model = **it;
        if (told.contains(it.key()) || model.deliveredCount() == 0)
            continue;
        summaries.append({ it.key(), model.at(model.deliveredCount() - 1), unreadHeld(it.key()) });
    }
    m_list->setConversations(summaries);
    applyUnreadToFriends();
    syncReading(m_active);
    finishConversations(true);
}

int ChatController::unreadHeld(const QString &friendId) const
{
    const ChatModel *model = m_conversations.value(friendId);
    if (!model)
        return 0;
    // The friend's messages held after the last one read, here or on another device as the
    // gateway last said; all of them if that one is not held (it is older than the page).
    const int readRow = model->rowOfId(m_markers.value(friendId)).value_or(-1);
    int unread = 0;
    for (int row = readRow + 1; row < model->deliveredCount(); ++row)
        unread += model->at(row).from == friendId ? 1 : 0;
    return unread;
}

void ChatController::finishConversations(bool offered)
{
    setChatOffered(offered);
    if (!std::exchange(m_conversationsLoaded, true))
        Q_EMIT conversationsArrived();
}

void ChatController::setChatOffered(bool offered)
{
    if (offered == m_chatOffered)
        return;
    m_chatOffered = offered;
    Q_EMIT chatOfferedChanged(offered);
}

void ChatController::onReadAcknowledged(const PendingRead &read)
{
    advanceMarker(read.friendId, read.upTo);
    m_readInFlight.remove(read.friendId);
    if (m_readAgain.remove(read.friendId))
        markRead(read.friendId);
}

void ChatController::onReadMarker(const QString &with, const QString &upTo, int unread)
{
    advanceMarker(with, upTo);
    setUnread(with, unread);
    syncReading(with); // what was shown here counts too
}

void ChatController::markRead(const QString &friendId)
{
    ChatModel *model = m_conversations.value(friendId);
    const auto upTo = readUpTo(friendId);
    if (!model || !upTo || !isOnline() || !m_gatewayCounts)
        return;
    const auto newest = model->newestFrom(friendId, *upTo);
    if (!newest)
        return;
    const QString id = model->at(*newest).id;
    const QString marker = m_markers.value(friendId);
    if (marker == id)
        return;
    if (const auto markerRow = model->rowOfId(marker); markerRow && *markerRow >= *newest)
        return; // only forward
    if (m_readInFlight.contains(friendId)) {
        m_readAgain.insert(friendId);
        return;
    }
    const QString ref = requestRead(friendId, id);
    if (ref.isEmpty())
        return;
    m_reads.insert(ref, { friendId, id });
    m_readInFlight.insert(friendId);
}

void ChatController::advanceMarker(const QString &friendId, const QString &upTo)
{
    if (upTo.isEmpty())
        return;
    // The gateway moves markers only forward; a marker of ours in flight that it has not
    // answered yet may be behind one from another device, never the other way round.
    if (ChatModel *model = m_conversations.value(friendId)) {
        const auto held = model->rowOfId(m_markers.value(friendId));
        const auto next = model->rowOfId(upTo);
        if (held && next && *next < *held)
            return;
    }
    m_markers.insert(friendId, upTo);
}

void ChatController::setUnread(const QString &friendId, int count)
{
    m_list->setUnread(friendId, count);
    // The friend list shows the same numbers (and keeps them across friend-list reloads).
    if (m_friends)
        m_friends->setUnreadCount(friendId, count);
}

void ChatController::applyUnreadToFriends()
{
    if (!m_friends)
        return;
    for (int row = 0; row < m_friends->rowCount(); ++row) {
        const QString id = m_friends->index(row).data(Models::FriendListModel::IdRole).toString();
        m_friends->setUnreadCount(id, m_list->unread(id));
    }
}

void ChatController::addUnread(const QString &friendId, int count)
{
    if (count <= 0)
        return;
    setUnread(friendId, m_list->unread(friendId) + count);
}

void ChatController::clearConversations()
{
    Q_EMIT conversationsCleared();
    qDeleteAll(m_conversations);
    m_conversations.clear();
    m_sends.clear();
    m_histories.clear();
    m_reads.clear();
    m_readInFlight.clear();
    m_readAgain.clear();
    m_markers.clear();
    // Nothing the previous user had unread is this user's.
    m_list->clear();
    applyUnreadToFriends();
    m_active.clear();
}

// Within the protocol's bounds, so that they need no clamping.
static_assert(ChatController::kHistoryPageSize <= Protocol::kMaxHistoryLimit);
static_assert(ChatController::kConversationsLimit <= Protocol::kMaxConversationsLimit);

QString ChatController::requestMessage(const QString &friendId, const QString &text)
{
    return m_session->request(toJson(Protocol::SendMessageRequest { friendId, text }), u'm');
}

QString ChatController::requestHistory(const QString &friendId, const QString &before)
{
    Protocol::HistoryRequest request { friendId, std::nullopt, kHistoryPageSize };
    if (!before.isEmpty())
        request.before = before;
    return m_session->request(toJson(request), u'h');
}

QString ChatController::requestConversations()
{
    return m_session->request(toJson(Protocol::ConversationsRequest { kConversationsLimit }), u'c');
}

QString ChatController::requestRead(const QString &friendId, const QString &upTo)
{
    if (friendId.isEmpty() || upTo.isEmpty())
        return {};
    return m_session->request(toJson(Protocol::ReadRequest { friendId, upTo }), u'r');
}

bool ChatController::isOnline() const
{
    return m_session->state() == GatewaySession::State::Online;
}

} // namespace Presence::Session
