#include "ui/chat/ChatRowContext.h"

// Qt
#include <QLocale>
#include <QModelIndex>
#include <QTimeZone>

// Presence
#include "models/ChatModel.h"

namespace Presence::Ui {

using Models::ChatModel;
using Models::Delivery;

namespace {

QDate dayOf(const QModelIndex &index, const QDateTime &now)
{
    return QDateTime::fromMSecsSinceEpoch(
        index.data(ChatModel::TimestampRole).toLongLong(), now.timeZone())
        .date();
}

bool isUnreadMarker(const QModelIndex &index, const QString &firstUnreadId)
{
    return !firstUnreadId.isEmpty() && index.data(ChatModel::IdRole).toString() == firstUnreadId;
}

// Whether `later` continues the group of `earlier`, the row just before it.
bool joins(const QModelIndex &earlier, const QModelIndex &later, const QDateTime &now,
    const QString &firstUnreadId)
{
    if (!earlier.isValid() || !later.isValid() || isUnreadMarker(later, firstUnreadId))
        return false;
    if (earlier.data(ChatModel::FromRole) != later.data(ChatModel::FromRole))
        return false;
    if (dayOf(earlier, now) != dayOf(later, now))
        return false;
    const qint64 gap = later.data(ChatModel::TimestampRole).toLongLong()
        - earlier.data(ChatModel::TimestampRole).toLongLong();
    // Our own messages in flight carry the local clock: allow them a little disorder.
    return qAbs(gap) <= std::chrono::milliseconds(ChatRowContext::kGroupGap).count();
}

} // namespace

ChatRowContext ChatRowContext::of(
    const QModelIndex &index, const QDateTime &now, const QString &firstUnreadId)
{
    ChatRowContext context;
    if (!index.isValid())
        return context;
    const QModelIndex previous = index.siblingAtRow(index.row() - 1);
    const QModelIndex next = index.siblingAtRow(index.row() + 1);
    const QDate day = dayOf(index, now);
    if (!previous.isValid() || dayOf(previous, now) != day)
        context.dayStarts = day;
    context.unreadDivider = isUnreadMarker(index, firstUnreadId);
    context.joinsPrevious = joins(previous, index, now, firstUnreadId);
    context.joinsNext = joins(index, next, now, firstUnreadId);
    const bool delivered
        = Delivery(index.data(ChatModel::DeliveryRole).toInt()) == Delivery::Delivered;
    context.showsMeta = !context.joinsNext || !delivered;
    return context;
}

QString ChatRowContext::dayText(QDate day, QDate today)
{
    if (day == today)
        return tr("Today");
    if (day == today.addDays(-1))
        return tr("Yesterday");
    return QLocale().toString(day, QLocale::LongFormat);
}

} // namespace Presence::Ui
