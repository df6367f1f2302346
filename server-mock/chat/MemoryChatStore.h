#pragma once

// C++
#include <deque>
#include <utility>

// Qt
#include <QHash>

// Presence
#include "server-mock/chat/ChatStore.h"

namespace Presence::Server {

// The recent history of every one-to-one conversation, in this gateway's memory: the last
// `capacity` messages of each pair of users, each user's conversations by last activity and
// their read markers. Answers at once; everything lives as long as the process.
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
    void readSummaries(const QString &user, int limit, const Filter &filter, QObject *context,
        SummariesCallback done) override;
    void markRead(const QString &user, const QString &with, const QString &upTo, QObject *context,
        MarkCallback done) override;

    // Stores a message (text already checked and trimmed) and returns it with its id and ts.
    Protocol::ChatMessage append(const QString &from, const QString &to, const QString &text);

    // Up to `limit` (>= 1) messages between a and b, oldest first: those just before the message
    // `before`, or the latest. nullopt when `before` is not held in that conversation (unknown,
    // of another conversation, or already dropped by the cap).
    [[nodiscard]] std::optional<Page> page(
        const QString &a, const QString &b, const std::optional<QString> &before, int limit) const;

    // What readSummaries() answers, at once.
    [[nodiscard]] Summaries summaries(const QString &user, int limit, const Filter &filter) const;
    // Moves user's marker of the conversation with `with` forward to upTo. The marker as it is
    // now when it moved, nullopt when it stayed (upTo is not newer), Failure::NotHeld when upTo
    // is not held in that conversation. Emits nothing.
    [[nodiscard]] std::variant<std::optional<Protocol::ReadMarkerEvent>, Failure> mark(
        const QString &user, const QString &with, const QString &upTo);

    [[nodiscard]] qsizetype capacity() const { return m_capacity; }
    [[nodiscard]] qsizetype conversationCount() const { return m_conversations.size(); }

private:
    // The unordered pair of user ids, smaller first.
    using Key = std::pair<QString, QString>;
    using Conversation = std::deque<Protocol::ChatMessage>; // oldest first, at most m_capacity

    struct Marker {
        QString id;
        quint64 number = 0; // of the message it names: markers compare by it
    };

    [[nodiscard]] static Key keyOf(const QString &a, const QString &b);
    // The n of an id this store gave ("m<prefix>.<n in base 36>").
    [[nodiscard]] static quint64 numberOf(const QString &id);
    [[nodiscard]] QString nextId();
    // Messages from `with` to `user` after user's marker, among those held.
    [[nodiscard]] int unreadOf(
        const QString &user, const QString &with, const Conversation &conversation) const;

    qsizetype m_capacity;
    Clock m_clock;
    QString m_idPrefix; // random, so that ids do not repeat after a restart
    quint64 m_nextNumber = 1;
    QHash<Key, Conversation> m_conversations;
    // user -> the other side of each of their conversations -> the number of its newest message
    QHash<QString, QHash<QString, quint64>> m_activity;
    // (user, other side) -> user's read marker of that conversation
    QHash<Key, Marker> m_markers;
};

} // namespace Presence::Server
