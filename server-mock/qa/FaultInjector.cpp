#include "server-mock/qa/FaultInjector.h"

// C++
#include <algorithm>

// Qt
#include <QJsonDocument>

// Presence
#include "server-mock/qa/Logging.h"

using namespace Qt::StringLiterals;

namespace Presence::Server {

namespace {

bool actsOnce(FaultKind kind)
{
    return kind == FaultKind::Drop || kind == FaultKind::Close || kind == FaultKind::Crash;
}

// Whether a fault naming `faultUser` (empty: everybody) concerns userId.
bool concerns(const QString &faultUser, const QString &userId)
{
    return faultUser.isEmpty() || faultUser == userId;
}

} // namespace

FaultInjector::FaultInjector(QObject *parent)
    : QObject(parent)
{
}

QString FaultInjector::start(const FaultSpec &fault, const QString &id, QString *error)
{
    QString name = id;
    if (name.isEmpty()) {
        do
            name = u"f%1"_s.arg(m_nextNumber++);
        while (m_running.contains(name));
    } else if (m_running.contains(name)) {
        if (error)
            *error = u"fault \"%1\" is running already"_s.arg(name);
        return {};
    }
    qCInfo(lcFaults).noquote() << u"fault %1 started: %2"_s.arg(
        name, QString::fromUtf8(QJsonDocument(fault.toJson()).toJson(QJsonDocument::Compact)));
    if (!actsOnce(fault.kind)) {
        m_running.insert(name, fault);
        if (fault.kind == FaultKind::Refuse) {
            auto *timer = new QTimer(this);
            timer->setSingleShot(true);
            connect(timer, &QTimer::timeout, this, [this, name] { end(name); });
            timer->start(std::chrono::ceil<std::chrono::milliseconds>(fault.refuseFor));
            m_endTimers.insert(name, timer);
        }
    }
    Q_EMIT faultStarted(name, fault);
    return name;
}

bool FaultInjector::end(const QString &id)
{
    const auto it = m_running.find(id);
    if (it == m_running.end())
        return false;
    const FaultSpec fault = *it;
    m_running.erase(it);
    if (QTimer *timer = m_endTimers.take(id))
        timer->deleteLater();
    qCInfo(lcFaults).noquote() << u"fault %1 ended (%2)"_s.arg(id, toString(fault.kind));
    Q_EMIT faultEnded(id, fault);
    return true;
}

QList<FaultInjector::Running> FaultInjector::running() const
{
    QList<Running> result;
    for (auto it = m_running.cbegin(); it != m_running.cend(); ++it)
        result.append({ it.key(), *it });
    std::sort(result.begin(), result.end(),
        [](const Running &a, const Running &b) { return a.id < b.id; });
    return result;
}

bool FaultInjector::anyRunning(FaultKind kind, const QString &userId) const
{
    return std::any_of(m_running.cbegin(), m_running.cend(),
        [&](const FaultSpec &fault) { return fault.kind == kind && concerns(fault.user, userId); });
}

std::chrono::milliseconds FaultInjector::outgoingDelayFor(const QString &userId) const
{
    std::chrono::milliseconds delay { 0 };
    for (const FaultSpec &fault : m_running) {
        if (fault.kind == FaultKind::Delay && concerns(fault.user, userId))
            delay = std::max(delay, fault.delay);
    }
    return delay;
}

bool FaultInjector::isStalled(const QString &userId) const
{
    return anyRunning(FaultKind::Stall, userId);
}

bool FaultInjector::duplicatesPresenceOf(const QString &userId) const
{
    return anyRunning(FaultKind::Duplicate, userId);
}

bool FaultInjector::reordersPresenceOf(const QString &userId) const
{
    return anyRunning(FaultKind::Reorder, userId);
}

bool FaultInjector::losesPresenceOf(const QString &userId) const
{
    return anyRunning(FaultKind::Lose, userId);
}

bool FaultInjector::refusesConnections() const
{
    return std::any_of(m_running.cbegin(), m_running.cend(),
        [](const FaultSpec &fault) { return fault.kind == FaultKind::Refuse; });
}

} // namespace Presence::Server
