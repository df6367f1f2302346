#pragma once

#include <QPlainTextEdit>

namespace Presence::Ui {

// Where a chat message is typed: Enter sends, Shift+Enter starts a new line. It grows with
// its text up to a few lines, then scrolls.
class MessageInput : public QPlainTextEdit {
    Q_OBJECT
public:
    static inline constexpr int kMaxVisibleLines = 6;

    explicit MessageInput(QWidget *parent = nullptr);

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

Q_SIGNALS:
    // Enter was pressed: the owner decides whether the text can go, and clears it if so.
    void submitted();

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    [[nodiscard]] int heightForLines(int lines) const;
};

} // namespace Presence::Ui
