#include "models/ChatModel.h"

// C++
#include <algorithm>

// Qt
#include <QSet>

namespace Presence::Models {

ChatModel::ChatModel(QString selfId, QString friendId, QObject *parent)
    : QAbstractListModel(parent)
    , m_selfId(std::move(selfId))
    , m_friendId(std::move(friendId))
{
}

int ChatModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ChatModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this || index.row() >= m_rows.size())
        return {};
    const ChatMessageRecord &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case TextRole:
        return row.text;
    case IdRole:
        return row.id;
    case FromRole:
        return row.from;
    case TimestampRole:
        return row.ts;
    case OutgoingRole:
        return row.from == m_selfId;
    case DeliveryRole:
        return int(row.delivery);
    case ErrorRole:
        return row.error;
    default:
        return {};
    }
}

QHash<int, QByteArray> ChatModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "messageId");
    names.insert(FromRole, "from");
    names.insert(TextRole, "text");
    names.insert(TimestampRole, "timestamp");
    names.insert(OutgoingRole, "outgoing");
    names.insert(DeliveryRole, "delivery");
    names.insert(ErrorRole, "error");
    return names;
}

QString ChatModel::oldestId() const
{
    return m_delivered > 0 ? m_rows.first().id : QString();
}

std::optional<int> ChatModel::rowOfKey(const QString &key) const
{
    if (key.isEmpty())
        return std::nullopt;
    for (int row = m_delivered; row < m_rows.size(); ++row) {
        if (m_rows.at(row).key == key)
            return row;
    }
    return std::nullopt;
}

std::optional<int> ChatModel::rowOfId(const QString &id) const
{
    if (const auto it = m_rowOfId.constFind(id); it != m_rowOfId.constEnd())
        return *it;
    return std::nullopt;
}

std::optional<int> ChatModel::newestFrom(const QString &from, int lastRow) const
{
    for (int row = std::min(lastRow, m_delivered - 1); row >= 0; --row) {
        if (m_rows.at(row).from == from)
            return row;
    }
    return std::nullopt;
}

bool ChatModel::appendDelivered(const ChatMessageRecord &message)
{
    if (message.id.isEmpty() || m_rowOfId.contains(message.id))
        return false;
    ChatMessageRecord record = message;
    record.delivery = Delivery::Delivered;
    record.key.clear();
    insertRecords(m_delivered, { record });
    return true;
}

int ChatModel::mergeHistory(const QList<ChatMessageRecord> &page, bool older, bool more)
{
    int firstKnown = -1;
    for (const ChatMessageRecord &message : page) {
        if (const auto it = m_rowOfId.constFind(message.id); it != m_rowOfId.constEnd()) {
            firstKnown = *it;
            break;
        }
    }
    if (!older && firstKnown < 0 && m_delivered > 0 && !page.isEmpty()) {
        // The latest page shares nothing with what is held: what is held is older, with a
        // gap between. Start again from the page rather than show a conversation with a hole.
        beginRemoveRows({}, 0, m_delivered - 1);
        m_rows.remove(0, m_delivered);
        m_delivered = 0;
        m_rowOfId.clear();
        reindex(0);
        endRemoveRows();
    }

    // Walk the page in order: a known message moves the insertion point after itself, so
    // new ones land between the same neighbours as in the gateway's order.
    int pos = older ? 0 : (firstKnown >= 0 ? firstKnown : m_delivered);
    int added = 0;
    QList<ChatMessageRecord> ownNew; // our messages this page brought
    QList<ChatMessageRecord> run;
    const auto flushRun = [&] {
        if (run.isEmpty())
            return;
        insertRecords(pos, run);
        pos += int(run.size());
        added += int(run.size());
        run.clear();
    };
    QSet<QString> seen;
    for (const ChatMessageRecord &message : page) {
        if (message.id.isEmpty() || seen.contains(message.id))
            continue;
        seen.insert(message.id);
        if (m_rowOfId.contains(message.id)) {
            flushRun(); // may rehash m_rowOfId: look the row up afterwards
            pos = m_rowOfId.value(message.id) + 1;
            continue;
        }
        ChatMessageRecord record = message;
        record.delivery = Delivery::Delivered;
        record.key.clear();
        if (record.from == m_selfId)
            ownNew.append(record);
        run.append(record);
    }
    flushRun();
    // `more` speaks of what lies before the page's first message: it says whether older
    // ones exist only if that message is now the oldest row.
    if (page.isEmpty() ? (older || m_delivered == 0)
                       : m_rowOfId.value(page.constFirst().id, -1) == 0)
        m_hasOlder = more;
    if (!older)
        settleUnconfirmed(ownNew);
    return added;
}

