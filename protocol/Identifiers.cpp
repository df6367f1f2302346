#include "protocol/Identifiers.h"

namespace Presence::Protocol {

bool isValidId(QStringView id)
{
    if (id.isEmpty() || id.size() > kMaxIdLength)
        return false;
    for (const QChar c : id) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z')
            || (u >= u'0' && u <= u'9') || u == u'.' || u == u'_' || u == u'-';
        if (!ok)
            return false;
    }
    return true;
}

bool isValidRef(QStringView ref)
{
    return ref.size() <= kMaxRefLength;
}

} // namespace Presence::Protocol
