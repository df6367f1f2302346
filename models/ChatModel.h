#pragma once

// C++
#include <chrono>
#include <optional>

// Qt
#include <QAbstractListModel>
#include <QHash>

// Presence
#include "models/ChatMessageRecord.h"

namespace Presence::Models {

// One conversation with one friend, in the gateway's order. It knows nothing about sockets:
// whoever holds the session feeds it history pages, pushes and acknowledgements.
//
// Rows are the messages the gateway took, in its order, followed by our own messages still in
// flight (queued, sending, failed). History pages and pushes are merged by id, so a page that
// overlaps what is held (a reconnect reloading the latest messages) adds only what is new.
class ChatModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        FromRole,
        TextRole, // also Qt::DisplayRole
        TimestampRole, // qint64 ms since the epoch
        OutgoingRole, // bool: written by the signed-in user (on any of their devices)
        DeliveryRole, // int of Delivery
        ErrorRole, // why it failed, for a Failed row
    };
    Q_ENUM(Role)

    enum class HistoryState {
        NotLoaded, // nothing asked on this connection
        Loading,
        Loaded,
    };
    Q_ENUM(HistoryState)

    // How far the gateway's clock may lag the client's when settling unconfirmed messages.
    static inline constexpr std::chrono::milliseconds kClockSkewAllowance { 120'000 };

    ChatModel(QString selfId, QString friendId, QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

    [[nodiscard]] const QString &selfId() const { return m_selfId; }
    [[nodiscard]] const QString &friendId() const { return m_friendId; }
    [[nodiscard]] const ChatMessageRecord &at(int row) const { return m_rows.at(row); }
    [[nodiscard]] bool contains(const QString &id) const { return m_rowOfId.contains(id); }
    // Messages the gateway took (the rows before those in flight).
    [[nodiscard]] int deliveredCount() const { return m_delivered; }
    // The oldest message held, to page further back; empty when none is held.
    [[nodiscard]] QString oldestId() const;
    [[nodiscard]] std::optional<int> rowOfKey(const QString &key) const;
    // The row of a delivered message, by its id: nothing for an id empty or not held.
    [[nodiscard]] std::optional<int> rowOfId(const QString &id) const;
    // The newest delivered message from `from` at or above lastRow (one the gateway took, so
    // one a read marker can name).
    [[nodiscard]] std::optional<int> newestFrom(const QString &from, int lastRow) const;

    // A message the gateway took (a push, or one of ours from another device). Known ids are
    // ignored. Returns whether it was new.
    bool appendDelivered(const ChatMessageRecord &message);
    // A page of history, oldest first. `older`: a page from before oldestId(), else the
    // latest messages. Merged by id, keeping the gateway's order. Returns the rows added.
    // A latest page also settles Unconfirmed messages: one of ours that the page brought
    // with the same text was delivered (its row goes), the others become Queued again.
    int mergeHistory(const QList<ChatMessageRecord> &page, bool older, bool more);

    // Our own message typed now, waiting for (Queued) or awaiting (Sending) the gateway.
    void appendOwn(const QString &key, const QString &text, qint64 localTs, Delivery delivery);
    void setSending(const QString &key);
    // Unconfirmed messages of ours that are among `deliveredOwn` (same text once trimmed,
    // taken after they were typed, within kClockSkewAllowance) arrived: their rows go, one
    // per delivered message. The rest become Queued, to be sent again.
    void settleUnconfirmed(QList<ChatMessageRecord> deliveredOwn);
    // The connection is gone: what was Sending becomes Unconfirmed.
    void markSendingUnconfirmed();
    [[nodiscard]] bool hasDelivery(Delivery delivery) const;
    // Keys of the rows waiting to be sent, in order.
    [[nodiscard]] QStringList queuedKeys() const;
    // The gateway took our message `key`: it becomes Delivered with its id and time, and
    // takes its place after the messages delivered before it.
    void acknowledge(const QString &key, const QString &id, qint64 ts);
    void fail(const QString &key, const QString &error);
    // Removes a row of ours that is not delivered (to send it again); returns its text.
    [[nodiscard]] std::optional<QString> takeUndelivered(int row);

    [[nodiscard]] HistoryState historyState() const { return m_historyState; }
    void setHistoryState(HistoryState state);
    // The gateway holds older messages than the oldest row.
    [[nodiscard]] bool hasOlder() const { return m_hasOlder; }

Q_SIGNALS:
    void historyStateChanged(Presence::Models::ChatModel::HistoryState state);

private:
    void insertRecords(int row, const QList<ChatMessageRecord> &records);
    void setDelivery(int row, Delivery delivery, const QString &error = {});
    void reindex(int from);

    QString m_selfId;
    QString m_friendId;
    QList<ChatMessageRecord> m_rows;
    QHash<QString, int> m_rowOfId; // delivered ids -> row
    int m_delivered = 0;
    HistoryState m_historyState = HistoryState::NotLoaded;
    bool m_hasOlder = false;
};

} // namespace Presence::Models
