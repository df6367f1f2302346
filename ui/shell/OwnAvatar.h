#pragma once

// Qt
#include <QString>
#include <QWidget>

// Presence
#include "models/PresenceState.h"

namespace Presence::Ui {

// The signed-in user's avatar in the header, with the presence mark others see: green while
// online, amber while away, the offline ring while invisible or not connected.
class OwnAvatar : public QWidget {
    Q_OBJECT
public:
    explicit OwnAvatar(QWidget *parent = nullptr);

    void setUser(const QString &id, const QString &name);
    void setState(Models::PresenceState state);
    [[nodiscard]] Models::PresenceState state() const { return m_state; }

    [[nodiscard]] QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_id;
    QString m_name;
    Models::PresenceState m_state = Models::PresenceState::Unknown;
};

} // namespace Presence::Ui
