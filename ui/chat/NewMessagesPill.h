#pragma once

// Qt
#include <QPushButton>

class QAbstractScrollArea;

namespace Presence::Ui {

// "3 new messages ↓": floats over the bottom of a scroll area's viewport while messages
// arrive that the reader, scrolled up, has not reached. A child of the scroll area rather than
// of its viewport, so that scrolling the contents does not move it.
class NewMessagesPill : public QPushButton {
    Q_OBJECT
public:
    explicit NewMessagesPill(QAbstractScrollArea *area);

    // Shows the pill for `count` new messages; 0 hides it.
    void setCount(int count);
    [[nodiscard]] int count() const { return m_count; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void reposition();

    QAbstractScrollArea *m_area;
    int m_count = 0;
};

} // namespace Presence::Ui
