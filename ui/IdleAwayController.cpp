#include "ui/IdleAwayController.h"

#include "session/GatewaySession.h"

#include <QCoreApplication>
#include <QEvent>

#include <algorithm>

namespace Presence::Ui {

using Protocol::ChosenStatus;

IdleAwayController::IdleAwayController(
    Session::GatewaySession *session, std::chrono::milliseconds idleAfter, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    m_sinceInput.start();
    connect(&m_check, &QTimer::timeout, this, &IdleAwayController::onCheck);
    // A choice made by hand (from the header) ends our automatic away.
    connect(
        session, &Session::GatewaySession::chosenStatusChanged, this, [this](ChosenStatus status) {
            if (status != ChosenStatus::Away)
                m_autoAway = false;
        });
    setIdleAfter(idleAfter);
    QCoreApplication::instance()->installEventFilter(this);
}

IdleAwayController::~IdleAwayController()
{
    if (QCoreApplication::instance())
        QCoreApplication::instance()->removeEventFilter(this);
}

void IdleAwayController::setIdleAfter(std::chrono::milliseconds idleAfter)
{
    m_idleAfter = std::max(idleAfter, std::chrono::milliseconds(1));
    // Checking a tenth of the idle time (at most every 5 s) is precise enough, and cheaper
    // than restarting a timer on every mouse move.
    m_check.start(std::clamp(
        m_idleAfter / 10, std::chrono::milliseconds(10), std::chrono::milliseconds(5000)));
}

bool IdleAwayController::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::KeyPress:
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::Wheel:
    case QEvent::TouchBegin:
        onActivity();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

void IdleAwayController::onActivity()
{
    m_sinceInput.restart();
    if (m_autoAway && m_session->chosenStatus() == ChosenStatus::Away) {
        m_autoAway = false;
        m_session->setChosenStatus(ChosenStatus::Online);
    }
}

void IdleAwayController::onCheck()
{
    if (m_autoAway || m_session->chosenStatus() != ChosenStatus::Online)
        return;
    if (std::chrono::milliseconds(m_sinceInput.elapsed()) < m_idleAfter)
        return;
    m_session->setChosenStatus(ChosenStatus::Away);
    m_autoAway = true; // after the call: its chosenStatusChanged must not clear this
}

} // namespace Presence::Ui
