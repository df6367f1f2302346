#include "ui/friends/FriendDelegate.h"

// C++
#include <algorithm>
#include <cmath>
#include <utility>

// Qt
#include <QAbstractItemView>
#include <QApplication>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPalette>
#include <QStyle>
#include <QToolTip>

// Presence
#include "ui/PaletteColors.h"
#include "ui/PresenceMark.h"
#include "ui/PresenceText.h"

using namespace Qt::StringLiterals;

namespace Presence::Ui {

using Models::PresenceState;

namespace {

// Logical pixels; fonts set the rest.
constexpr int kPaddingH = 8;
constexpr int kPaddingV = 6;
constexpr int kAvatarMin = 32;
constexpr int kAvatarGap = 10; // avatar to text
constexpr int kLineGap = 2; // name line to status line
constexpr int kDotMin = 14;
constexpr int kDotGap = 6; // presence mark to status words
// A name elided beside its handle keeps at least this many average characters (the ellipsis
// counts as one): enough to tell a first name. A name other friends share gives way further,
// as only the handle tells them apart.
constexpr int kMinNameChars = 8;
constexpr int kMinSharedNameChars = 3;
// Statuses that are not fresh (no live subscription) are drawn this much fainter.
constexpr qreal kStaleMarkOpacity = 0.5;
constexpr qreal kStaleTextFade = 0.3;

int evenAtLeast(int value, int minimum)
{
    const int v = std::max(value, minimum);
    return v + (v % 2);
}

struct Metrics {
    int line = 0;
    int textBlock = 0; // two lines and the gap between them
    int avatar = 0;
    int dot = 0;
    int rowHeight = 0;
    int minimumWidth = 0;
};

Metrics metricsFor(const QFont &font)
{
    const QFontMetrics fm(font);
    Metrics m;
    m.line = fm.height();
    m.textBlock = 2 * m.line + kLineGap;
    m.avatar = evenAtLeast(m.textBlock, kAvatarMin);
    m.dot = evenAtLeast(qRound(m.line * 0.8), kDotMin);
    m.rowHeight = std::max(m.avatar, m.textBlock) + 2 * kPaddingV;
    m.minimumWidth = 2 * kPaddingH + m.avatar + kAvatarGap + 12 * fm.averageCharWidth();
    return m;
}

quint32 fnv1a(const QByteArray &bytes)
{
    quint32 hash = 2166136261u;
    for (const char c : bytes) {
        hash ^= quint8(c);
        hash *= 16777619u;
    }
    return hash;
}

// WCAG relative luminance.
double luminance(const QColor &color)
{
    const auto linear
        = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF())
        + 0.0722 * linear(color.blueF());
}

// The first letter, digit or symbol (emoji) of a word, upper-cased; surrogate pairs whole.
QString leadingMark(QStringView word)
{
    for (qsizetype i = 0; i < word.size(); ++i) {
        const QChar ch = word.at(i);
        char32_t ucs = ch.unicode();
        qsizetype length = 1;
        if (ch.isHighSurrogate() && i + 1 < word.size() && word.at(i + 1).isLowSurrogate()) {
            ucs = QChar::surrogateToUcs4(ch, word.at(i + 1));
            length = 2;
        }
        if (QChar::isLetterOrNumber(ucs) || QChar::category(ucs) == QChar::Symbol_Other)
            return word.mid(i, length).toString().toUpper();
        i += length - 1;
    }
    return {};
}

} // namespace

FriendDelegate::FriendDelegate(QObject *parent)
    : ClockedDelegate(parent)
{
}

int FriendDelegate::rowHeight(const QFont &font)
{
    return metricsFor(font).rowHeight;
}

