#pragma once

// Presence
#include "models/FriendSortFilterProxy.h"

namespace Presence::Ui {

class ClockedDelegate;

// The friend list as its view shows it: the models' order and filter, and for each row the
// words a screen reader says (Qt::AccessibleTextRole), the same as the row's tooltip
// (FriendDelegate::accessibleText). The models carry the data; the wording is the UI's.
class AccessibleFriendProxy : public Models::FriendSortFilterProxy {
    Q_OBJECT
public:
    explicit AccessibleFriendProxy(QObject *parent = nullptr);

    // The clock "last seen 5 min ago" is told by: the view's delegate's, so that the words
    // match what the row paints. It must outlive the proxy; without one, the system's.
    void setClock(const ClockedDelegate *clock) { m_clock = clock; }

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;

private:
    const ClockedDelegate *m_clock = nullptr;
};

} // namespace Presence::Ui
