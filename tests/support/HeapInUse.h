#pragma once

// C++
#include <cstdint>

namespace Presence::TestSupport {

// Bytes the process's allocator hands out right now: glibc's main arena and its mmapped
// blocks, or AddressSanitizer's allocator in a sanitized build (where glibc's malloc is not the
// one in use). For tests that check memory comes back, such as a dropped slow reader's
// backlog; allocations of other threads' arenas are not counted.
[[nodiscard]] std::int64_t heapInUse();

} // namespace Presence::TestSupport