FriendDelegate::RowLayout FriendDelegate::layout(const QStyleOptionViewItem &option)
{
    const Metrics m = metricsFor(option.font);
    const QRect content = option.rect.adjusted(kPaddingH, kPaddingV, -kPaddingH, -kPaddingV);
    const Qt::LayoutDirection direction = option.direction;

    RowLayout parts;
    parts.avatar = QStyle::alignedRect(
        direction, Qt::AlignLeft | Qt::AlignVCenter, QSize(m.avatar, m.avatar), content);

    // Left to right first, then mirrored as a whole.
    const int textLeft = content.left() + m.avatar + kAvatarGap;
    const int textWidth = std::max(0, content.right() + 1 - textLeft);
    const int top = content.top() + (content.height() - m.textBlock) / 2;
    const QRect name(textLeft, top, textWidth, m.line);
    const int statusTop = top + m.line + kLineGap;
    const QRect dot(textLeft, statusTop + (m.line - m.dot) / 2, m.dot, m.dot);
    const QRect status(
        textLeft + m.dot + kDotGap, statusTop, std::max(0, textWidth - m.dot - kDotGap), m.line);
    parts.name = QStyle::visualRect(direction, option.rect, name);
    parts.dot = QStyle::visualRect(direction, option.rect, dot);
    parts.status = QStyle::visualRect(direction, option.rect, status);
    return parts;
}

QSize FriendDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    // Not initStyleOption: a per-row font would make rows differ.
    const Metrics m = metricsFor(option.font);
    return { m.minimumWidth, m.rowHeight };
}

QColor FriendDelegate::presenceColor(PresenceState state, const QPalette &palette)
{
    return PresenceMark::color(state, palette);
}

QColor FriendDelegate::avatarColor(const QString &id)
{
    const quint32 hash = fnv1a(id.toUtf8());
    return QColor::fromHsl(int(hash % 360), 140, 105);
}

QColor FriendDelegate::avatarTextColor(const QColor &background)
{
    const double l = luminance(background);
    const double onWhite = 1.05 / (l + 0.05);
    const double onBlack = (l + 0.05) / 0.05;
    return onWhite >= onBlack ? QColor(Qt::white) : QColor(Qt::black);
}

QString FriendDelegate::initials(const QString &name)
{
    QStringList marks;
    for (const QString &word : name.simplified().split(u' ', Qt::SkipEmptyParts)) {
        QString mark = leadingMark(word);
        if (!mark.isEmpty())
            marks.append(std::move(mark));
    }
    if (marks.isEmpty())
        return {};
    if (marks.size() == 1)
        return marks.first();
    return marks.first() + marks.last();
}

QString FriendDelegate::unreadBadgeText(int unread)
{
    return unread > 99 ? u"99+"_s : QString::number(unread);
}

QRect FriendDelegate::unreadBadgeRect(const QStyleOptionViewItem &option, int unread)
{
    return unreadBadgeRect(option, layout(option).name, unread);
}

QRect FriendDelegate::unreadBadgeRect(
    const QStyleOptionViewItem &option, const QRect &name, int unread)
{
    if (unread <= 0)
        return {};
    QFont font = option.font;
    font.setBold(true);
    const QFontMetrics fm(font);
    const int height = fm.height();
    const int width = std::max(height, fm.horizontalAdvance(unreadBadgeText(unread)) + height / 2);
    // The name's rect is already mirrored: its trailing end is on the visual right in
    // left-to-right, on the left in right-to-left.
    const int left = option.direction == Qt::RightToLeft ? name.left() : name.right() + 1 - width;
    return { left, name.top() + (name.height() - height) / 2, width, height };
}

QString FriendDelegate::accessibleText(const QModelIndex &index, const QDateTime &now)
{
    return PresenceText::summary(index, now);
}

