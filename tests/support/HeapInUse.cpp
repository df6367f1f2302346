#include "HeapInUse.h"

// C++
#include <cstddef>
#include <malloc.h>

#if defined(__SANITIZE_ADDRESS__)
#define PRESENCE_HEAP_OF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRESENCE_HEAP_OF_ASAN 1
#endif
#endif

#ifdef PRESENCE_HEAP_OF_ASAN
// As <sanitizer/allocator_interface.h> declares it; GCC on Debian ships the runtime, not the
// header.
extern "C" std::size_t
__sanitizer_get_current_allocated_bytes(); // NOLINT(bugprone-reserved-identifier)
#endif

namespace Presence::TestSupport {

std::int64_t heapInUse()
{
#ifdef PRESENCE_HEAP_OF_ASAN
    return std::int64_t(__sanitizer_get_current_allocated_bytes());
#else
    const struct mallinfo2 info = mallinfo2();
    return std::int64_t(info.uordblks + info.hblkhd);
#endif
}

} // namespace Presence::TestSupport
