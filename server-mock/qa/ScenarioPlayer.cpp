#include "server-mock/qa/ScenarioPlayer.h"

// C++
#include <algorithm>

// Qt
#include <QJsonDocument>

// Presence
#include "server-mock/qa/FaultInjector.h"
#include "server-mock/qa/Logging.h"
#include "server-mock/qa/SimulatedUsers.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

using Action = Scenario::Step::Action;

ScenarioPlayer::ScenarioPlayer(
    Scenario scenario, SimulatedUsers &users, FaultInjector &faults, QObject *parent)
    : QObject(parent)
    , m_scenario(std::move(scenario))
    , m_users(users)
    , m_faults(faults)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &ScenarioPlayer::onTick);
}

void ScenarioPlayer::start()
{
    qCInfo(lcScenario) << "playing" << m_scenario.steps().size() << "steps over"
                       << m_scenario.length().count() << "ms";
    m_clock.start();
    onTick();
}

void ScenarioPlayer::onTick()
{
    const QList<Scenario::Step> &steps = m_scenario.steps();
    while (m_next < steps.size() && steps.at(m_next).at.count() <= m_clock.elapsed())
        play(steps.at(m_next++));
    if (m_next < steps.size())
        m_timer.start(int(std::max<qint64>(0, steps.at(m_next).at.count() - m_clock.elapsed())));
    checkFinished();
}

void ScenarioPlayer::play(const Scenario::Step &step)
{
    const QString where = u"line %1 (at %2 ms, played at %3 ms):"_s.arg(step.line)
                              .arg(step.at.count())
                              .arg(m_clock.elapsed());
    switch (step.action) {
    case Action::SetStatus:
        qCInfo(lcScenario).noquote()
            << where << step.user << "is" << Protocol::toString(step.status);
        m_users.setStatus(step.user, step.status);
        break;
    case Action::Offline:
        qCInfo(lcScenario).noquote() << where << step.user << "goes offline";
        m_users.setStatus(step.user, std::nullopt);
        break;
    case Action::Connect:
        qCInfo(lcScenario).noquote() << where << "device" << step.device << "of" << step.user
                                     << "connects" << Protocol::toString(step.status);
        m_users.connectDevice(step.user, step.device, step.status);
        break;
    case Action::Disconnect:
        qCInfo(lcScenario).noquote()
            << where << "device" << step.device << "of" << step.user << "drops";
        if (!m_users.disconnectDevice(step.user, step.device))
            qCWarning(lcScenario).noquote() << where << "that device was not connected";
        break;
    case Action::StartFault: {
        qCInfo(lcScenario).noquote() << where << "fault" << step.faultId << "starts";
        QString error;
        if (m_faults.start(step.fault, step.faultId, &error).isEmpty()) {
            qCWarning(lcScenario).noquote() << where << error;
            break;
        }
        if (step.faultFor) {
            ++m_timedFaults;
            QTimer::singleShot(*step.faultFor, this, [this, id = step.faultId, line = step.line] {
                qCInfo(lcScenario).noquote()
                    << u"line %1: fault %2 ends (\"for\" ran out)"_s.arg(line).arg(id);
                m_faults.end(id);
                --m_timedFaults;
                checkFinished();
            });
        }
        break;
    }
    case Action::EndFault:
        qCInfo(lcScenario).noquote() << where << "fault" << step.faultId << "ends";
        if (!m_faults.end(step.faultId))
            qCInfo(lcScenario).noquote() << where << "it had ended already";
        break;
    case Action::Log:
        qCInfo(lcScenario).noquote() << where << step.text;
        break;
    }
}

void ScenarioPlayer::checkFinished()
{
    if (m_finished || m_next < m_scenario.steps().size() || m_timedFaults > 0)
        return;
    m_finished = true;
    qCInfo(lcScenario) << "scenario finished";
    Q_EMIT finished();
}

} // namespace Presence::Server
