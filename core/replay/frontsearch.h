// SPDX-License-Identifier: MIT
// A search of a sorted list from its front, for the steps that touch many ranks near the start
// of a run: a binary search of a rank's long list of events or changes reads a cold cache line a
// halving, while the place near its front is found in the list's first few lines.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rankstep::replay {

// std::lower_bound(sorted.begin(), sorted.end(), bound), found by doubling the distance from the
// front (a galloping search): O(log k) for an answer at index k.
template <typename Index>
typename std::vector<Index>::const_iterator lowerBoundFromFront(const std::vector<Index> &sorted,
                                                                std::size_t bound)
{
    std::size_t low = 0;  // every element before it is below `bound`
    std::size_t high = 0; // the element tried next
    while (high < sorted.size() && std::size_t(sorted[high]) < bound) {
        low = high + 1;
        high = 2 * high + 1;
    }
    const auto begin = sorted.begin();
    return std::lower_bound(begin + std::ptrdiff_t(low),
                            begin + std::ptrdiff_t(std::min(high, sorted.size())), bound,
                            [](Index element, std::size_t b) { return std::size_t(element) < b; });
}

} // namespace rankstep::replay
