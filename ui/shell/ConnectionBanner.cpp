#include "ui/shell/ConnectionBanner.h"

// Qt
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>

// Presence
#include "ui/PaletteColors.h"
#include "ui/PresenceMark.h"

namespace Presence::Ui {

ConnectionBanner::ConnectionBanner(QWidget *parent)
    : QWidget(parent)
    , m_text(new QLabel(this))
    , m_retry(new QPushButton(tr("Retry now"), this))
    , m_signIn(new QPushButton(tr("Sign in…"), this))
{
    m_text->setWordWrap(true);
    // However long its words (a failure's sentence, an address, a fingerprint), they wrap
    // within the window: the label's minimum width is set here, never taken from its text.
    m_text->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    m_text->setTextFormat(Qt::PlainText); // it may quote what a server answered
    m_text->setAccessibleName(tr("Connection"));
    m_retry->setAccessibleName(tr("Retry connecting now"));
    m_signIn->setAccessibleName(tr("Sign in with another token or gateway"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_retry);
    layout->addWidget(m_signIn);
    setAccessibleName(tr("Connection problem"));
    hide();
}

void ConnectionBanner::show(const QString &text, Action action)
{
    m_text->setText(text);
    m_retry->setVisible(action == Action::Retry);
    m_signIn->setVisible(action == Action::SignIn);
    setVisible(!text.isEmpty());
}

QString ConnectionBanner::text() const
{
    return m_text->text();
}

void ConnectionBanner::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette &colors = palette();
    const QColor tint
        = PresenceMark::color(Models::PresenceState::Away, colors); // amber, for this palette
    painter.setPen(QPen(tint, 1));
    painter.setBrush(PaletteColors::mix(colors.color(QPalette::Window), tint, 0.22));
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

} // namespace Presence::Ui
