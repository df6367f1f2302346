#include "ui/PresenceText.h"

// C++
#include <algorithm>

// Qt
#include <QLocale>
#include <QModelIndex>
#include <QRegularExpression>

// Presence
#include "models/FriendListModel.h"

using namespace Qt::StringLiterals;

namespace Presence::Ui {

using Models::FriendListModel;
using Models::PresenceState;

namespace {

constexpr qint64 kMinuteMs = 60 * 1000;
constexpr qint64 kHourMs = 60 * kMinuteMs;
// Across midnight, "9 h ago" says more than "yesterday" until this long ago.
constexpr qint64 kHoursAcrossMidnightMs = 12 * kHourMs;

PresenceState stateFromVariant(const QVariant &value)
{
    bool ok = false;
    const int raw = value.toInt(&ok);
    if (!ok)
        return PresenceState::Unknown;
    switch (static_cast<PresenceState>(raw)) {
    case PresenceState::Unknown:
    case PresenceState::Offline:
    case PresenceState::Away:
    case PresenceState::Online:
        return static_cast<PresenceState>(raw);
    }
    return PresenceState::Unknown;
}

} // namespace

FriendPresence FriendPresence::fromIndex(const QModelIndex &index)
{
    FriendPresence presence;
    if (!index.isValid())
        return presence;
    presence.id = index.data(FriendListModel::IdRole).toString();
    presence.name = index.data(FriendListModel::NameRole).toString();
    if (presence.name.isEmpty())
        presence.name = index.data(Qt::DisplayRole).toString();
    if (presence.name.isEmpty())
        presence.name = presence.id;
    presence.state = stateFromVariant(index.data(FriendListModel::StatusRole));
    presence.unread = std::max(0, index.data(FriendListModel::UnreadRole).toInt());
    presence.nameShared = index.data(FriendListModel::NameSharedRole).toBool();
    const QVariant lastSeen = index.data(FriendListModel::LastSeenRole);
    bool ok = false;
    const qint64 ms = lastSeen.toLongLong(&ok);
    if (lastSeen.isValid() && ok)
        presence.lastSeen = ms;
    presence.fresh = index.data(FriendListModel::FreshRole).toBool();
    const QVariant staleSince = index.data(FriendListModel::StaleSinceRole);
    const qint64 since = staleSince.toLongLong(&ok);
    if (staleSince.isValid() && ok)
        presence.staleSince = since;
    return presence;
}

QString PresenceText::statusLine(
    PresenceState state, std::optional<qint64> lastSeenMs, const QDateTime &now)
{
    switch (state) {
    case PresenceState::Online:
        return tr("online");
    case PresenceState::Away:
        return tr("away");
    case PresenceState::Offline:
        return lastSeenMs ? lastSeen(*lastSeenMs, now) : tr("offline");
    case PresenceState::Unknown:
        break;
    }
    return tr("status unknown");
}

QString PresenceText::statusLine(const FriendPresence &presence, const QDateTime &now)
{
    const bool available
        = presence.state == PresenceState::Online || presence.state == PresenceState::Away;
    if (presence.fresh || !available)
        return statusLine(presence.state, presence.lastSeen, now);
    if (!presence.staleSince)
        return tr("status unknown");
    const qint64 ago = now.toMSecsSinceEpoch() - *presence.staleSince;
    const bool online = presence.state == PresenceState::Online;
    //: A friend no longer watched: what was known, and how long ago.
    if (ago < kMinuteMs)
        return online ? tr("online moments ago") : tr("away moments ago");
    if (ago < kHourMs) {
        const qint64 minutes = ago / kMinuteMs;
        return online ? tr("online %1 min ago").arg(minutes) : tr("away %1 min ago").arg(minutes);
    }
    const qint64 hours = ago / kHourMs;
    return online ? tr("online %1 h ago").arg(hours) : tr("away %1 h ago").arg(hours);
}

QString PresenceText::lastSeen(qint64 lastSeenMs, const QDateTime &now)
{
    const qint64 ago = now.toMSecsSinceEpoch() - lastSeenMs;
    if (ago < kMinuteMs)
        return tr("last seen just now");
    if (ago < kHourMs)
        return tr("last seen %1 min ago").arg(ago / kMinuteMs);

    // The calendar of `now`: addMSecs keeps its time spec or zone.
    const QDate seenDay = now.addMSecs(-ago).date();
    const QDate today = now.date();
    if (seenDay == today || ago < kHoursAcrossMidnightMs)
        return tr("last seen %1 h ago").arg(ago / kHourMs);
    if (seenDay == today.addDays(-1))
        return tr("last seen yesterday");
    const QLocale locale;
    if (seenDay.year() == today.year())
        return tr("last seen %1").arg(locale.toString(seenDay, u"d MMM"_s));
    return tr("last seen %1").arg(locale.toString(seenDay, u"d MMM yyyy"_s));
}

QString PresenceText::timeOfDay(const QTime &time)
{
    const QLocale locale;
    // The seconds field with the separator before it ("HH:mm:ss" -> "HH:mm").
    static const QRegularExpression seconds(u"[^A-Za-z']*s{1,2}"_s);
    QString format = locale.timeFormat(QLocale::ShortFormat);
    format.remove(seconds);
    return locale.toString(time, format.trimmed());
}

QString PresenceText::summary(const FriendPresence &presence, const QDateTime &now)
{
    //: A friend-list tooltip and accessible text: the friend's name, their handle (@id), then
    //: the presence.
    QString text
        = tr("%1 (%2) — %3").arg(presence.name, handle(presence.id), statusLine(presence, now));
    if (presence.unread <= 0)
        return text;
    //: Appended to a friend's summary when they sent messages not read yet.
    return presence.unread == 1
        ? tr("%1, 1 unread message").arg(text)
        : tr("%1, %2 unread messages").arg(text, QString::number(presence.unread));
}

QString PresenceText::handle(const QString &id)
{
    return u'@' + id;
}

QString PresenceText::summary(const QModelIndex &index, const QDateTime &now)
{
    if (!index.isValid())
        return {};
    return summary(FriendPresence::fromIndex(index), now);
}

} // namespace Presence::Ui
