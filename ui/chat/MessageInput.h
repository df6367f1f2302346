#pragma once

// Qt
#include <QPlainTextEdit>

namespace Presence::Ui {

// Where a chat message is typed: Enter sends, Shift+Enter starts a new line. It grows with
// its text up to a few lines, then scrolls. The placeholder is the longest of its choices
// that fits the width (the last one elided if none does): QPlainTextEdit would wrap it onto a
// second line that a one-line input cuts off.
class MessageInput : public QPlainTextEdit {
    Q_OBJECT
public:
    static inline constexpr int kMaxVisibleLines = 6;

    explicit MessageInput(QWidget *parent = nullptr);

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

    // Placeholder texts, longest first; the one shown is picked again on every resize.
    void setPlaceholderChoices(const QStringList &choices);
    // How wide a placeholder may be to show on one line.
    [[nodiscard]] int placeholderRoom() const;

Q_SIGNALS:
    // Enter was pressed: the owner decides whether the text can go, and clears it if so.
    void submitted();

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    [[nodiscard]] int heightForLines(int lines) const;
    void fitPlaceholder();

    QStringList m_placeholderChoices;
};

} // namespace Presence::Ui
