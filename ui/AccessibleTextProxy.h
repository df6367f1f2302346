#pragma once

// C++
#include <functional>
#include <utility>

// Qt
#include <QDateTime>
#include <QModelIndex>
#include <QString>
#include <QVariant>

// Presence
#include "ui/ClockedDelegate.h"

namespace Presence::Ui {

// A list as its view shows it: the rows of the proxy model it is (Proxy: QIdentityProxyModel for
// the chat and the list of chats, the friends' sort and filter for the friend list), and for
// each row the words a screen reader says (Qt::AccessibleTextRole), by the view's delegate's
// clock. The models carry the data; the wording is the UI's. A template rather than a proxy over
// the friends' proxy: their view's indexes stay the sort's own, with no second mapping over
// 100,000 rows. It adds no signal, so it needs no Q_OBJECT (which a template cannot have).
template <typename Proxy> class AccessibleTextProxy : public Proxy {
public:
    // The words for one row of the source model, at `now`. Called at every reading, so the
    // words follow the row, and anything else they name (a friend's new name), as it is then.
    using Describe = std::function<QString(const QModelIndex &source, const QDateTime &now)>;

    // clock: the view's delegate, which must outlive the proxy; without one (nullptr, until
    // setClock), the system's.
    AccessibleTextProxy(const ClockedDelegate *clock, Describe describe, QObject *parent = nullptr)
        : Proxy(parent)
        , m_clock(clock)
        , m_describe(std::move(describe))
    {
    }

    void setClock(const ClockedDelegate *clock) { m_clock = clock; }

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::AccessibleTextRole && index.isValid()) {
            const QDateTime now = m_clock ? m_clock->now() : QDateTime::currentDateTime();
            return m_describe(this->mapToSource(index), now);
        }
        return Proxy::data(index, role);
    }

private:
    const ClockedDelegate *m_clock;
    Describe m_describe;
};

} // namespace Presence::Ui
