#include "ui/ChatHeader.h"

#include "models/FriendListModel.h"
#include "ui/PaletteColors.h"
#include "ui/PresenceMark.h"

#include <QDateTime>
#include <QEvent>
#include <QPainter>
#include <QStyle>

#include <algorithm>

namespace Presence::Ui {

namespace {

constexpr int kPaddingV = 4;
constexpr int kLineGap = 2;
constexpr int kMarkGap = 6;

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

void ChatHeader::refresh()
{
    const auto row = m_friends->rowOf(m_friendId);
    m_presence = row ? FriendPresence::fromIndex(m_friends->index(*row)) : FriendPresence {};
    if (!row) {
        m_presence.id = m_friendId;
        m_presence.name = m_friendId;
    }
    setAccessibleName(m_presence.name);
    setAccessibleDescription(statusText());
    setToolTip(PresenceText::summary(m_presence, QDateTime::currentDateTime()));
    update();
}

QSize ChatHeader::sizeHint() const
{
    QFont bold = font();
    bold.setWeight(QFont::DemiBold);
    bold.setPointSizeF(font().pointSizeF() * 1.15);
    const int height = QFontMetrics(bold).height() + kLineGap + fontMetrics().height();
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

    QFont bold = font();
    bold.setWeight(QFont::DemiBold);
    bold.setPointSizeF(font().pointSizeF() * 1.15);
    const QFontMetrics boldMetrics(bold);
    const QRect nameRect(content.left(), content.top(), content.width(), boldMetrics.height());
    painter.setFont(bold);
    painter.setPen(palette().color(QPalette::WindowText));
    const int align = int(QStyle::visualAlignment(layoutDirection(), Qt::AlignLeft))
        | Qt::AlignVCenter | Qt::TextSingleLine;
    painter.drawText(QStyle::visualRect(layoutDirection(), rect(), nameRect), align,
        boldMetrics.elidedText(m_presence.name, Qt::ElideRight, nameRect.width()));

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
    painter.setPen(PaletteColors::mix(
        palette().color(QPalette::WindowText), palette().color(QPalette::Window), 0.35));
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
