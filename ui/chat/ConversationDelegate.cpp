#include "ui/chat/ConversationDelegate.h"

// C++
#include <algorithm>

// Qt
#include <QApplication>
#include <QFontMetrics>
#include <QLocale>
#include <QPainter>
#include <QStyle>
#include <QTimeZone>

// Presence
#include "models/ConversationListModel.h"
#include "models/PresenceState.h"
#include "ui/PaletteColors.h"
#include "ui/PresenceMark.h"
#include "ui/PresenceText.h"
#include "ui/friends/FriendDelegate.h"

using namespace Qt::StringLiterals;

namespace Presence::Ui {

using Models::ConversationListModel;
using Models::PresenceState;

namespace {

constexpr int kGap = 6; // between the name and the time, the preview and the badge

void paintAvatar(
    QPainter *painter, const QRect &rect, const QString &id, const QString &name, const QFont &font)
{
    const QColor fill = FriendDelegate::avatarColor(id);
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawEllipse(QRectF(rect));
    QString letters = FriendDelegate::initials(name);
    if (letters.isEmpty())
        letters = FriendDelegate::initials(id);
    QFont avatarFont = font;
    avatarFont.setBold(true);
    avatarFont.setPixelSize(std::max(1, qRound(rect.height() * 0.38)));
    painter->setFont(avatarFont);
    painter->setPen(FriendDelegate::avatarTextColor(fill));
    painter->drawText(
        rect, Qt::AlignCenter | Qt::TextSingleLine, letters.isEmpty() ? u"?"_s : letters);
}

void paintBadge(QPainter *painter, const QRect &rect, const QString &text, const QFont &font,
    const QColor &fill, const QColor &ink)
{
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    const qreal radius = rect.height() / 2.0;
    painter->drawRoundedRect(QRectF(rect), radius, radius);
    painter->setFont(font);
    painter->setPen(ink);
    painter->drawText(rect, Qt::AlignCenter | Qt::TextSingleLine, text);
}

} // namespace

ConversationDelegate::ConversationDelegate(QObject *parent)
    : ClockedDelegate(parent)
{
}

QString ConversationDelegate::timeText(qint64 ts, const QDateTime &now)
{
    if (ts <= 0)
        return {};
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(ts, now.timeZone());
    if (when.date() == now.date())
        return PresenceText::timeOfDay(when.time());
    return QLocale().toString(when.date(), QLocale::ShortFormat);
}

QString ConversationDelegate::previewText(const QModelIndex &index)
{
    QString text = index.data(ConversationListModel::LastTextRole).toString().simplified();
    if (index.data(ConversationListModel::LastFromSelfRole).toBool())
        //: The preview of a chat whose latest message is ours.
        return tr("You: %1").arg(text);
    return text;
}

QString ConversationDelegate::accessibleText(const QModelIndex &index, const QDateTime &now)
{
    QStringList parts { index.data(ConversationListModel::NameRole).toString() };
    const int unread = index.data(ConversationListModel::UnreadRole).toInt();
    if (unread > 0)
        parts.append(tr("%n unread", nullptr, unread));
    parts.append(previewText(index));
    parts.append(timeText(index.data(ConversationListModel::LastTimestampRole).toLongLong(), now));
    return parts.join(u", "_s);
}

QSize ConversationDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const QFontMetrics fm(option.font);
    return { 20 * fm.averageCharWidth(), FriendDelegate::rowHeight(option.font) };
}

void ConversationDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the style draws the panel only; the words are ours
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const QPalette::ColorGroup group = PaletteColors::colorGroupOf(opt);
    const bool selected = opt.state.testFlag(QStyle::State_Selected);
    const QColor background
        = opt.palette.color(group, selected ? QPalette::Highlight : QPalette::Base);
    const QColor text
        = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor secondary = PaletteColors::mix(text, background, 0.35);

    const QString id = index.data(ConversationListModel::FriendIdRole).toString();
    const QString name = index.data(ConversationListModel::NameRole).toString();
    const int unread = index.data(ConversationListModel::UnreadRole).toInt();
    const auto presence = PresenceState(index.data(ConversationListModel::PresenceRole).toInt());
    const bool fresh = index.data(ConversationListModel::FreshRole).toBool();

    // The friend list's geometry: avatar, then two lines of text.
    const FriendDelegate::RowLayout parts = FriendDelegate::layout(opt);
    const QRect nameLine = parts.name;
    const QRect previewLine(
        nameLine.left(), parts.status.top(), nameLine.width(), parts.status.height());

    painter->save();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->setLayoutDirection(Qt::LayoutDirectionAuto);

    paintAvatar(painter, parts.avatar, id, name, opt.font);
    // The presence mark on the avatar's trailing bottom corner, ringed with the background.
    const int markSize = std::max(8, parts.avatar.height() * 2 / 5);
    const QRect mark = QStyle::alignedRect(
        opt.direction, Qt::AlignRight | Qt::AlignBottom, QSize(markSize, markSize), parts.avatar);
    painter->setPen(Qt::NoPen);
    painter->setBrush(background);
    painter->drawEllipse(QRectF(mark).adjusted(-1.5, -1.5, 1.5, 1.5));
    QPalette markPalette = opt.palette;
    markPalette.setColor(QPalette::Base, background);
    markPalette.setColor(QPalette::Text, text);
    const PresenceState shown = fresh ? presence : PresenceState::Unknown;
    PresenceMark::paint(painter, mark, shown, PresenceMark::color(shown, markPalette));

    const int alignment
        = int(QStyle::visualAlignment(opt.direction, Qt::AlignLeft | Qt::AlignVCenter))
        | Qt::TextSingleLine;
    const int trailing
        = int(QStyle::visualAlignment(opt.direction, Qt::AlignRight | Qt::AlignVCenter))
        | Qt::TextSingleLine;
    const bool rtl = opt.direction == Qt::RightToLeft;

    // Name line: the time at the trailing end, the name in what is left.
    QFont small = opt.font;
    small.setPointSizeF(std::max(1.0, opt.font.pointSizeF() * 0.9));
    const QString when
        = timeText(index.data(ConversationListModel::LastTimestampRole).toLongLong(), now());
    const int timeWidth = QFontMetrics(small).horizontalAdvance(when);
    QRect nameRect = nameLine;
    if (rtl)
        nameRect.setLeft(nameLine.left() + timeWidth + kGap);
    else
        nameRect.setRight(nameLine.right() - timeWidth - kGap);
    painter->setFont(small);
    painter->setPen(
        unread > 0 && !selected ? opt.palette.color(group, QPalette::Highlight) : secondary);
    painter->drawText(nameLine, trailing, when);
    QFont nameFont = opt.font;
    nameFont.setBold(unread > 0);
    painter->setFont(nameFont);
    painter->setPen(text);
    painter->drawText(nameRect, alignment,
        QFontMetrics(nameFont).elidedText(name, Qt::ElideRight, nameRect.width()));

    // Preview line: the badge at the trailing end.
    QRect previewRect = previewLine;
    if (unread > 0) {
        QFont badgeFont = opt.font;
        badgeFont.setBold(true);
        const QFontMetrics fm(badgeFont);
        const QString count = FriendDelegate::unreadBadgeText(unread);
        const int height = std::min(previewLine.height(), fm.height());
        const int width = std::max(height, fm.horizontalAdvance(count) + height / 2);
        const QRect badge = QStyle::alignedRect(
            opt.direction, Qt::AlignRight | Qt::AlignVCenter, QSize(width, height), previewLine);
        paintBadge(painter, badge, count, badgeFont,
            opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Highlight),
            opt.palette.color(group, selected ? QPalette::Highlight : QPalette::HighlightedText));
        if (rtl)
            previewRect.setLeft(badge.right() + 1 + kGap);
        else
            previewRect.setRight(badge.left() - 1 - kGap);
    }
    painter->setFont(opt.font);
    painter->setPen(unread > 0 ? text : secondary);
    painter->drawText(previewRect, alignment,
        QFontMetrics(opt.font).elidedText(previewText(index), Qt::ElideRight, previewRect.width()));

    paintFocusFrame(painter, opt, background);
    painter->restore();
}

} // namespace Presence::Ui
