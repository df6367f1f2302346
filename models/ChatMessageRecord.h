#pragma once

// Qt
#include <QMetaType>
#include <QString>

namespace Presence::Models {

// Where one of our own messages stands. Messages from the friend are always Delivered.
enum class Delivery {
    Queued, // typed while not connected: goes out when the connection is back
    Sending, // sent, the gateway has not acknowledged it yet
    // The connection was lost before the acknowledgement: it may or may not have arrived.
    // The next latest-history page decides: found there it was delivered, else it is queued.
    Unconfirmed,
    Delivered, // the gateway took it (it has an id and a gateway timestamp)
    Failed, // the gateway refused it (see error)
};

// One message of a conversation as the chat model holds it.
struct ChatMessageRecord {
    QString id; // the gateway's id; empty until Delivered
    QString from;
    QString text;
    qint64 ts = 0; // ms since the epoch: the gateway's, or the local time of typing until then
    Delivery delivery = Delivery::Delivered;
    QString error; // why it failed, in words
    QString key; // local key of an own message in flight (the request's ref)
};

} // namespace Presence::Models

Q_DECLARE_METATYPE(Presence::Models::Delivery)
