#pragma once

// C++
#include <chrono>
#include <optional>
#include <vector>

// Qt
#include <QAbstractListModel>
#include <QHash>
#include <QTimer>

// Presence
#include "models/PresenceState.h"

namespace Presence::Models {

struct FriendRecord {
    QString id;
    QString name;
};

// The friend list with each friend's presence. It knows nothing about sockets: whoever
// holds the session feeds it. Presence changes are applied to the data at once, while views
// hear of them once per flush interval: one dataChanged per contiguous run of changed rows,
// naming only the presence roles, so storms of events stay cheap for 100,000 rows.
class FriendListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role {
        IdRole = Qt::UserRole + 1,
        NameRole,
        StatusRole, // PresenceState as int
        LastSeenRole, // qint64 ms since the epoch, or an invalid QVariant
        FreshRole, // bool: received from a live subscription on this connection
        // What the row sorts as (int of PresenceState), as views were last told it: its status
        // while live, Unknown once stale (an "online 5 min ago" may be offline by now, so it
        // never sorts with the online ones). Sorting proxies sort on this, never on
        // StatusRole: while one flush announces its runs one by one, rows of later runs must
        // not look moved to a proxy re-placing the rows of earlier ones.
        SortStatusRole,
        UnreadRole, // int: messages from this friend not read yet
        // qint64 ms since the epoch: when a row that is not fresh stopped being live (its
        // subscription ended, or the availability set no longer covers it); else invalid.
        // It changes only with FreshRole, so it is announced under that role.
        StaleSinceRole,
        // bool: another friend has the same name (ignoring case and spacing), so a row must
        // show the handle to be told apart. Names change only in setFriends.
        NameSharedRole,
    };
    Q_ENUM(Role)

    explicit FriendListModel(QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

    // Replaces the list. Presence already known for ids that stay is kept; an identical
    // list changes nothing (a reconnect reloads the same friends without a reset). When the
    // friends who stay keep their order (friends added or removed while connected), rows are
    // inserted and removed around them, and renamed rows are told as one range, so a sorting
    // proxy ranks names once; a change scattered over more places than that is worth, or one
    // that reorders, resets. Either way a reload costs about one sort, not one per row.
    void setFriends(const QList<FriendRecord> &friends);
    // Exact presence, from a live subscription: it wins over the availability set.
    void updatePresence(const QString &id, PresenceState state, std::optional<qint64> lastSeen);
    // Coarse presence from the availability set (Online, Away or Offline): shown, fresh, for
    // rows without a live subscription. With `complete`, rows not in `states` are no longer
    // covered.
    void updateAvailability(const QHash<QString, PresenceState> &states, bool complete);
    // These friends are no longer watched: a covered row falls back to the availability set,
    // any other keeps its last status, marked not fresh.
    void markStale(const QStringList &ids);
    [[nodiscard]] int coveredCount() const { return m_coveredCount; }
    // No live connection: every row becomes unknown.
    void markAllUnknown();

    // Unread messages from a friend; announced at once (they are rare, unlike presence).
    void setUnreadCount(const QString &id, int count);
    [[nodiscard]] int unreadCount(const QString &id) const;
    [[nodiscard]] std::optional<int> rowOf(const QString &id) const;
    // Rows without a QVariant each, for a proxy that goes over all of them.
    [[nodiscard]] const QString &idAt(int row) const { return m_rows.at(row).id; }
    [[nodiscard]] const QString &nameAt(int row) const { return m_rows.at(row).name; }
    // While modelReset is being told: per row, the row the same friend with the same name had
    // before the reset, or -1 (new, or renamed). A sorting proxy keeps the order it knew of
    // those instead of ranking every name again. Empty at any other time.
    [[nodiscard]] const std::vector<int> &carriedOver() const { return m_carriedOver; }
    [[nodiscard]] PresenceState stateAt(int row) const { return m_rows.at(row).state; }
    // What SortStatusRole says of a row, without a QVariant.
    [[nodiscard]] PresenceState sortStatusAt(int row) const { return m_rows.at(row).announced; }
    [[nodiscard]] int countIn(PresenceState state) const;
    // Rows in `state` that are known live (fresh), and rows known live at all.
    [[nodiscard]] int countLiveIn(PresenceState state) const;
    [[nodiscard]] int liveCount() const;

    void setFlushInterval(std::chrono::milliseconds interval);
    [[nodiscard]] std::chrono::milliseconds flushInterval() const;
    // Tells views about pending changes now (tests, and before a synchronous read).
    void flush();

Q_SIGNALS:
    // A flush finished telling views its runs: sorting proxies move rows now, once.
    void presenceFlushed();

private:
    struct Row {
        QString id;
        QString name;
        PresenceState state = PresenceState::Unknown;
        PresenceState announced = PresenceState::Unknown; // what SortStatusRole says
        std::optional<qint64> lastSeen;
        bool fresh = false; // live: from the subscription or the availability set
        bool exactLive = false; // the subscription is live; state is its word
        bool nameShared = false;
        std::optional<PresenceState> coarse; // while covered by the availability set
        std::optional<qint64> staleSince; // when it stopped being live (not fresh)
        int unread = 0;
        // A hash of what makes two names look alike (see findSharedNames). 32 bits fit
        // beside unread; the few collisions among 100,000 rows are settled as text.
        quint32 nameKey = 0;
    };

    [[nodiscard]] static PresenceState sortStateOf(const Row &row)
    {
        return row.fresh ? row.state : PresenceState::Unknown;
    }
    // Sets what a row shows from what is known of it; marks it dirty if that changed.
    void show(int row, PresenceState state, std::optional<qint64> lastSeen, bool fresh);
    void markDirty(int row);
    [[nodiscard]] static const QString &shownName(const Row &row);
    [[nodiscard]] static quint32 nameKeyOf(const Row &row);
    // Sets nameShared on every row, from the rows' nameKey.
    void findSharedNames();
    // setFriends of a list without duplicates, in place or by a reset.
    void apply(const QList<FriendRecord> &friends, const std::vector<int> &from);
    // setFriends by inserting and removing rows; false (nothing done) when rows that stay
    // would have to move. `from` is, per friend, its row before or -1 for a new one.
    bool applyInPlace(const QList<FriendRecord> &friends, const std::vector<int> &from);
    void reset(const QList<FriendRecord> &friends, const std::vector<int> &from);
    // The id index and the changes not yet told, after rows moved (`to`: per row before, its
    // row now or -1).
    void renumber(const QList<FriendRecord> &friends, const std::vector<int> &from,
        const std::vector<int> &to);

    QList<Row> m_rows;
    QHash<QString, int> m_rowOfId;
    std::vector<int> m_carriedOver; // see carriedOver()
    int m_coveredCount = 0;
    std::vector<int> m_dirtyRows;
    std::vector<bool> m_isDirty;
    QTimer m_flushTimer;
};

} // namespace Presence::Models
