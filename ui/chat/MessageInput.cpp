#include "ui/chat/MessageInput.h"

// C++
#include <algorithm>
#include <cmath>

// Qt
#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QKeyEvent>
#include <QTextBlock>
#include <QTextDocument>

namespace Presence::Ui {

MessageInput::MessageInput(QWidget *parent)
    : QPlainTextEdit(parent)
{
    setTabChangesFocus(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // Wrapped lines count too, so follow the layout rather than the block count.
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
        &QWidget::updateGeometry);
}

void MessageInput::keyPressEvent(QKeyEvent *event)
{
    const bool enter = event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter;
    if (enter && !(event->modifiers() & Qt::ShiftModifier)) {
        event->accept();
        Q_EMIT submitted();
        return;
    }
    if (enter) {
        // Shift+Enter: a plain new paragraph (QPlainTextEdit would insert a line separator).
        textCursor().insertBlock();
        ensureCursorVisible();
        event->accept();
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void MessageInput::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    fitPlaceholder();
}

void MessageInput::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitPlaceholder();
}

void MessageInput::setPlaceholderChoices(const QStringList &choices)
{
    m_placeholderChoices = choices;
    fitPlaceholder();
}

int MessageInput::placeholderRoom() const
{
    // QPlainTextEdit draws the placeholder inside the document margin.
    return std::max(0, viewport()->width() - int(std::ceil(2 * document()->documentMargin())));
}

void MessageInput::fitPlaceholder()
{
    if (m_placeholderChoices.isEmpty())
        return;
    const QFontMetrics metrics = fontMetrics();
    const int room = placeholderRoom();
    for (const QString &choice : std::as_const(m_placeholderChoices)) {
        if (metrics.horizontalAdvance(choice) <= room) {
            setPlaceholderText(choice);
            return;
        }
    }
    setPlaceholderText(metrics.elidedText(m_placeholderChoices.last(), Qt::ElideRight, room));
}

int MessageInput::heightForLines(int lines) const
{
    // The frame is drawn around the viewport, outside contentsMargins().
    const QMargins margins = contentsMargins();
    const int documentMargin = int(std::ceil(2 * document()->documentMargin()));
    return lines * fontMetrics().lineSpacing() + documentMargin + 2 * frameWidth() + margins.top()
        + margins.bottom() + 2;
}

QSize MessageInput::sizeHint() const
{
    // documentSize() of a plain text layout counts lines, wrapped ones included.
    const int lines = std::clamp(
        int(document()->documentLayout()->documentSize().height()), 1, kMaxVisibleLines);
    return { QPlainTextEdit::sizeHint().width(), heightForLines(lines) };
}

QSize MessageInput::minimumSizeHint() const
{
    return { QPlainTextEdit::minimumSizeHint().width(), heightForLines(1) };
}

} // namespace Presence::Ui
