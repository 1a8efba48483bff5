// SPDX-License-Identifier: MIT
// A sort of 32-bit keys for the stop points' buckets of start time: a bucket of a large run holds
// the thousands of ranks that start an operation at one time, in the scheduler's order, so its
// keys are many and close together. Those are placed through a bitmap of their range, in a time
// their count and range bound (a comparison sort took a sixth of the stop points' CPU at 16,384
// ranks); few keys, or keys far apart, are sorted with std::sort.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace rankstep::replay {

class KeySorter
{
public:
    // Sorts `keys` ascending (equal keys are equal values: their order is no question).
    void sort(std::span<std::uint32_t> keys);
    // Whether the last sort went through the bitmap (tests).
    bool usedBitmap() const { return m_usedBitmap; }

private:
    std::vector<std::uint64_t> m_bits;    // bit k: the key lowest + k is there
    std::vector<std::uint32_t> m_repeats; // a key's second and later copies
    bool m_usedBitmap = false;
};

} // namespace rankstep::replay
