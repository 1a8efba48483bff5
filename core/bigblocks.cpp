// SPDX-License-Identifier: MIT
#include "bigblocks.h"

#include <sys/mman.h>

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)
#define RANKSTEP_PLAIN_BLOCKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RANKSTEP_PLAIN_BLOCKS 1
#endif
#endif

namespace rankstep::core {

namespace {

constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kSmallest = std::size_t(1) << 20;

bool isBig(std::size_t bytes)
{
#ifdef RANKSTEP_PLAIN_BLOCKS
    (void)bytes;
    return false;
#else
    return bytes >= kSmallest;
#endif
}

std::size_t roundUp(std::size_t bytes, std::size_t unit)
{
    return (bytes + unit - 1) / unit * unit;
}

} // namespace

void *allocateBig(std::size_t bytes)
{
    if (!isBig(bytes))
        return ::operator new(bytes);
    // Whole huge pages (a chunk of core/chunkedvector.h fills two to within one element), from a
    // mapping one huge page longer, less what lies before the first 2 MiB boundary and after.
    const std::size_t size = roundUp(bytes, kHugePage);
    const std::size_t mapped = size + kHugePage;
    void *raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    const auto first = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t start = roundUp(first, kHugePage);
    if (start > first)
        munmap(raw, start - first);
    if (const std::uintptr_t tail = first + mapped - (start + size); tail > 0)
        munmap(reinterpret_cast<void *>(start + size), tail);
    // Refused where the kernel has no transparent huge pages: the block then works as plain pages.
    madvise(reinterpret_cast<void *>(start), size, MADV_HUGEPAGE);
    return reinterpret_cast<void *>(start);
}

void releaseBig(void *block, std::size_t bytes) noexcept
{
    if (!isBig(bytes)) {
        ::operator delete(block);
        return;
    }
    munmap(block, roundUp(bytes, kHugePage));
}

} // namespace rankstep::core
