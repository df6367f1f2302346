#pragma once

// C++
#include <functional>

// Qt
#include <QDateTime>
#include <QIdentityProxyModel>
#include <QString>

namespace Presence::Ui {

class ClockedDelegate;

// A list as its view shows it: the model's rows and roles as they are, and for each row the
// words a screen reader says (Qt::AccessibleTextRole), by the view's delegate's clock. The
// models carry the data; the wording is the UI's. The chat and the list of chats use it; the
// friend list, which also sorts and filters, has AccessibleFriendProxy.
class AccessibleTextProxy : public QIdentityProxyModel {
    Q_OBJECT
public:
    // The words for one row of the source model, at `now`. Called at every reading, so the
    // words follow the row, and anything else they name (a friend's new name), as it is then.
    using Describe = std::function<QString(const QModelIndex &source, const QDateTime &now)>;

    // clock: the view's delegate, which must outlive the proxy.
    AccessibleTextProxy(const ClockedDelegate *clock, Describe describe, QObject *parent = nullptr);

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;

private:
    const ClockedDelegate *m_clock;
    Describe m_describe;
};

} // namespace Presence::Ui
