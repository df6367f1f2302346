#pragma once

#include "protocol/ServerMessages.h"

#include <QHash>
#include <QList>
#include <QString>
#include <deque>
#include <functional>
#include <optional>
#include <utility>

namespace Presence::Gateway {

// The recent history of every one-to-one conversation, in memory: the last `capacity`
// messages of each pair of users. Gives each message its id and time. The gateway uses only
// append() and page(), so a shared store (Redis) can take its place later.
class ChatStore {
public:
    static constexpr qsizetype kDefaultCapacity = 1000;
    using Clock = std::function<qint64()>; // ms since the epoch

    struct Page {
        QList<Protocol::ChatMessage> messages; // oldest first
        bool more = false; // older messages are held before the first one
    };

    // Without a clock, the system clock.
    explicit ChatStore(qsizetype capacity = kDefaultCapacity, Clock clock = {});

    // Stores a message (text already checked and trimmed) and returns it with its id and ts.
    Protocol::ChatMessage append(const QString &from, const QString &to, const QString &text);

    // Up to `limit` (>= 1) messages between a and b, oldest first: those just before the message
    // `before`, or the latest. nullopt when `before` is not held in that conversation (unknown,
    // of another conversation, or already dropped by the cap).
    [[nodiscard]] std::optional<Page> page(
        const QString &a, const QString &b, const std::optional<QString> &before, int limit) const;

    [[nodiscard]] qsizetype capacity() const { return m_capacity; }
    [[nodiscard]] qsizetype conversationCount() const { return m_conversations.size(); }

private:
    // The unordered pair of user ids, smaller first.
    using Key = std::pair<QString, QString>;
    using Conversation = std::deque<Protocol::ChatMessage>; // oldest first, at most m_capacity

    [[nodiscard]] static Key keyOf(const QString &a, const QString &b);
    [[nodiscard]] QString nextId();

    qsizetype m_capacity;
    Clock m_clock;
    QString m_idPrefix; // random, so that ids do not repeat after a restart
    quint64 m_nextNumber = 1;
    QHash<Key, Conversation> m_conversations;
};

} // namespace Presence::Gateway
