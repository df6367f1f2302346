#pragma once

// C++
#include <functional>
#include <optional>
#include <variant>

// Qt
#include <QList>
#include <QObject>
#include <QString>

// Presence
#include "protocol/ServerMessages.h"

namespace Presence::Server {

// Where one-to-one conversations live: each message gets its id and time here, and the recent
// history of each pair of users is read back in pages. Asynchronous, like PresenceStore, so
// that a networked store never blocks the event loop; the in-memory store answers at once.
//
// A shared store (Redis) also carries messages between gateways: the gateway that took a
// message delivers it to its own connections, and every other gateway holding a connection of
// the sender or the recipient hears of it through messageArrived().
class ChatStore : public QObject {
    Q_OBJECT
public:
    struct Page {
        QList<Protocol::ChatMessage> messages; // oldest first
        bool more = false; // older messages are held before the first one
    };
    // One conversation as `conversations` lists it (docs/protocol.md §9).
    using Summary = Protocol::ConversationSummary;
    struct Summaries {
        QList<Summary> items; // newest activity first
        bool more = false; // more conversations passed the filter than were listed
    };
    enum class Failure {
        // `before` (history) or `up_to` (read) is not a message of this conversation that the
        // store holds
        NotHeld,
        Unavailable, // the store cannot answer now (Redis away); try again later
    };
    // nullopt: the store could not keep the message (it is not stored anywhere).
    using StoredCallback = std::function<void(const std::optional<Protocol::ChatMessage> &)>;
    using PageCallback = std::function<void(const std::variant<Page, Failure> &)>;
    using SummariesCallback = std::function<void(const std::variant<Summaries, Failure> &)>;
    // Whether a conversation with that user may be listed (the gateway's friends rule).
    using Filter = std::function<bool(const QString &otherId)>;
    // The read went through (the marker moved, or it was already at or past upTo), or not.
    using MarkCallback = std::function<void(const std::optional<Failure> &)>;

    using QObject::QObject;
    ~ChatStore() override = default;

    // Stores a message (text already checked and trimmed) and answers with its id and ts.
    // `done` is not called once `context` is destroyed.
    virtual void storeMessage(const QString &from, const QString &to, const QString &text,
        QObject *context, StoredCallback done)
        = 0;
    // Up to `limit` (>= 1) messages between a and b, oldest first: those just before the message
    // `before`, or the latest.
    virtual void readPage(const QString &a, const QString &b, const std::optional<QString> &before,
        int limit, QObject *context, PageCallback done)
        = 0;

    // The conversations of `user` that hold at least one message and pass `filter`, newest
    // activity first, at most `limit` (>= 1), each with its newest message, the user's read
    // marker and how many messages from the other side came after it.
    virtual void readSummaries(const QString &user, int limit, const Filter &filter,
        QObject *context, SummariesCallback done)
        = 0;
    // Moves user's read marker of the conversation with `with` forward to the message upTo
    // (which must be held in that conversation); an older one changes nothing. `done` first;
    // then, when the marker moved, readMarkerMoved() for every gateway holding a connection
    // of user (this one included).
    virtual void markRead(const QString &user, const QString &with, const QString &upTo,
        QObject *context, MarkCallback done)
        = 0;

    // This gateway now holds a connection of userId (or none any more): a shared store relays
    // other gateways' messages to or from that user only in between.
    virtual void userArrived(const QString &userId) { Q_UNUSED(userId) }
    virtual void userLeft(const QString &userId) { Q_UNUSED(userId) }

Q_SIGNALS:
    // A message another gateway took, to or from userId, who has a connection here.
    void messageArrived(const QString &userId, const Presence::Protocol::ChatMessage &message);
    // userId's read marker moved (on any gateway): every connection of userId here is told.
    void readMarkerMoved(const QString &userId, const Presence::Protocol::ReadMarkerEvent &marker);
};

} // namespace Presence::Server
