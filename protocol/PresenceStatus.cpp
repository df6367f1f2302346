#include "protocol/PresenceStatus.h"

using namespace Qt::StringLiterals;

namespace Presence::Protocol {

QString toString(PresenceStatus status)
{
    switch (status) {
    case PresenceStatus::Online:
        return u"online"_s;
    case PresenceStatus::Away:
        return u"away"_s;
    case PresenceStatus::Offline:
        return u"offline"_s;
    }
    return {};
}

QString toString(ChosenStatus status)
{
    switch (status) {
    case ChosenStatus::Online:
        return u"online"_s;
    case ChosenStatus::Away:
        return u"away"_s;
    case ChosenStatus::Invisible:
        return u"invisible"_s;
    }
    return {};
}

std::optional<PresenceStatus> presenceStatusFromString(QStringView text)
{
    if (text == u"online")
        return PresenceStatus::Online;
    if (text == u"away")
        return PresenceStatus::Away;
    if (text == u"offline")
        return PresenceStatus::Offline;
    return std::nullopt;
}

std::optional<ChosenStatus> chosenStatusFromString(QStringView text)
{
    if (text == u"online")
        return ChosenStatus::Online;
    if (text == u"away")
        return ChosenStatus::Away;
    if (text == u"invisible")
        return ChosenStatus::Invisible;
    return std::nullopt;
}

} // namespace Presence::Protocol
