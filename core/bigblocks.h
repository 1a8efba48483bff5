// SPDX-License-Identifier: MIT
// Memory for the long arrays of a run's record (events, storage changes, slices and the objects
// the changes set). A block of 1 MiB or more comes straight from the kernel, starts on a 2 MiB
// boundary and is marked for transparent huge pages, so the first touch of each 2 MiB of it costs
// one page fault instead of 512. Recording FSDP at 1024 ranks x 96 layers writes about 190 MB of
// fresh memory, and each 4 KiB fault costs 10-30 us here: a third of the engine's time went to
// the kernel (docs/benchmarks.md). Smaller blocks, and every block in a
// sanitizer build (whose leak checker reads the heap, not private mappings), use operator new.
// A second thread makes the next blocks of each whole-chunk size (4 MiB and up) asked for ahead of
// the ask, pages in place, so that the kernel's work on them runs beside the engine's
// (core/bigblocks.cpp, Spares).
#pragma once

#include <cstddef>
#include <new>

namespace rankstep::core {

// At least `bytes`, aligned for any object; std::bad_alloc when the kernel refuses.
void *allocateBig(std::size_t bytes);
// Gives back a block of allocateBig(bytes) or mapUnwritten(bytes), with the same `bytes`.
void releaseBig(void *block, std::size_t bytes) noexcept;
// The same as allocateBig, but never a block made ahead, whose pages are all in place: for a list
// made at the largest size it may need, of which only the pages written are ever made.
void *mapUnwritten(std::size_t bytes);

// What the second thread did since the process began: blocks made ahead, and those a caller took.
struct BigBlockCounts {
    std::size_t madeAhead = 0;
    std::size_t takenAhead = 0;
};
BigBlockCounts bigBlockCounts();
// Returns when the second thread has no block left to make (tests). At once in a sanitizer build.
void waitForBlocksAhead();

template <typename T>
struct BigBlockAllocator {
    using value_type = T;
    BigBlockAllocator() = default;
    template <typename U>
    BigBlockAllocator(const BigBlockAllocator<U> &) noexcept // NOLINT: as std::allocator's
    {}
    T *allocate(std::size_t count)
    {
        if (count > std::size_t(-1) / sizeof(T))
            throw std::bad_array_new_length();
        return static_cast<T *>(allocateBig(count * sizeof(T)));
    }
    void deallocate(T *block, std::size_t count) noexcept { releaseBig(block, count * sizeof(T)); }
    template <typename U>
    bool operator==(const BigBlockAllocator<U> &) const noexcept
    {
        return true;
    }
};

} // namespace rankstep::core
