#pragma once

// Qt
#include <QStringView>

namespace Presence::Protocol {

inline constexpr int kProtocolVersion = 1;
inline constexpr qsizetype kMaxIdLength = 64;
inline constexpr qsizetype kMaxRefLength = 32;
// Room for a JSON Web Token signed with RSA 4096 and a few claims.
inline constexpr qsizetype kMaxTokenLength = 4096;
inline constexpr qsizetype kMaxClientNameLength = 128;
inline constexpr qsizetype kMaxDisplayNameLength = 128;

// A user id: 1-64 characters of [A-Za-z0-9._-].
[[nodiscard]] bool isValidId(QStringView id);

// A request reference: a string of at most 32 characters (may be empty).
[[nodiscard]] bool isValidRef(QStringView ref);

} // namespace Presence::Protocol
