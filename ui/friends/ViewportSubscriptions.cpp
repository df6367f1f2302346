#include "ui/friends/ViewportSubscriptions.h"

// C++
#include <algorithm>

// Qt
#include <QAbstractItemView>
#include <QEvent>
#include <QScrollBar>

// Presence
#include "ui/friends/VisibleRows.h"

namespace Presence::Ui {

ViewportSubscriptions::ViewportSubscriptions(
    QAbstractItemView *view, ViewportSubscriptionOptions options, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_options(options)
{
    m_settleTimer.setSingleShot(true);
    m_settleTimer.setInterval(m_options.settle);
    connect(&m_settleTimer, &QTimer::timeout, this, &ViewportSubscriptions::refresh);
    m_lingerTimer.setSingleShot(true);
    // Expiries go through the settle throttle too, or they would add updates of their own.
    connect(&m_lingerTimer, &QTimer::timeout, this, &ViewportSubscriptions::scheduleRefresh);

    const auto schedule = [this] { scheduleRefresh(); };
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, schedule);
    connect(view->verticalScrollBar(), &QScrollBar::rangeChanged, this, schedule);
    view->viewport()->installEventFilter(this);
    view->installEventFilter(this);
    attachModel();
    scheduleRefresh();
}

void ViewportSubscriptions::setMaxSubscriptions(int max)
{
    if (max == m_options.maxSubscriptions)
        return;
    m_options.maxSubscriptions = std::max(0, max);
    scheduleRefresh();
}

void ViewportSubscriptions::attachModel()
{
    for (const auto &connection : std::as_const(m_modelConnections))
        disconnect(connection);
    m_modelConnections.clear();
    m_model = m_view ? m_view->model() : nullptr;
    QAbstractItemModel *model = m_model;
    if (!model)
        return;
    const auto schedule = [this] { scheduleRefresh(); };
    m_modelConnections = {
        connect(model, &QAbstractItemModel::modelReset, this, schedule),
        connect(model, &QAbstractItemModel::layoutChanged, this, schedule),
        connect(model, &QAbstractItemModel::rowsInserted, this, schedule),
        connect(model, &QAbstractItemModel::rowsRemoved, this, schedule),
        connect(model, &QAbstractItemModel::rowsMoved, this, schedule),
    };
}

bool ViewportSubscriptions::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide:
        scheduleRefresh();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void ViewportSubscriptions::scheduleRefresh()
{
    // Throttle, not debounce: a long scroll still updates every settle interval.
    if (!m_settleTimer.isActive())
        m_settleTimer.start();
}

void ViewportSubscriptions::refreshNow()
{
    m_settleTimer.stop();
    refresh();
}

void ViewportSubscriptions::refresh()
{
    if (!m_view)
        return;
    if (m_view->model() != m_model)
        attachModel(); // the view was given another model since
    QAbstractItemModel *model = m_view->model();

    // The window: visible rows plus a page above and below.
    QHash<QString, int> window;
    int firstVisible = 0;
    int lastVisible = -1;
    const int rows = model ? model->rowCount(m_view->rootIndex()) : 0;
    if (const auto visible = visibleRows(*m_view)) {
        firstVisible = visible->first;
        lastVisible = visible->last;
        const int page = std::max(1, lastVisible - firstVisible + 1);
        const int margin = page * m_options.marginPages;
        const int from = std::max(0, firstVisible - margin);
        const int to = std::min(rows - 1, lastVisible + margin);
        window.reserve(to - from + 1);
        for (int row = from; row <= to; ++row) {
            const QString id
                = model->index(row, 0, m_view->rootIndex()).data(m_options.idRole).toString();
            if (!id.isEmpty())
                window.insert(id, row);
        }
    }

    // Rows that left the window linger; rows back in it stop lingering; expired ones go.
    const auto now = Clock::now();
    for (auto it = m_windowRows.cbegin(); it != m_windowRows.cend(); ++it) {
        if (!window.contains(it.key()) && !m_lingering.contains(it.key()))
            m_lingering.insert(it.key(), { now + m_options.linger, it.value() });
    }
    for (auto it = m_lingering.begin(); it != m_lingering.end();) {
        if (window.contains(it.key()) || it->until <= now)
            it = m_lingering.erase(it);
        else
            ++it;
    }
    m_windowRows = window;

    // Rank by distance from the visible rows, so the cap drops the farthest.
    const auto distance = [&](int row) {
        if (row < firstVisible)
            return firstVisible - row;
        if (row > lastVisible)
            return row - lastVisible;
        return 0;
    };
    QList<std::pair<int, QString>> ranked;
    ranked.reserve(window.size() + m_lingering.size());
    for (auto it = window.cbegin(); it != window.cend(); ++it)
        ranked.append({ distance(it.value()), it.key() });
    for (auto it = m_lingering.cbegin(); it != m_lingering.cend(); ++it)
        ranked.append({ distance(it->lastRow), it.key() });
    if (ranked.size() > m_options.maxSubscriptions) {
        std::sort(ranked.begin(), ranked.end());
        ranked.resize(m_options.maxSubscriptions);
    }
    QSet<QString> wanted;
    wanted.reserve(ranked.size());
    for (const auto &[_, id] : std::as_const(ranked))
        wanted.insert(id);

    QStringList added;
    QStringList removed;
    for (const QString &id : std::as_const(wanted)) {
        if (!m_wanted.contains(id))
            added.append(id);
    }
    for (const QString &id : std::as_const(m_wanted)) {
        if (!wanted.contains(id))
            removed.append(id);
    }
    scheduleLingerExpiry();
    if (added.isEmpty() && removed.isEmpty())
        return;
    m_wanted = std::move(wanted);
    m_subscribeBatches += added.isEmpty() ? 0 : 1;
    m_unsubscribeBatches += removed.isEmpty() ? 0 : 1;
    Q_EMIT wantedChanged(m_wanted, added, removed);
}

void ViewportSubscriptions::scheduleLingerExpiry()
{
    if (m_lingering.isEmpty()) {
        m_lingerTimer.stop();
        return;
    }
    auto earliest = Clock::time_point::max();
    for (const Lingering &entry : std::as_const(m_lingering))
        earliest = std::min(earliest, entry.until);
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(earliest - Clock::now());
    m_lingerTimer.start(std::max(wait, std::chrono::milliseconds(0)));
}

} // namespace Presence::Ui
