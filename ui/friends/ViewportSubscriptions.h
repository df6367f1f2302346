#pragma once

// C++
#include <chrono>

// Qt
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QTimer>

class QAbstractItemModel;
class QAbstractItemView;

namespace Presence::Ui {

using namespace std::chrono_literals;

struct ViewportSubscriptionOptions {
    // Rows kept watched above and below the visible ones, in pages (screens) of rows.
    int marginPages = 1;
    // While the user scrolls, recompute at most once per interval.
    std::chrono::milliseconds settle = 100ms;
    // A row that leaves the margin stays watched this long, so scrolling back and forth
    // does not churn subscriptions.
    std::chrono::milliseconds linger = 3s;
    int maxSubscriptions = 2000;
    // The model role that holds a row's user id.
    int idRole = Qt::UserRole + 1;
};

// Keeps the set of users to watch equal to the rows on screen plus a margin, whatever sits
// between the view and the model (sorting, filtering). It follows scrolling, resizing,
// sorting, filtering, resets and inserted or removed rows, and announces changes at most
// once per settle interval.
class ViewportSubscriptions : public QObject {
    Q_OBJECT
public:
    explicit ViewportSubscriptions(QAbstractItemView *view,
        ViewportSubscriptionOptions options = {}, QObject *parent = nullptr);

    void setMaxSubscriptions(int max);
    [[nodiscard]] const QSet<QString> &wanted() const { return m_wanted; }
    [[nodiscard]] int lingeringCount() const { return int(m_lingering.size()); }
    // Updates that added ids / removed ids (an update can do both).
    [[nodiscard]] int subscribeBatches() const { return m_subscribeBatches; }
    [[nodiscard]] int unsubscribeBatches() const { return m_unsubscribeBatches; }
    [[nodiscard]] const ViewportSubscriptionOptions &options() const { return m_options; }

    // Recomputes at once instead of at the end of the settle interval.
    void refreshNow();

Q_SIGNALS:
    void wantedChanged(
        const QSet<QString> &wanted, const QStringList &added, const QStringList &removed);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    using Clock = std::chrono::steady_clock;
    struct Lingering {
        Clock::time_point until;
        int lastRow; // where it was when it left, to rank it if the cap bites
    };

    void attachModel();
    void scheduleRefresh();
    void refresh();
    void scheduleLingerExpiry();

    QPointer<QAbstractItemView> m_view;
    QPointer<QAbstractItemModel> m_model; // the view's model the connections below follow
    ViewportSubscriptionOptions m_options;
    QSet<QString> m_wanted;
    QHash<QString, int> m_windowRows; // ids in the window now -> their row
    QHash<QString, Lingering> m_lingering;
    QTimer m_settleTimer;
    QTimer m_lingerTimer;
    QList<QMetaObject::Connection> m_modelConnections;
    int m_subscribeBatches = 0;
    int m_unsubscribeBatches = 0;
};

} // namespace Presence::Ui
