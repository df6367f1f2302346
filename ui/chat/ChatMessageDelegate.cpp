#include "ui/chat/ChatMessageDelegate.h"

// C++
#include <algorithm>

// Qt
#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QTextCharFormat>
#include <QTextLayout>
#include <QTimeZone>
#include <QToolTip>

// Presence
#include "models/ChatModel.h"
#include "ui/PaletteColors.h"
#include "ui/PresenceText.h"
#include "ui/chat/EmojiRuns.h"

using namespace Qt::StringLiterals;

namespace Presence::Ui {

using Models::ChatModel;
using Models::Delivery;

namespace {

// Logical pixels.
constexpr int kRowPaddingH = 10;
constexpr int kGroupGap = 4; // above the first and under the last bubble of a group
constexpr int kGroupedGap = 1; // between bubbles of one group
constexpr int kBubblePaddingH = 10;
constexpr int kBubblePaddingV = 6;
constexpr int kMetaGap = 2;
constexpr int kSeparatorPaddingV = 6; // around the day chip and the unread divider
constexpr int kChipPaddingH = 10;
constexpr int kChipPaddingV = 3;
constexpr qreal kBubbleRadius = 9;
constexpr qreal kMaxBubbleShare = 0.78; // of the row's width
constexpr int kMinBubbleTextWidth = 80;
constexpr qreal kPendingFade = 0.7; // of the way from the highlight to the base colour

QFont metaFontOf(const QFont &font)
{
    QFont meta = font;
    meta.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    if (font.pointSizeF() <= 0)
        meta.setPixelSize(std::max(8, qRound(font.pixelSize() * 0.85)));
    return meta;
}

Delivery deliveryOf(const QModelIndex &index)
{
    return Delivery(index.data(ChatModel::DeliveryRole).toInt());
}

// QTextLayout takes '\n' for a space: a line break typed with Shift+Enter must be a
// Unicode line separator to start a new line.
QString withLineSeparators(QString text)
{
    text.replace(u"\r\n"_s, u"\n"_s);
    text.replace(u'\n', QChar::LineSeparator);
    text.replace(u'\r', QChar::LineSeparator);
    return text;
}

// Lays `layout` out in lines of at most `width`; returns the size the lines take.
QSizeF layoutLines(QTextLayout &layout, qreal width)
{
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.setCacheEnabled(true);
    qreal height = 0;
    qreal widest = 0;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        line.setPosition({ 0, height });
        height += line.height();
        widest = std::max(widest, line.naturalTextWidth());
    }
    layout.endLayout();
    return { std::ceil(widest), std::ceil(height) };
}

int availableWidth(const QStyleOptionViewItem &option)
{
    // The view's width first: QListView asks for size hints with option.rect set to its
    // contents' size (the widest row so far), which would wrap text too narrow.
    if (const auto *view = qobject_cast<const QAbstractItemView *>(option.widget))
        return view->viewport()->width();
    if (option.rect.width() > 0)
        return option.rect.width();
    return 400;
}

// The colours of one row, from the palette and the message's state.
struct RowColors {
    QColor base;
    QColor ink; // the base's text colour
    QColor fill; // the bubble
    QColor text; // on the bubble
    QColor link;
    QColor meta;
    bool pending = false;
    bool failed = false;
};

RowColors colorsOf(const QStyleOptionViewItem &option, const QModelIndex &index)
{
    const QPalette::ColorGroup group = PaletteColors::colorGroupOf(option);
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    const Delivery delivery = deliveryOf(index);
    RowColors colors;
    colors.pending = delivery == Delivery::Queued || delivery == Delivery::Sending
        || delivery == Delivery::Unconfirmed;
    colors.failed = delivery == Delivery::Failed;
    colors.base = option.palette.color(group, QPalette::Base);
    colors.ink = option.palette.color(group, QPalette::Text);
    colors.fill = outgoing ? option.palette.color(group, QPalette::Highlight)
                           : PaletteColors::mix(colors.base, colors.ink, 0.08);
    colors.text = outgoing ? option.palette.color(group, QPalette::HighlightedText) : colors.ink;
    if (colors.pending && outgoing) {
        // Not acknowledged: a paler bubble with the base colour's text, so the words stay
        // as readable as ever while the bubble says "not there yet".
        colors.fill = PaletteColors::mix(colors.fill, colors.base, kPendingFade);
        colors.text = colors.ink;
    }
    if (colors.failed) {
        colors.fill = colors.base;
        colors.text = colors.ink;
    }
    // On our highlighted bubble the link colour may not read: the underline marks links there.
    colors.link
        = colors.text == colors.ink ? option.palette.color(group, QPalette::Link) : colors.text;
    colors.meta = colors.failed ? PaletteColors::errorColor(option.palette)
                                : PaletteColors::mix(colors.text, colors.fill, 0.3);
    return colors;
}

QList<QTextLayout::FormatRange> linkFormats(
    const QList<MessageLinks::Link> &links, const QColor &color)
{
    QList<QTextLayout::FormatRange> formats;
    for (const MessageLinks::Link &link : links) {
        QTextCharFormat format;
        format.setFontUnderline(true);
        format.setForeground(color);
        formats.append({ link.start, link.length, format });
    }
    return formats;
}

QString timeText(const QModelIndex &index, const QDateTime &now, bool withDate)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(
        index.data(ChatModel::TimestampRole).toLongLong(), now.timeZone());
    const QLocale locale;
    QString time = PresenceText::timeOfDay(when.time());
    if (!withDate || when.date() == now.date())
        return time;
    return ChatMessageDelegate::tr("%1, %2").arg(
        locale.toString(when.date(), QLocale::ShortFormat), time);
}

