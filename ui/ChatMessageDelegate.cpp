#include "ui/ChatMessageDelegate.h"

#include "models/ChatModel.h"
#include "ui/PaletteColors.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QTextLayout>
#include <QTimeZone>
#include <QToolTip>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Presence::Ui {

using Models::ChatModel;
using Models::Delivery;

namespace {

// Logical pixels.
constexpr int kRowPaddingH = 10;
constexpr int kRowPaddingV = 3;
constexpr int kBubblePaddingH = 10;
constexpr int kBubblePaddingV = 6;
constexpr int kMetaGap = 2;
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

} // namespace

ChatMessageDelegate::ChatMessageDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

void ChatMessageDelegate::setNowFunction(NowFunction now)
{
    m_now = std::move(now);
}

QDateTime ChatMessageDelegate::now() const
{
    return m_now ? m_now() : QDateTime::currentDateTime();
}

QString ChatMessageDelegate::metaText(const QModelIndex &index, const QDateTime &now)
{
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(
        index.data(ChatModel::TimestampRole).toLongLong(), now.timeZone());
    const QLocale locale;
    QString text = when.date() == now.date()
        ? locale.toString(when.time(), QLocale::ShortFormat)
        : tr("%1, %2").arg(locale.toString(when.date(), QLocale::ShortFormat),
            locale.toString(when.time(), QLocale::ShortFormat));
    if (!index.data(ChatModel::OutgoingRole).toBool())
        return text;
    switch (deliveryOf(index)) {
    case Delivery::Queued:
        return tr("%1 · waiting for connection").arg(text);
    case Delivery::Sending:
        return tr("%1 · sending…").arg(text);
    case Delivery::Unconfirmed:
        return tr("%1 · not confirmed yet").arg(text);
    case Delivery::Delivered:
        return tr("%1 · sent").arg(text);
    case Delivery::Failed:
        return tr("%1 · not sent").arg(text);
    }
    return text;
}

QString ChatMessageDelegate::accessibleText(
    const QModelIndex &index, const QString &friendName, const QDateTime &now)
{
    if (!index.isValid())
        return {};
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    QString text = tr("%1, %2: %3")
                       .arg(outgoing ? tr("You") : friendName, metaText(index, now),
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
    const int maxText = std::max(
        kMinBubbleTextWidth, int(width * kMaxBubbleShare) - 2 * kBubblePaddingH - 2 * kRowPaddingH);

    QTextLayout local;
    QTextLayout &text = textLayout ? *textLayout : local;
    text.setText(withLineSeparators(index.data(ChatModel::TextRole).toString()));
    text.setFont(option.font);
    const QSizeF textSize = layoutLines(text, maxText);

    const QFont metaFont = metaFontOf(option.font);
    const QFontMetrics metaMetrics(metaFont);
    BubbleLayout parts;
    parts.metaText = metaText(index, now()); // formatted once: paint draws this one
    const int metaWidth = std::min(maxText, metaMetrics.horizontalAdvance(parts.metaText) + 1);

    const int innerWidth = std::max(int(textSize.width()), metaWidth);
    const QSize bubbleSize(innerWidth + 2 * kBubblePaddingH,
        int(textSize.height()) + kMetaGap + metaMetrics.height() + 2 * kBubblePaddingV);
    const QRect row(
        option.rect.left(), option.rect.top(), width, bubbleSize.height() + 2 * kRowPaddingV);
    const QRect content = row.adjusted(kRowPaddingH, kRowPaddingV, -kRowPaddingH, -kRowPaddingV);
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    const Qt::Alignment side = (outgoing ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop;

    parts.bubble = QStyle::alignedRect(option.direction, side, bubbleSize, content);
    const QRect inner = parts.bubble.adjusted(
        kBubblePaddingH, kBubblePaddingV, -kBubblePaddingH, -kBubblePaddingV);
    parts.text = QRectF(inner.topLeft(), textSize);
    parts.meta = QRect(inner.left(), inner.top() + int(textSize.height()) + kMetaGap, inner.width(),
        metaMetrics.height());
    return parts;
}

QSize ChatMessageDelegate::sizeHint(
    const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const BubbleLayout parts = layout(option, index);
    return { parts.bubble.width() + 2 * kRowPaddingH, parts.bubble.height() + 2 * kRowPaddingV };
}

void ChatMessageDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear(); // the bubble draws the text
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const QPalette::ColorGroup group = PaletteColors::colorGroupOf(opt);
    const bool outgoing = index.data(ChatModel::OutgoingRole).toBool();
    const Delivery delivery = deliveryOf(index);
    const bool pending = delivery == Delivery::Queued || delivery == Delivery::Sending
        || delivery == Delivery::Unconfirmed;
    const bool failed = delivery == Delivery::Failed;

    const QColor base = opt.palette.color(group, QPalette::Base);
    const QColor ink = opt.palette.color(group, QPalette::Text);
    QColor fill = outgoing ? opt.palette.color(group, QPalette::Highlight)
                           : PaletteColors::mix(base, ink, 0.08);
    const QColor textColor = outgoing ? opt.palette.color(group, QPalette::HighlightedText) : ink;

    QTextLayout text;
    const BubbleLayout parts = layout(opt, index, &text);

    painter->save();
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    QColor textColorShown = textColor;
    if (pending && outgoing) {
        // Not acknowledged: a paler bubble with the base colour's text, so the words stay
        // as readable as ever while the bubble says "not there yet".
        fill = PaletteColors::mix(fill, base, kPendingFade);
        textColorShown = ink;
    }
    const QColor metaColor = failed ? PaletteColors::errorColor(opt.palette)
                                    : PaletteColors::mix(textColorShown, fill, 0.3);

    QPainterPath bubble;
    bubble.addRoundedRect(
        QRectF(parts.bubble).adjusted(0.5, 0.5, -0.5, -0.5), kBubbleRadius, kBubbleRadius);
    painter->fillPath(bubble, failed ? base : fill);
    if (pending || failed) {
        // Not acknowledged: a dashed outline; refused: a solid one in the error colour.
        QPen outline(failed ? PaletteColors::errorColor(opt.palette)
                            : PaletteColors::mix(textColorShown, fill, 0.2),
            1.2);
        if (pending)
            outline.setStyle(Qt::DashLine);
        painter->setPen(outline);
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(bubble);
    }

    painter->setPen(failed ? ink : textColorShown);
    text.draw(painter, parts.text.topLeft());

    const QFont metaFont = metaFontOf(opt.font);
    painter->setFont(metaFont);
    painter->setPen(metaColor);
    const int metaAlign
        = int(QStyle::visualAlignment(opt.direction, outgoing ? Qt::AlignRight : Qt::AlignLeft))
        | Qt::AlignVCenter | Qt::TextSingleLine;
    painter->drawText(parts.meta, metaAlign,
        QFontMetrics(metaFont).elidedText(parts.metaText, Qt::ElideRight, parts.meta.width()));
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
