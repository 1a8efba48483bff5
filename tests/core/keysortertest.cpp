// SPDX-License-Identifier: MIT
// The stop points' sort of a bucket's 32-bit keys gives std::sort's order whichever way it takes:
// many close keys through a bitmap (with repeats, at the bottom and the top of 32 bits), few or
// far-apart keys through std::sort.
#include "core/replay/keysorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace rankstep::testing {
namespace {

using replay::KeySorter;

// Sorts `keys` with `sorter`, expects std::sort's order, and says whether the bitmap was used.
bool sortsAsStdSort(KeySorter &sorter, std::vector<std::uint32_t> keys)
{
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    sorter.sort(keys);
    EXPECT_EQ(keys, expected);
    return sorter.usedBitmap();
}

// `count` keys from `lowest` to `lowest + span - 1`, in random order.
std::vector<std::uint32_t> randomKeys(std::mt19937 &random, std::size_t count, std::uint32_t lowest,
                                      std::uint32_t span)
{
    std::vector<std::uint32_t> keys(count);
    for (std::uint32_t &key : keys)
        key = lowest + std::uint32_t(random() % span);
    return keys;
}

TEST(KeySorter, ManyCloseKeysSortThroughTheBitmapWithTheirRepeats)
{
    // A bucket's ranks at one start (distinct keys), many repeated, a range of one word and
    // one of many, across the 16-bit bound.
    std::mt19937 random(3);
    KeySorter sorter;
    std::vector<std::uint32_t> ranks(4096);
    for (std::uint32_t r = 0; r < ranks.size(); ++r)
        ranks[r] = 5U << 14 | r;
    std::shuffle(ranks.begin(), ranks.end(), random);
    EXPECT_TRUE(sortsAsStdSort(sorter, ranks));
    EXPECT_TRUE(sortsAsStdSort(sorter, randomKeys(random, 500, 0, 40)));
    EXPECT_TRUE(sortsAsStdSort(sorter, randomKeys(random, 40, 7, 64)));
    EXPECT_TRUE(sortsAsStdSort(sorter, randomKeys(random, 3000, 0xfff0, 0x2000)));
    std::vector<std::uint32_t> same(100, 77);
    same.push_back(76);
    EXPECT_TRUE(sortsAsStdSort(sorter, same));
}

TEST(KeySorter, KeysAtTheTopOfThirtyTwoBitsSortThroughTheBitmap)
{
    std::mt19937 random(5);
    KeySorter sorter;
    std::vector<std::uint32_t> keys = randomKeys(random, 300, 0xffffff00U, 0x100);
    keys.push_back(0xffffffffU);
    keys.push_back(0xffffffffU);
    keys.push_back(0xffffff00U);
    EXPECT_TRUE(sortsAsStdSort(sorter, keys));
}

TEST(KeySorter, FewOrFarApartKeysSortWithoutTheBitmap)
{
    std::mt19937 random(9);
    KeySorter sorter;
    EXPECT_FALSE(sortsAsStdSort(sorter, randomKeys(random, 31, 0, 8)));
    EXPECT_FALSE(sortsAsStdSort(sorter, randomKeys(random, 1000, 0, 0xffffffffU)));
    EXPECT_FALSE(sortsAsStdSort(sorter, {0xffffffffU, 0, 0xffffffffU, 0}));
    EXPECT_FALSE(sortsAsStdSort(sorter, {}));
    std::vector<std::uint32_t> sorted(100);
    for (std::uint32_t i = 0; i < sorted.size(); ++i)
        sorted[i] = i / 3;
    EXPECT_FALSE(sortsAsStdSort(sorter, sorted)); // already in order: left as it is
}

} // namespace
} // namespace rankstep::testing
