#include "ui/chat/ChatHeader.h"

// C++
#include <algorithm>

// Qt
#include <QDateTime>
#include <QEvent>
#include <QPainter>
#include <QStyle>

// Presence
#include "models/FriendListModel.h"
#include "ui/PaletteColors.h"
#include "ui/PresenceMark.h"

namespace Presence::Ui {

namespace {

constexpr int kPaddingV = 4;
constexpr int kLineGap = 2;
constexpr int kMarkGap = 6;
constexpr int kHandleGap = 8; // between the name and the handle

} // namespace

ChatHeader::ChatHeader(Models::FriendListModel *friends, QWidget *parent)
    : QWidget(parent)
    , m_friends(friends)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    const auto refreshIfOurs = [this](const QModelIndex &first, const QModelIndex &last) {
        const auto row = m_friends->rowOf(m_friendId);
        if (row && *row >= first.row() && *row <= last.row())
            refresh();
    };
    connect(friends, &QAbstractItemModel::dataChanged, this, refreshIfOurs);
    connect(friends, &QAbstractItemModel::modelReset, this, &ChatHeader::refresh);
    connect(&m_minute, &QTimer::timeout, this, &ChatHeader::refresh);
    m_minute.start(std::chrono::minutes(1));
}

void ChatHeader::setFriend(const QString &friendId)
{
    m_friendId = friendId;
    refresh();
}

QString ChatHeader::statusText() const
{
    return m_friendId.isEmpty()
        ? QString()
        : PresenceText::statusLine(m_presence, QDateTime::currentDateTime());
}

QString ChatHeader::handleText() const
{
    return m_friendId.isEmpty() ? QString() : u'@' + m_friendId;
}

QFont ChatHeader::nameFont() const
{
    QFont bold = font();
    bold.setWeight(QFont::DemiBold);
    bold.setPointSizeF(font().pointSizeF() * 1.15);
    return bold;
}

std::pair<QRect, QRect> ChatHeader::firstLine() const
{
    // Left to right; paintEvent mirrors them for right-to-left.
    const QFontMetrics nameMetrics(nameFont());
    const int width = rect().width();
    const int top = kPaddingV;
    const int nameWidth = nameMetrics.horizontalAdvance(m_presence.name) + 1;
    const int handleWidth = fontMetrics().horizontalAdvance(handleText()) + 1;
    // The name comes first; the handle takes what is left, but never less than half the line
    // when both do not fit, so "@id" stays readable next to a long name.
    const int nameRoom = std::min(nameWidth, std::max(width - kHandleGap - handleWidth, width / 2));
    const QRect name(0, top, nameRoom, nameMetrics.height());
    const int handleLeft = name.right() + 1 + kHandleGap;
    const int handleRoom = std::min(handleWidth, width - handleLeft);
    // Aligned with the name's baseline.
    const int handleTop = top + nameMetrics.ascent() - fontMetrics().ascent();
    const QRect handle = handleRoom >= 3 * fontMetrics().averageCharWidth()
        ? QRect(handleLeft, handleTop, handleRoom, fontMetrics().height())
        : QRect();
    return { name, handle };
}

QRect ChatHeader::handleRect() const
{
    if (m_friendId.isEmpty())
        return {};
    const QRect handle = firstLine().second;
    return handle.isEmpty() ? handle : QStyle::visualRect(layoutDirection(), rect(), handle);
}

void ChatHeader::refresh()
{
    const auto row = m_friends->rowOf(m_friendId);
    m_presence = row ? FriendPresence::fromIndex(m_friends->index(*row)) : FriendPresence {};
    if (!row) {
        m_presence.id = m_friendId;
        m_presence.name = m_friendId;
    }
    setAccessibleName(
        m_friendId.isEmpty() ? QString() : tr("%1 (%2)").arg(m_presence.name, handleText()));
    setAccessibleDescription(statusText());
    setToolTip(PresenceText::summary(m_presence, QDateTime::currentDateTime()));
    update();
}

QSize ChatHeader::sizeHint() const
{
    const int height = QFontMetrics(nameFont()).height() + kLineGap + fontMetrics().height();
    return { 20 * fontMetrics().averageCharWidth(), height + 2 * kPaddingV };
}

QSize ChatHeader::minimumSizeHint() const
{
    return { 8 * fontMetrics().averageCharWidth(), sizeHint().height() };
}

void ChatHeader::paintEvent(QPaintEvent *)
{
    if (m_friendId.isEmpty())
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect content = rect().adjusted(0, kPaddingV, 0, -kPaddingV);

    const QFont bold = nameFont();
    const QFontMetrics boldMetrics(bold);
    const auto [nameRect, handleRect] = firstLine();
    painter.setFont(bold);
    painter.setPen(palette().color(QPalette::WindowText));
    const int align = int(QStyle::visualAlignment(layoutDirection(), Qt::AlignLeft))
        | Qt::AlignVCenter | Qt::TextSingleLine;
    painter.drawText(QStyle::visualRect(layoutDirection(), rect(), nameRect), align,
        boldMetrics.elidedText(m_presence.name, Qt::ElideRight, nameRect.width()));
    const QColor quiet = PaletteColors::mix(
        palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.35);
    if (!handleRect.isEmpty()) {
        painter.setFont(font());
        painter.setPen(quiet);
        painter.drawText(QStyle::visualRect(layoutDirection(), rect(), handleRect), align,
            fontMetrics().elidedText(handleText(), Qt::ElideRight, handleRect.width()));
    }

    const int line = fontMetrics().height();
    const int top = nameRect.bottom() + 1 + kLineGap;
    const int markSize = std::max(10, (line * 7 / 10) & ~1);
    const QRect mark(content.left(), top + (line - markSize) / 2, markSize, markSize);
    QPalette markPalette = palette();
    markPalette.setColor(QPalette::Base, palette().color(QPalette::Window));
    markPalette.setColor(QPalette::Text, palette().color(QPalette::WindowText));
    PresenceMark::paint(&painter, QStyle::visualRect(layoutDirection(), rect(), mark),
        m_presence.state, PresenceMark::color(m_presence.state, markPalette));

    const QRect status(mark.right() + 1 + kMarkGap, top,
        std::max(0, content.right() - mark.right() - kMarkGap), line);
    painter.setFont(font());
    painter.setPen(quiet);
    painter.drawText(QStyle::visualRect(layoutDirection(), rect(), status), align,
        fontMetrics().elidedText(statusText(), Qt::ElideRight, status.width()));
}

void ChatHeader::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        updateGeometry();
    QWidget::changeEvent(event);
}

} // namespace Presence::Ui
