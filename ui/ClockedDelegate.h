#pragma once

// C++
#include <functional>

// Qt
#include <QDateTime>
#include <QStyledItemDelegate>

namespace Presence::Ui {

// A delegate whose rows say times relative to now ("today", "last seen 5 min ago"): the clock
// it reads them by is the system's unless a test sets another. The view must repaint for the
// words to move on (e.g. a one-minute timer calling viewport()->update()).
class ClockedDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using NowFunction = std::function<QDateTime()>;

    explicit ClockedDelegate(QObject *parent = nullptr);

    // An empty function restores QDateTime::currentDateTime.
    void setNowFunction(NowFunction now);
    [[nodiscard]] QDateTime now() const;

private:
    NowFunction m_now;
};

} // namespace Presence::Ui