QString withDelivery(const QModelIndex &index, const QString &time)
{
    if (!index.data(ChatModel::OutgoingRole).toBool())
        return time;
    switch (deliveryOf(index)) {
    case Delivery::Queued:
        return ChatMessageDelegate::tr("%1 · waiting for connection").arg(time);
    case Delivery::Sending:
        return ChatMessageDelegate::tr("%1 · sending…").arg(time);
    case Delivery::Unconfirmed:
        return ChatMessageDelegate::tr("%1 · not confirmed yet").arg(time);
    case Delivery::Delivered:
        return ChatMessageDelegate::tr("%1 · sent").arg(time);
    case Delivery::Failed:
        return ChatMessageDelegate::tr("%1 · not sent").arg(time);
    }
    return time;
}

} // namespace

ChatMessageDelegate::ChatMessageDelegate(QObject *parent)
    : ClockedDelegate(parent)
{
}

QString ChatMessageDelegate::metaText(const QModelIndex &index, const QDateTime &now)
{
    // The day is the separator's to say: the line under a message gives the time only.
    return withDelivery(index, timeText(index, now, false));
}

QString ChatMessageDelegate::accessibleText(
    const QModelIndex &index, const QString &friendName, const QDateTime &now)
{
    if (!index.isValid())
        return {};
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    QString text = tr("%1, %2: %3")
                       .arg(outgoing ? tr("You") : friendName,
                           withDelivery(index, timeText(index, now, true)),
                           index.data(ChatModel::TextRole).toString());
    const QString error = index.data(ChatModel::ErrorRole).toString();
    if (!error.isEmpty())
        text += u" — "_s + error;
    return text;
}

