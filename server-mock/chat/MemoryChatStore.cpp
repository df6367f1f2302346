#include "server-mock/chat/MemoryChatStore.h"

// C++
#include <algorithm>
#include <functional>

// Qt
#include <QDateTime>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Protocol::ChatMessage;

namespace {

// 40 random bits as 8 base-36 digits: "m" + prefix + "." + counter stays a valid id.
QString randomPrefix()
{
    const quint64 bits = QRandomGenerator::system()->generate64() & ((quint64(1) << 40) - 1);
    return QString::number(bits, 36).rightJustified(8, u'0');
}

} // namespace

MemoryChatStore::MemoryChatStore(qsizetype capacity, Clock clock, QObject *parent)
    : ChatStore(parent)
    , m_capacity(std::max<qsizetype>(1, capacity))
    , m_clock(clock ? std::move(clock) : Clock([] { return QDateTime::currentMSecsSinceEpoch(); }))
    , m_idPrefix(randomPrefix())
{
}

MemoryChatStore::Key MemoryChatStore::keyOf(const QString &a, const QString &b)
{
    return a < b ? Key { a, b } : Key { b, a };
}

QString MemoryChatStore::nextId()
{
    return u"m%1.%2"_s.arg(m_idPrefix, QString::number(m_nextNumber++, 36));
}

quint64 MemoryChatStore::numberOf(const QString &id)
{
    return QStringView(id).mid(id.lastIndexOf(u'.') + 1).toULongLong(nullptr, 36);
}

ChatMessage MemoryChatStore::append(const QString &from, const QString &to, const QString &text)
{
    Conversation &conversation = m_conversations[keyOf(from, to)];
    // The clock may step back; the order of a conversation must not.
    qint64 ts = m_clock();
    if (!conversation.empty())
        ts = std::max(ts, conversation.back().ts);
    ChatMessage message { nextId(), from, to, text, ts };
    conversation.push_back(message);
    const quint64 number = m_nextNumber - 1;
    m_activity[from].insert(to, number);
    m_activity[to].insert(from, number);
    while (qsizetype(conversation.size()) > m_capacity)
        conversation.pop_front();
    return message;
}

std::optional<ChatStore::Page> MemoryChatStore::page(
    const QString &a, const QString &b, const std::optional<QString> &before, int limit) const
{
    const auto it = m_conversations.constFind(keyOf(a, b));
    if (it == m_conversations.constEnd())
        return before ? std::nullopt : std::optional<Page>(Page {});
    const Conversation &messages = *it;

    auto end = messages.cend();
    if (before) {
        // Linear, over at most m_capacity messages; recent ones are the likely targets.
        const auto found = std::find_if(messages.crbegin(), messages.crend(),
            [&](const ChatMessage &message) { return message.id == *before; });
        if (found == messages.crend())
            return std::nullopt;
        end = std::prev(found.base());
    }
    const auto available = std::distance(messages.cbegin(), end);
    const auto begin = end - std::min<std::ptrdiff_t>(available, std::max(1, limit));
    Page result;
    result.messages = QList<ChatMessage>(begin, end);
    result.more = begin != messages.cbegin();
    return result;
}

int MemoryChatStore::unreadOf(
    const QString &user, const QString &with, const Conversation &conversation) const
{
    const auto marker = m_markers.constFind(Key { user, with });
    const quint64 read = marker == m_markers.cend() ? 0 : marker->number;
    int unread = 0;
    for (auto it = conversation.crbegin(); it != conversation.crend(); ++it) {
        if (numberOf(it->id) <= read)
            break;
        unread += it->from == with ? 1 : 0;
    }
    return unread;
}

ChatStore::Summaries MemoryChatStore::summaries(
    const QString &user, int limit, const Filter &filter) const
{
    QList<std::pair<quint64, QString>> newestFirst;
    const QHash<QString, quint64> partners = m_activity.value(user);
    for (auto it = partners.cbegin(); it != partners.cend(); ++it) {
        if (!filter || filter(it.key()))
            newestFirst.append({ it.value(), it.key() });
    }
    std::sort(newestFirst.begin(), newestFirst.end(), std::greater<>());
    Summaries result;
    const qsizetype count = std::min<qsizetype>(newestFirst.size(), std::max(1, limit));
    result.more = newestFirst.size() > count;
    for (qsizetype i = 0; i < count; ++i) {
        const QString &with = newestFirst.at(i).second;
        const Conversation &conversation = m_conversations.find(keyOf(user, with)).value();
        Summary summary { with, conversation.back(), std::nullopt,
            unreadOf(user, with, conversation) };
        if (const auto marker = m_markers.constFind(Key { user, with }); marker != m_markers.cend())
            summary.read = marker->id;
        result.items.append(summary);
    }
    return result;
}

std::variant<std::optional<Protocol::ReadMarkerEvent>, ChatStore::Failure> MemoryChatStore::mark(
    const QString &user, const QString &with, const QString &upTo)
{
    const auto it = m_conversations.constFind(keyOf(user, with));
    if (it == m_conversations.constEnd())
        return Failure::NotHeld;
    const Conversation &conversation = *it;
    const bool held = std::any_of(conversation.crbegin(), conversation.crend(),
        [&](const ChatMessage &message) { return message.id == upTo; });
    if (!held)
        return Failure::NotHeld;
    const quint64 number = numberOf(upTo);
    Marker &marker = m_markers[Key { user, with }];
    if (marker.number >= number)
        return std::nullopt; // only forward
    marker = { upTo, number };
    return Protocol::ReadMarkerEvent { with, upTo, unreadOf(user, with, conversation) };
}

void MemoryChatStore::readSummaries(
    const QString &user, int limit, const Filter &filter, QObject *context, SummariesCallback done)
{
    if (context)
        done(summaries(user, limit, filter));
}

void MemoryChatStore::markRead(const QString &user, const QString &with, const QString &upTo,
    QObject *context, MarkCallback done)
{
    const auto result = mark(user, with, upTo);
    if (const auto *failure = std::get_if<Failure>(&result)) {
        if (context)
            done(*failure);
        return;
    }
    if (context)
        done(std::nullopt);
    if (const auto &moved = std::get<std::optional<Protocol::ReadMarkerEvent>>(result))
        Q_EMIT readMarkerMoved(user, *moved);
}

void MemoryChatStore::storeMessage(const QString &from, const QString &to, const QString &text,
    QObject *context, StoredCallback done)
{
    const ChatMessage message = append(from, to, text);
    if (context)
        done(message);
}

void MemoryChatStore::readPage(const QString &a, const QString &b,
    const std::optional<QString> &before, int limit, QObject *context, PageCallback done)
{
    if (!context)
        return;
    if (auto result = page(a, b, before, limit))
        done(std::move(*result));
    else
        done(Failure::NotHeld);
}

} // namespace Presence::Server