void FriendDelegate::paint(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget *widget = opt.widget;
    const QStyle *style = widget ? widget->style() : QApplication::style();
    const FriendPresence presence = FriendPresence::fromIndex(index);
    const RowLayout parts = layout(opt);
    const QPalette::ColorGroup group = PaletteColors::colorGroupOf(opt);
    const bool selected = opt.state.testFlag(QStyle::State_Selected);
    const QColor background
        = opt.palette.color(group, selected ? QPalette::Highlight : QPalette::Base);
    const QColor text
        = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor secondary = PaletteColors::mix(text, background, 0.35);
    const bool dimmed = !presence.fresh && presence.state != PresenceState::Unknown;

    painter->save();
    // Selection and hover, the way the style draws any item.
    style->drawPrimitive(QStyle::PE_PanelItemViewItem, &opt, painter, widget);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    // Each text finds its own direction (a Latin name in a right-to-left view keeps its
    // ellipsis at its end); the alignment follows the view.
    painter->setLayoutDirection(Qt::LayoutDirectionAuto);

    paintAvatar(painter, parts.avatar, presence, opt.font);

    const int textAlignment
        = int(QStyle::visualAlignment(opt.direction, Qt::AlignLeft | Qt::AlignVCenter))
        | Qt::TextSingleLine;
    QRect nameRect = parts.name;
    const QRect badge = unreadBadgeRect(opt, parts.name, presence.unread); // layout once per row
    if (!badge.isEmpty()) {
        constexpr int kBadgeGap = 6;
        if (opt.direction == Qt::RightToLeft)
            nameRect.setLeft(badge.right() + 1 + kBadgeGap);
        else
            nameRect.setRight(badge.left() - 1 - kBadgeGap);
        paintUnreadBadge(painter, badge, presence.unread, opt, selected);
    }
    paintName(painter, opt, nameRect, presence, text, secondary);

    painter->setFont(opt.font);
    painter->setPen(dimmed ? PaletteColors::mix(secondary, background, kStaleTextFade) : secondary);
    painter->drawText(parts.status, textAlignment,
        QFontMetrics(opt.font).elidedText(
            PresenceText::statusLine(presence, now()), Qt::ElideRight, parts.status.width()));

    QPalette markPalette = opt.palette;
    markPalette.setColor(QPalette::Base, background);
    markPalette.setColor(QPalette::Text, text);
    painter->save();
    if (dimmed)
        painter->setOpacity(kStaleMarkOpacity);
    PresenceMark::paint(
        painter, parts.dot, presence.state, PresenceMark::color(presence.state, markPalette));
    painter->restore();

    paintFocusFrame(painter, opt, background);
    painter->restore();
}

QFont FriendDelegate::nameFont(const QFont &font)
{
    QFont bold = font;
    bold.setWeight(QFont::DemiBold);
    return bold;
}

FriendDelegate::NameLine FriendDelegate::nameLine(
    const FriendPresence &presence, const QFont &font, int width)
{
    const QFontMetrics nameMetrics(nameFont(font));
    const QFontMetrics handleMetrics(font);
    const QString handle = presence.id.isEmpty() ? QString() : PresenceText::handle(presence.id);
    const int gap = handleMetrics.horizontalAdvance(u' ') * 2;
    const int fullName = nameMetrics.horizontalAdvance(presence.name);
    const int handleWidth = handleMetrics.horizontalAdvance(handle);
    width = std::max(0, width);

    NameLine line;
    // A name is drawn in one pixel more than its advance: elidedText and drawText measure
    // with a finer rounding, and the name must be neither elided nor clipped when it fits.
    const auto placeName = [&](int room) {
        line.name = fullName + 1 <= room
            ? presence.name
            : nameMetrics.elidedText(presence.name, Qt::ElideRight, room);
        line.nameWidth = std::min(width, nameMetrics.horizontalAdvance(line.name) + 1);
        line.handleStart = line.nameWidth + gap;
    };
    const auto nameAlone = [&] {
        placeName(width);
        line.nameWidth = width;
        return line;
    };
    if (handle.isEmpty())
        return nameAlone();
    if (fullName + 1 + gap + handleWidth <= width) {
        placeName(width);
        line.handle = handle;
        return line;
    }
    const int minimumName = std::min(fullName,
        (presence.nameShared ? kMinSharedNameChars : kMinNameChars)
            * nameMetrics.averageCharWidth());
    const int nameRoom = width - gap - handleWidth - 1;
    if (nameRoom >= minimumName) {
        placeName(nameRoom);
        line.handle = handle;
        return line;
    }
    if (!presence.nameShared)
        return nameAlone(); // too narrow for both: a name alone says more than a handle alone
    // Handles such as "@user17" and "@user42" differ at their end: keep both ends.
    placeName(std::min(minimumName + 1, width));
    line.handle
        = handleMetrics.elidedText(handle, Qt::ElideMiddle, std::max(0, width - line.handleStart));
    return line;
}