ChatMessageDelegate::BubbleLayout ChatMessageDelegate::layout(
    const QStyleOptionViewItem &option, const QModelIndex &index, QTextLayout *textLayout) const
{
    const int width = availableWidth(option);
    const int maxText = std::max(kMinBubbleTextWidth,
        std::min(kMaxBubbleWidth, int(width * kMaxBubbleShare)) - 2 * kBubblePaddingH
            - 2 * kRowPaddingH);
    const QDateTime clock = now();
    BubbleLayout parts;
    parts.context = ChatRowContext::of(index, clock, m_firstUnreadId);

    QTextLayout local;
    QTextLayout &text = textLayout ? *textLayout : local;
    text.setText(withLineSeparators(index.data(ChatModel::TextRole).toString()));
    text.setFont(option.font);
    parts.links = MessageLinks::find(text.text());
    text.setFormats(
        linkFormats(parts.links, colorsOf(option, index).link) + EmojiRuns::formats(text.text()));
    const QSizeF textSize = layoutLines(text, maxText);

    const QFont metaFont = metaFontOf(option.font);
    const QFontMetrics metaMetrics(metaFont);
    if (parts.context.showsMeta)
        parts.metaText = metaText(index, clock); // formatted once: paint draws this one
    const int metaHeight = parts.context.showsMeta ? kMetaGap + metaMetrics.height() : 0;
    const int metaWidth = parts.context.showsMeta
        ? std::min(maxText, metaMetrics.horizontalAdvance(parts.metaText) + 1)
        : 0;

    // What goes above the bubble: the day, then the divider, each centred in the row.
    int top = option.rect.top();
    const int chipHeight = metaMetrics.height() + 2 * kChipPaddingV;
    if (parts.context.dayStarts) {
        parts.dayText = ChatRowContext::dayText(*parts.context.dayStarts, clock.date());
        const QSize chip(
            metaMetrics.horizontalAdvance(parts.dayText) + 1 + 2 * kChipPaddingH, chipHeight);
        const QRect band(option.rect.left(), top, width, chip.height() + 2 * kSeparatorPaddingV);
        parts.daySeparator = QStyle::alignedRect(option.direction, Qt::AlignCenter, chip, band);
        top = band.bottom() + 1;
    }
    if (parts.context.unreadDivider) {
        parts.unreadDivider = QRect(option.rect.left() + kRowPaddingH, top + kSeparatorPaddingV,
            width - 2 * kRowPaddingH, chipHeight);
        top = parts.unreadDivider.bottom() + 1 + kSeparatorPaddingV;
    }

    const int innerWidth = std::max(int(textSize.width()), metaWidth);
    const QSize bubbleSize(innerWidth + 2 * kBubblePaddingH,
        int(textSize.height()) + metaHeight + 2 * kBubblePaddingV);
    const int above = parts.context.joinsPrevious ? kGroupedGap : kGroupGap;
    const QRect content(option.rect.left() + kRowPaddingH, top + above, width - 2 * kRowPaddingH,
        bubbleSize.height());
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    const Qt::Alignment side = (outgoing ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop;

    parts.bubble = QStyle::alignedRect(option.direction, side, bubbleSize, content);
    const QRect inner = parts.bubble.adjusted(
        kBubblePaddingH, kBubblePaddingV, -kBubblePaddingH, -kBubblePaddingV);
    parts.text = QRectF(inner.topLeft(), textSize);
    if (parts.context.showsMeta) {
        parts.meta = QRect(inner.left(), inner.top() + int(textSize.height()) + kMetaGap,
            inner.width(), metaMetrics.height());
    }
    return parts;
}

QSize ChatMessageDelegate::sizeHint(
    const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const BubbleLayout parts = layout(option, index);
    const int below = parts.context.joinsNext ? kGroupedGap : kGroupGap;
    return { std::max(parts.bubble.width() + 2 * kRowPaddingH, parts.daySeparator.width()),
        parts.bubble.bottom() + 1 + below - option.rect.top() };
}

std::optional<QUrl> ChatMessageDelegate::linkAt(
    const QStyleOptionViewItem &option, const QModelIndex &index, const QPointF &pos) const
{
    QTextLayout text;
    const BubbleLayout parts = layout(option, index, &text);
    if (parts.links.isEmpty() || !parts.text.contains(pos))
        return std::nullopt;
    const QPointF local = pos - parts.text.topLeft();
    for (int i = 0; i < text.lineCount(); ++i) {
        const QTextLine line = text.lineAt(i);
        if (line.naturalTextRect().contains(local))
            return MessageLinks::at(
                parts.links, line.xToCursor(local.x(), QTextLine::CursorOnCharacter));
    }
    return std::nullopt;
}

void ChatMessageDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the bubble draws the text
    const bool current = opt.state & QStyle::State_HasFocus;
    // No full-width band for a selected, current or hovered row (a right-click selects):
    // the bubble is the message.
    opt.state &= ~(QStyle::State_Selected | QStyle::State_HasFocus | QStyle::State_MouseOver);
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const RowColors colors = colorsOf(opt, index);

    QTextLayout text;
    const BubbleLayout parts = layout(opt, index, &text);

    painter->save();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    const QFont metaFont = metaFontOf(opt.font);
    const QFontMetrics metaMetrics(metaFont);
    const QColor quiet = PaletteColors::mix(colors.ink, colors.base, 0.35);

    if (!parts.daySeparator.isEmpty()) {
        QPainterPath chip;
        const qreal radius = parts.daySeparator.height() / 2.0;
        chip.addRoundedRect(QRectF(parts.daySeparator), radius, radius);
        painter->fillPath(chip, PaletteColors::mix(colors.base, colors.ink, 0.08));
        painter->setFont(metaFont);
        painter->setPen(quiet);
        painter->drawText(parts.daySeparator, Qt::AlignCenter | Qt::TextSingleLine,
            metaMetrics.elidedText(parts.dayText, Qt::ElideRight, parts.daySeparator.width()));
    }
    if (!parts.unreadDivider.isEmpty()) {
        // A rule across the row with the words on it, in the highlight: where reading resumes.
        const QColor accent
            = opt.palette.color(PaletteColors::colorGroupOf(opt), QPalette::Highlight);
        const QString words = tr("New messages");
        const int wordsWidth = metaMetrics.horizontalAdvance(words) + 2 * kChipPaddingH;
        const QRect label = QStyle::alignedRect(opt.direction, Qt::AlignCenter,
            { wordsWidth, parts.unreadDivider.height() }, parts.unreadDivider);
        const qreal y = parts.unreadDivider.center().y() + 0.5; // crisp: on a pixel's centre
        painter->setPen(QPen(accent, 1));
        painter->drawLine(QLineF(parts.unreadDivider.left(), y, label.left(), y));
        painter->drawLine(QLineF(label.right(), y, parts.unreadDivider.right(), y));
        painter->setFont(metaFont);
        painter->drawText(label, Qt::AlignCenter | Qt::TextSingleLine, words);
    }

    QPainterPath bubble;
    bubble.addRoundedRect(
        QRectF(parts.bubble).adjusted(0.5, 0.5, -0.5, -0.5), kBubbleRadius, kBubbleRadius);
    painter->fillPath(bubble, colors.fill);
    if (colors.pending || colors.failed) {
        // Not acknowledged: a dashed outline; refused: a solid one in the error colour.
        QPen outline(colors.failed ? PaletteColors::errorColor(opt.palette)
                                   : PaletteColors::mix(colors.text, colors.fill, 0.2),
            1.2);
        if (colors.pending)
            outline.setStyle(Qt::DashLine);
        painter->setPen(outline);
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(bubble);
    }
    if (current) {
        // The message Ctrl+C copies: a ring inside the bubble's edge, in the highlight where
        // that stands out from the bubble (3:1, WCAG's minimum for a focus indicator), else in
        // the bubble's text colour: our own bubbles are filled with the highlight.
        QPainterPath ring;
        ring.addRoundedRect(
            QRectF(parts.bubble).adjusted(1, 1, -1, -1), kBubbleRadius - 1, kBubbleRadius - 1);
        const QColor highlight
            = opt.palette.color(PaletteColors::colorGroupOf(opt), QPalette::Highlight);
        constexpr qreal kFocusContrast = 3.0;
        painter->setPen(
            QPen(PaletteColors::contrast(highlight, colors.fill) >= kFocusContrast ? highlight
                                                                                   : colors.text,
                2));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(ring);
    }

    painter->setPen(colors.text);
    text.draw(painter, parts.text.topLeft());

    if (!parts.meta.isEmpty()) {
        const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
        painter->setFont(metaFont);
        painter->setPen(colors.meta);
        const int metaAlign
            = int(QStyle::visualAlignment(opt.direction, outgoing ? Qt::AlignRight : Qt::AlignLeft))
            | Qt::AlignVCenter | Qt::TextSingleLine;
        painter->drawText(parts.meta, metaAlign,
            metaMetrics.elidedText(parts.metaText, Qt::ElideRight, parts.meta.width()));
    }
    painter->restore();
}

bool ChatMessageDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
    const QStyleOptionViewItem &option, const QModelIndex &index)
{
    if (event && view && index.isValid() && event->type() == QEvent::ToolTip) {
        const QDateTime when
            = QDateTime::fromMSecsSinceEpoch(index.data(ChatModel::TimestampRole).toLongLong());
        QString tip = QLocale().toString(when, QLocale::LongFormat);
        const QString error = index.data(ChatModel::ErrorRole).toString();
        if (!error.isEmpty())
            tip = error + u'\n' + tr("Right-click to send it again or discard it.");
        else if (deliveryOf(index) == Delivery::Queued)
            tip = tr("Goes out as soon as the connection is back.");
        else if (deliveryOf(index) == Delivery::Unconfirmed)
            tip = tr("The connection dropped before the gateway confirmed this message; it is "
                     "checked and, if needed, sent again once reconnected.");
        QToolTip::showText(event->globalPos(), tip, view->viewport(), option.rect);
        return true;
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace Presence::Ui
