#include "session/TokenSource.h"

// C++
#include <algorithm>

// Presence
#include "protocol/Identifiers.h"

namespace Presence::Session {

bool TokenSource::isWellFormed(const QString &token)
{
    return !token.isEmpty() && token.size() <= Protocol::kMaxTokenLength
        && std::none_of(token.cbegin(), token.cend(), [](QChar c) { return c.isSpace(); });
}

} // namespace Presence::Session
