// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>

namespace rankstep::gui {

// The walks over a run's events read and write, for each event, its rank's state: at 16,384 ranks
// megabytes of it, more than the processor's cache holds, and the ranks' events interleaved, so
// each event waited for its rank's state from memory. Asked for this many events ahead, it has
// arrived when the walk gets there.
inline constexpr std::size_t kPrefetchAhead = 16;

// Asks the processor to bring the cache line holding `address` in, without waiting for it.
inline void prefetch(const void *address)
{
    __builtin_prefetch(address);
}

// The element of `states` of the rank of the event kPrefetchAhead events after `index` in `events`
// (before `end`), when there is one: prefetched (its first two cache lines).
template <typename Events, typename States>
void prefetchRankAhead(const Events &events, std::size_t index, std::size_t end,
                       const States &states)
{
    if (index + kPrefetchAhead >= end)
        return;
    const int rank = events[index + kPrefetchAhead].rank;
    if (rank >= 0 && std::size_t(rank) < states.size()) {
        const auto *state = &states[std::size_t(rank)];
        prefetch(state);
        if constexpr (sizeof(*state) > 64)
            prefetch(reinterpret_cast<const char *>(state) + 64);
    }
}

} // namespace rankstep::gui
