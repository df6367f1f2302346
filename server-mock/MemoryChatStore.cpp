#include "server-mock/MemoryChatStore.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace Presence::Gateway {

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

ChatMessage MemoryChatStore::append(const QString &from, const QString &to, const QString &text)
{
    Conversation &conversation = m_conversations[keyOf(from, to)];
    // The clock may step back; the order of a conversation must not.
    qint64 ts = m_clock();
    if (!conversation.empty())
        ts = std::max(ts, conversation.back().ts);
    ChatMessage message { nextId(), from, to, text, ts };
    conversation.push_back(message);
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

} // namespace Presence::Gateway