void ChatModel::settleUnconfirmed(QList<ChatMessageRecord> deliveredOwn)
{
    for (int row = m_delivered; row < m_rows.size();) {
        const ChatMessageRecord &candidate = m_rows.at(row);
        if (candidate.delivery != Delivery::Unconfirmed) {
            ++row;
            continue;
        }
        // The same text (the gateway stores it trimmed), taken no earlier than it was typed
        // give or take the clocks' difference: an older message with the same words is not it.
        const auto match = std::find_if(
            deliveredOwn.cbegin(), deliveredOwn.cend(), [&candidate](const ChatMessageRecord &m) {
                return m.text == candidate.text.trimmed()
                    && m.ts >= candidate.ts - kClockSkewAllowance.count();
            });
        if (match != deliveredOwn.cend()) {
            deliveredOwn.erase(match);
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
            continue;
        }
        setDelivery(row, Delivery::Queued);
        ++row;
    }
}

void ChatModel::appendOwn(
    const QString &key, const QString &text, qint64 localTs, Delivery delivery)
{
    ChatMessageRecord record;
    record.from = m_selfId;
    record.text = text;
    record.ts = localTs;
    record.delivery = delivery;
    record.key = key;
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.append(record);
    endInsertRows();
}

void ChatModel::setSending(const QString &key)
{
    if (const auto row = rowOfKey(key))
        setDelivery(*row, Delivery::Sending);
}

void ChatModel::markSendingUnconfirmed()
{
    for (int row = m_delivered; row < m_rows.size(); ++row) {
        if (m_rows.at(row).delivery == Delivery::Sending)
            setDelivery(row, Delivery::Unconfirmed);
    }
}

bool ChatModel::hasDelivery(Delivery delivery) const
{
    return std::any_of(m_rows.cbegin() + m_delivered, m_rows.cend(),
        [delivery](const ChatMessageRecord &r) { return r.delivery == delivery; });
}

QStringList ChatModel::queuedKeys() const
{
    QStringList keys;
    for (int row = m_delivered; row < m_rows.size(); ++row) {
        if (m_rows.at(row).delivery == Delivery::Queued)
            keys.append(m_rows.at(row).key);
    }
    return keys;
}

void ChatModel::setDelivery(int row, Delivery delivery, const QString &error)
{
    ChatMessageRecord &record = m_rows[row];
    if (record.delivery == delivery && record.error == error)
        return;
    record.delivery = delivery;
    record.error = error;
    const QModelIndex at = index(row);
    Q_EMIT dataChanged(at, at, { DeliveryRole, ErrorRole });
}

void ChatModel::acknowledge(const QString &key, const QString &id, qint64 ts)
{
    const auto found = rowOfKey(key);
    if (!found)
        return;
    int row = *found;
    if (id.isEmpty())
        return; // not an acknowledgement the protocol can send
    if (m_rowOfId.contains(id)) {
        // Already here through history: the flight row is a duplicate.
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        return;
    }
    if (row != m_delivered) {
        beginMoveRows({}, row, row, {}, m_delivered);
        m_rows.move(row, m_delivered);
        endMoveRows();
        row = m_delivered;
    }
    ChatMessageRecord &record = m_rows[row];
    record.id = id;
    record.ts = ts;
    record.delivery = Delivery::Delivered;
    record.error.clear();
    record.key.clear();
    m_rowOfId.insert(id, row);
    ++m_delivered;
    const QModelIndex at = index(row);
    Q_EMIT dataChanged(at, at, { IdRole, TimestampRole, DeliveryRole, ErrorRole });
}

void ChatModel::fail(const QString &key, const QString &error)
{
    if (const auto row = rowOfKey(key))
        setDelivery(*row, Delivery::Failed, error);
}

std::optional<QString> ChatModel::takeUndelivered(int row)
{
    if (row < m_delivered || row >= m_rows.size())
        return std::nullopt;
    beginRemoveRows({}, row, row);
    const QString text = m_rows.takeAt(row).text;
    endRemoveRows();
    return text;
}

void ChatModel::setHistoryState(HistoryState state)
{
    if (state == m_historyState)
        return;
    m_historyState = state;
    Q_EMIT historyStateChanged(state);
}

void ChatModel::insertRecords(int row, const QList<ChatMessageRecord> &records)
{
    if (records.isEmpty())
        return;
    beginInsertRows({}, row, row + int(records.size()) - 1);
    m_rows.insert(row, records.size(), ChatMessageRecord {});
    std::copy(records.cbegin(), records.cend(), m_rows.begin() + row);
    m_delivered += int(records.size());
    reindex(row);
    endInsertRows();
}

void ChatModel::reindex(int from)
{
    for (int row = from; row < m_delivered; ++row)
        m_rowOfId.insert(m_rows.at(row).id, row);
}

} // namespace Presence::Models
