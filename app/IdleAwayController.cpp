#include "app/IdleAwayController.h"

// C++
#include <algorithm>

// Qt
#include <QCoreApplication>
#include <QEvent>

// Presence
#include "app/DesktopIdle.h"
#include "session/GatewaySession.h"

namespace Presence::App {

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

void IdleAwayController::setDesktop(DesktopIdle *desktop)
{
    if (m_desktop)
        disconnect(m_desktop, nullptr, this, nullptr);
    m_desktop = desktop;
    if (!desktop)
        return;
    connect(desktop, &DesktopIdle::idleTimeReported, this,
        [this](std::chrono::milliseconds sinceLastInput) {
            // Our own input counts too, in case the desktop misses some of it.
            apply(std::min(sinceLastInput, std::chrono::milliseconds(m_sinceInput.elapsed())));
        });
    connect(desktop, &DesktopIdle::lockChanged, this, &IdleAwayController::onLockChanged);
    connect(desktop, &DesktopIdle::sleepStarted, this, &IdleAwayController::goAway);
}

void IdleAwayController::onActivity()
{
    m_sinceInput.restart();
    if (!m_locked)
        comeBack();
}

void IdleAwayController::onCheck()
{
    if (m_desktop && m_desktop->knowsIdleTime())
        m_desktop->queryIdleTime(); // apply() follows with the answer
    else
        apply(std::chrono::milliseconds(m_sinceInput.elapsed()));
}

void IdleAwayController::apply(std::chrono::milliseconds idle)
{
    if (idle >= m_idleAfter)
        goAway();
    else if (!m_locked)
        comeBack(); // input elsewhere on the desktop
}

void IdleAwayController::goAway()
{
    if (m_autoAway || m_session->chosenStatus() != ChosenStatus::Online)
        return;
    m_session->setChosenStatus(ChosenStatus::Away);
    m_autoAway = true; // after the call: its chosenStatusChanged must not clear this
}

void IdleAwayController::comeBack()
{
    if (!m_autoAway || m_session->chosenStatus() != ChosenStatus::Away)
        return;
    m_autoAway = false;
    m_session->setChosenStatus(ChosenStatus::Online);
}

void IdleAwayController::onLockChanged(bool locked)
{
    m_locked = locked;
    if (locked) {
        goAway(); // at once: nobody is at a locked screen
    } else {
        m_sinceInput.restart(); // unlocking is input
        comeBack();
    }
}

} // namespace Presence::App
