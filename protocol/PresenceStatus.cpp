#include "protocol/PresenceStatus.h"

namespace Presence::Protocol {

QString toString(PresenceStatus status)
{
    return kPresenceStatusNames.name(status);
}

QString toString(ChosenStatus status)
{
    return kChosenStatusNames.name(status);
}

std::optional<PresenceStatus> presenceStatusFromString(QStringView text)
{
    return kPresenceStatusNames.value(text);
}

std::optional<ChosenStatus> chosenStatusFromString(QStringView text)
{
    return kChosenStatusNames.value(text);
}

} // namespace Presence::Protocol
