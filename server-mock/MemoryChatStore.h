#pragma once

#include "server-mock/ChatStore.h"

#include <QHash>
#include <deque>
#include <utility>

namespace Presence::Gateway {

// The recent history of every one-to-one conversation, in this gateway's memory: the last
// `capacity` messages of each pair of users. Answers at once.
class MemoryChatStore : public ChatStore {
    Q_OBJECT
public:
    static constexpr qsizetype kDefaultCapacity = 1000;
    using Clock = std::function<qint64()>; // ms since the epoch

    // Without a clock, the system clock.
    explicit MemoryChatStore(
        qsizetype capacity = kDefaultCapacity, Clock clock = {}, QObject *parent = nullptr);

    void storeMessage(const QString &from, const QString &to, const QString &text, QObject *context,
        StoredCallback done) override;
    void readPage(const QString &a, const QString &b, const std::optional<QString> &before,
        int limit, QObject *context, PageCallback done) override;

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
