#pragma once

#include "protocol/ServerMessages.h"

#include <QList>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>
#include <variant>

namespace Presence::Gateway {

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
    enum class Failure {
        NotHeld, // `before` is not a message of this conversation that the store holds
        Unavailable, // the store cannot answer now (Redis away); try again later
    };
    // nullopt: the store could not keep the message (it is not stored anywhere).
    using StoredCallback = std::function<void(const std::optional<Protocol::ChatMessage> &)>;
    using PageCallback = std::function<void(const std::variant<Page, Failure> &)>;

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

    // This gateway now holds a connection of userId (or none any more): a shared store relays
    // other gateways' messages to or from that user only in between.
    virtual void userArrived(const QString &userId) { Q_UNUSED(userId) }
    virtual void userLeft(const QString &userId) { Q_UNUSED(userId) }

Q_SIGNALS:
    // A message another gateway took, to or from userId, who has a connection here.
    void messageArrived(const QString &userId, const Presence::Protocol::ChatMessage &message);
};

} // namespace Presence::Gateway
