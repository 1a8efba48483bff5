// SPDX-License-Identifier: MIT
#include "keysorter.h"

#include <algorithm>
#include <bit>
#include <cstddef>

namespace rankstep::replay {

namespace {

// Fewer keys are sorted by std::sort (an insertion sort at this size); a bitmap is used when it
// has at most this many 64-bit words a key, so that reading it back costs no more than the keys.
constexpr std::size_t kFewest = 32;
constexpr std::size_t kWordsPerKey = 2;

} // namespace

void KeySorter::sort(std::span<std::uint32_t> keys)
{
    m_usedBitmap = false;
    if (keys.size() < 2)
        return;
    std::uint32_t lowest = keys[0], highest = keys[0];
    bool sorted = true;
    for (std::size_t i = 1; i < keys.size(); ++i) {
        sorted = sorted && keys[i - 1] <= keys[i];
        lowest = std::min(lowest, keys[i]);
        highest = std::max(highest, keys[i]);
    }
    if (sorted)
        return;
    const std::size_t words = std::size_t(highest - lowest) / 64 + 1;
    if (keys.size() < kFewest || words > kWordsPerKey * keys.size()) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    m_usedBitmap = true;
    m_bits.assign(words, 0);
    m_repeats.clear();
    for (const std::uint32_t key : keys) {
        const std::uint32_t at = key - lowest;
        const std::uint64_t bit = std::uint64_t(1) << (at & 63U);
        std::uint64_t &word = m_bits[at >> 6];
        if ((word & bit) != 0)
            m_repeats.push_back(key);
        word |= bit;
    }
    std::sort(m_repeats.begin(), m_repeats.end());
    // Each key present in order, its repeats after it.
    auto out = keys.begin();
    auto repeat = m_repeats.cbegin();
    for (std::size_t w = 0; w < words; ++w) {
        for (std::uint64_t word = m_bits[w]; word != 0; word &= word - 1) {
            const auto key = std::uint32_t(lowest + 64 * w + std::size_t(std::countr_zero(word)));
            *out++ = key;
            for (; repeat != m_repeats.cend() && *repeat == key; ++repeat)
                *out++ = key;
        }
    }
}

} // namespace rankstep::replay
