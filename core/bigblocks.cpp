// SPDX-License-Identifier: MIT
#include "bigblocks.h"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

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
constexpr std::size_t kPage = 4096;
// A block made ahead that nobody took within this long goes back to the kernel: the run that
// asked for its kind has ended.
constexpr auto kSpareLifetime = std::chrono::milliseconds(500);
// Blocks of one size made ahead: a record's four lists take whole chunks of the same size, and
// two may ask within the time one block takes to make.
constexpr int kAhead = 2;
// The size of a whole chunk of a record's list (core/chunkedvector.h, kChunkElements): smaller
// blocks are a list's first ones, growing, and the same size seldom comes again.
constexpr std::size_t kMadeAheadFrom = 2 * kHugePage;

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

// `size` bytes, a multiple of kHugePage, from a mapping one huge page longer, less what lies
// before the first 2 MiB boundary and after. Null when the kernel refuses.
void *mapBlock(std::size_t size) noexcept
{
    const std::size_t mapped = size + kHugePage;
    void *raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return nullptr;
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

// Blocks made on a second thread before the record asks for them. Each fresh page costs the
// kernel a page fault and zeroing it, a fifth to a third of a large run's time on one core
// (docs/benchmarks.md); the engine is one thread, so the other core can take that on. A
// whole chunk of a record's list is taken every few tens of thousands of events, so the next
// blocks of each whole-chunk size asked for are made ahead.
class Spares
{
public:
    // A block of `size` bytes whose pages are in place, or null (none ready: the caller maps its
    // own). Either way the next block of that size is made ahead.
    void *take(std::size_t size)
    {
        if (size < kMadeAheadFrom)
            return nullptr;
        std::lock_guard lock(m_mutex);
        if (!m_started && !start())
            return nullptr;
        void *block = nullptr;
        if (const auto ready = std::find_if(m_ready.begin(), m_ready.end(),
                                            [size](const Block &b) { return b.size == size; });
            ready != m_ready.end()) {
            block = ready->block;
            m_ready.erase(ready);
            ++m_counts.takenAhead;
        }
        if (const int ahead = aheadOf(size); ahead < kAhead) {
            m_wanted.insert(m_wanted.end(), std::size_t(kAhead - ahead), size);
            m_wake.notify_one();
        }
        return block;
    }
    BigBlockCounts counts()
    {
        std::lock_guard lock(m_mutex);
        return m_counts;
    }
    // Held across fork(), so that no thread holds it half-way through a change when it is copied.
    void lock() { m_mutex.lock(); }
    void unlock() { m_mutex.unlock(); }
    void waitUntilIdle()
    {
        std::unique_lock lock(m_mutex);
        m_idle.wait(lock, [this] { return !m_started || (m_wanted.empty() && m_making == 0); });
    }

private:
    struct Block {
        std::size_t size = 0;
        void *block = nullptr;
    };
    int aheadOf(std::size_t size) const // blocks of `size` ready, wanted or being made
    {
        int ahead = m_making == size ? 1 : 0;
        for (const Block &b : m_ready)
            ahead += b.size == size ? 1 : 0;
        for (std::size_t wanted : m_wanted)
            ahead += wanted == size ? 1 : 0;
        return ahead;
    }
    bool start() // under the lock
    {
        try {
            std::thread(&Spares::work, this).detach();
            m_started = true;
        } catch (const std::system_error &) {
            // No thread (a process limit): every block is mapped when asked for, as before.
        }
        return m_started;
    }
    void work()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            if (m_wanted.empty() &&
                !m_wake.wait_for(lock, kSpareLifetime, [this] { return !m_wanted.empty(); })) {
                std::vector<Block> unused;
                unused.swap(m_ready);
                lock.unlock();
                for (const Block &b : unused)
                    munmap(b.block, b.size);
                lock.lock();
                m_wake.wait(lock, [this] { return !m_wanted.empty(); });
            }
            const std::size_t size = m_making = m_wanted.front();
            m_wanted.erase(m_wanted.begin());
            lock.unlock();
            void *block = mapBlock(size);
            if (block) {
                // A write to every page: the kernel faults each (a huge page at its first) in now.
                auto *bytes = static_cast<volatile unsigned char *>(block);
                for (std::size_t at = 0; at < size; at += kPage)
                    bytes[at] = 0;
            }
            lock.lock();
            if (block) {
                m_ready.push_back({size, block});
                ++m_counts.madeAhead;
            }
            m_making = 0;
            if (m_wanted.empty())
                m_idle.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake; // a size is wanted
    std::condition_variable m_idle; // nothing wanted nor being made
    std::vector<std::size_t> m_wanted;
    std::vector<Block> m_ready;
    std::size_t m_making = 0; // the size being made, 0: none
    bool m_started = false;
    BigBlockCounts m_counts;
};

// Made once and never destroyed: a thread that outlives main() must find it there. A child made
// by fork() (cli/supervisor.cpp runs each run in one) has no second thread, and may have copied
// the lock taken: it starts a Spares of its own. The parent's blocks made ahead stay mapped in the
// child, unused.
Spares *g_spares = nullptr;

Spares &spares()
{
    static const bool made = [] {
        g_spares = new Spares; // NOLINT(cppcoreguidelines-owning-memory): never ends
        pthread_atfork([] { g_spares->lock(); }, [] { g_spares->unlock(); },
                       [] { g_spares = new Spares; }); // NOLINT(cppcoreguidelines-owning-memory)
        return true;
    }();
    (void)made;
    return *g_spares;
}

} // namespace

void *allocateBig(std::size_t bytes)
{
    // Whole huge pages: a chunk of core/chunkedvector.h fills two to within one element.
    if (isBig(bytes))
        if (void *ready = spares().take(roundUp(bytes, kHugePage)))
            return ready;
    return mapUnwritten(bytes);
}

void *mapUnwritten(std::size_t bytes)
{
    if (!isBig(bytes))
        return ::operator new(bytes);
    void *block = mapBlock(roundUp(bytes, kHugePage));
    if (!block)
        throw std::bad_alloc();
    return block;
}

void releaseBig(void *block, std::size_t bytes) noexcept
{
    if (!isBig(bytes)) {
        ::operator delete(block);
        return;
    }
    munmap(block, roundUp(bytes, kHugePage));
}

BigBlockCounts bigBlockCounts()
{
#ifdef RANKSTEP_PLAIN_BLOCKS
    return {};
#else
    return spares().counts();
#endif
}

void waitForBlocksAhead()
{
#ifndef RANKSTEP_PLAIN_BLOCKS
    spares().waitUntilIdle();
#endif
}

} // namespace rankstep::core