void FriendDelegate::paintName(QPainter *painter, const QStyleOptionViewItem &opt,
    const QRect &area, const FriendPresence &presence, const QColor &text, const QColor &secondary)
{
    const NameLine line = nameLine(presence, opt.font, area.width());
    const int alignment
        = int(QStyle::visualAlignment(opt.direction, Qt::AlignLeft | Qt::AlignVCenter))
        | Qt::TextSingleLine;
    // Logical rectangles, left to right; visualRect mirrors them for right-to-left.
    const QRect nameRect(area.left(), area.top(), line.nameWidth, area.height());
    painter->setFont(nameFont(opt.font));
    painter->setPen(text);
    painter->drawText(QStyle::visualRect(opt.direction, area, nameRect), alignment, line.name);
    if (line.handle.isEmpty())
        return;
    const QRect handleRect(area.left() + line.handleStart, area.top(),
        std::max(0, area.width() - line.handleStart), area.height());
    painter->setFont(opt.font);
    painter->setPen(secondary);
    painter->drawText(QStyle::visualRect(opt.direction, area, handleRect), alignment, line.handle);
}

void FriendDelegate::paintAvatar(
    QPainter *painter, const QRect &rect, const FriendPresence &presence, const QFont &font)
{
    const QColor fill = avatarColor(presence.id.isEmpty() ? presence.name : presence.id);
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawEllipse(QRectF(rect));

    QString letters = initials(presence.name);
    if (letters.isEmpty())
        letters = initials(presence.id);
    if (letters.isEmpty())
        letters = u"?"_s;
    QFont avatarFont = font;
    avatarFont.setBold(true);
    avatarFont.setPixelSize(std::max(1, qRound(rect.height() * 0.38)));
    painter->setFont(avatarFont);
    painter->setPen(avatarTextColor(fill));
    painter->drawText(rect, Qt::AlignCenter | Qt::TextSingleLine, letters);
}

void FriendDelegate::paintUnreadBadge(QPainter *painter, const QRect &rect, int unread,
    const QStyleOptionViewItem &option, bool selected)
{
    // On a selected row the highlight is the background: swap the badge's colours.
    const QPalette::ColorGroup group = PaletteColors::colorGroupOf(option);
    const QColor fill
        = option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Highlight);
    const QColor ink
        = option.palette.color(group, selected ? QPalette::Highlight : QPalette::HighlightedText);
    painter->save();
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    const qreal radius = rect.height() / 2.0;
    painter->drawRoundedRect(QRectF(rect), radius, radius);
    QFont font = option.font;
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(ink);
    painter->drawText(rect, Qt::AlignCenter | Qt::TextSingleLine, unreadBadgeText(unread));
    painter->restore();
}

bool FriendDelegate::helpEvent(QHelpEvent *event, QAbstractItemView *view,
    const QStyleOptionViewItem &option, const QModelIndex &index)
{
    // A model (or proxy) that has its own tooltip wins.
    if (event && view && index.isValid() && event->type() == QEvent::ToolTip
        && !index.data(Qt::ToolTipRole).isValid()) {
        QToolTip::showText(
            event->globalPos(), PresenceText::summary(index, now()), view->viewport(), option.rect);
        return true;
    }
    return QStyledItemDelegate::helpEvent(event, view, option, index);
}

} // namespace Presence::Ui
