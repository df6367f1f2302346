#pragma once

#include "models/FriendSortFilterProxy.h"

#include <QSet>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QListView;

namespace Presence::Models {
class FriendListModel;
}
namespace Presence::Session {
class GatewaySession;
}

namespace Presence::Ui {

class ViewportSubscriptions;

// The left side of the main window: a search box, the sort choice and the friend list,
// whose visible rows (plus margins) are what the session subscribes to.
class FriendListPane : public QWidget {
    Q_OBJECT
public:
    FriendListPane(Session::GatewaySession *session, Models::FriendListModel *model,
        QWidget *parent = nullptr);

    [[nodiscard]] QListView *view() const { return m_view; }
    [[nodiscard]] Models::FriendSortFilterProxy *proxy() const { return m_proxy; }
    [[nodiscard]] ViewportSubscriptions *subscriptions() const { return m_subscriptions; }
    [[nodiscard]] QLineEdit *searchBox() const { return m_search; }

    void setSortMode(Models::FriendSortFilterProxy::SortMode mode);
    [[nodiscard]] Models::FriendSortFilterProxy::SortMode sortMode() const;
    // Friends watched whether on screen or not (the one whose chat is open).
    void setPinned(const QSet<QString> &ids);

Q_SIGNALS:
    void chatRequested(const QString &friendId);
    void sortModeChanged(Presence::Models::FriendSortFilterProxy::SortMode mode);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    Models::FriendSortFilterProxy *m_proxy;
    QLineEdit *m_search;
    QComboBox *m_sort;
    QListView *m_view;
    ViewportSubscriptions *m_subscriptions;
    Session::GatewaySession *m_session;
    QSet<QString> m_pinned;
};

} // namespace Presence::Ui
