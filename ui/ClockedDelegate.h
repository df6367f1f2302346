#pragma once

// C++
#include <functional>

// Qt
#include <QDateTime>
#include <QStyledItemDelegate>

class QColor;
class QPainter;

namespace Presence::Ui {

// A delegate whose rows say times relative to now ("today", "last seen 5 min ago"): the clock
// it reads them by is the system's unless a test sets another. The view must repaint for the
// words to move on (e.g. a one-minute timer calling viewport()->update()). The delegates that
// share the clock share the style's focus frame too, which a friend's row and a chat's row draw
// alike (a message draws a ring of its own).
class ClockedDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using NowFunction = std::function<QDateTime()>;

    explicit ClockedDelegate(QObject *parent = nullptr);

    // An empty function restores QDateTime::currentDateTime.
    void setNowFunction(NowFunction now);
    [[nodiscard]] QDateTime now() const;

    // The style's focus frame around a row that has the focus, on the row's own background
    // (the style picks a frame that shows on it); nothing for any other row. Drawn last, over
    // the row's contents.
    static void paintFocusFrame(
        QPainter *painter, const QStyleOptionViewItem &option, const QColor &background);

private:
    NowFunction m_now;
};

} // namespace Presence::Ui
