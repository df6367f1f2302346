#pragma once

// Presence
#include "models/FriendSortFilterProxy.h"

namespace Presence::Ui {

// The friend list as its view shows it: the models' order and filter, and for each row the
// words a screen reader says (Qt::AccessibleTextRole), the same as the row's tooltip
// (FriendDelegate::accessibleText). The models carry the data; the wording is the UI's.
class AccessibleFriendProxy : public Models::FriendSortFilterProxy {
    Q_OBJECT
public:
    explicit AccessibleFriendProxy(QObject *parent = nullptr);

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
};

} // namespace Presence::Ui
