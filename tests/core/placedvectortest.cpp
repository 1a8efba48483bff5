// SPDX-License-Identifier: MIT
// PlacedVector (core/placedvector.h): a vector that starts in room it is given and grows out of it.
#include "core/placedvector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace rankstep::core {
namespace {

constexpr std::byte kUntouched{0x5a};

// Texts long enough to live on the heap, so that a copy that shared them would show.
std::string text(int i)
{
    return "element number " + std::to_string(i) + " of a placed vector";
}

TEST(PlacedVector, StartsInItsRoomAndGrowsOutOfItWithoutWritingPastIt)
{
    alignas(std::string) std::byte room[6 * sizeof(std::string)];
    std::fill(std::begin(room), std::end(room), kUntouched);
    const auto untouchedTail = [&] {
        return std::all_of(room + 4 * sizeof(std::string), std::end(room),
                           [](std::byte b) { return b == kUntouched; });
    };
    {
        PlacedVector<std::string> values;
        values.place(room, 4);
        for (int i = 0; i < 4; ++i)
            values.push_back(text(i));
        EXPECT_EQ(static_cast<void *>(&values[0]), static_cast<void *>(room));
        EXPECT_TRUE(untouchedTail());
        for (int i = 4; i < 20; ++i)
            values.push_back(text(i));
        EXPECT_TRUE(untouchedTail());
        EXPECT_NE(static_cast<void *>(&values[0]), static_cast<void *>(room));
        ASSERT_EQ(values.size(), 20U);
        for (int i = 0; i < 20; ++i)
            EXPECT_EQ(values[std::size_t(i)], text(i));
        values.pop_back();
        EXPECT_EQ(values.back(), text(18));
    }
    EXPECT_TRUE(untouchedTail());
}

TEST(PlacedVector, ACopyOwnsItsPlacesAndAMoveTakesThem)
{
    alignas(std::string) std::byte room[4 * sizeof(std::string)];
    PlacedVector<std::string> placed;
    placed.place(room, 4);
    placed.push_back(text(1));
    placed.push_back(text(2));
    const PlacedVector<std::string> copy = placed;
    EXPECT_NE(static_cast<const void *>(&copy[0]), static_cast<void *>(room));
    placed[0] = text(7);
    EXPECT_EQ(copy[0], text(1));

    PlacedVector<std::string> other;
    other.push_back(text(3));
    other = std::move(placed); // takes the places in the room along
    ASSERT_EQ(other.size(), 2U);
    EXPECT_EQ(other[0], text(7));
    EXPECT_EQ(static_cast<void *>(&other[0]), static_cast<void *>(room));
    EXPECT_TRUE(placed.empty());
    other = copy;
    ASSERT_EQ(other.size(), 2U);
    EXPECT_EQ(other[0], text(1));
    EXPECT_NE(static_cast<void *>(&other[0]), static_cast<void *>(room));

    PlacedVector<int> table;
    table.resize(5, 0);
    table[4] = 9;
    table.resize(3, 1); // never shrinks
    EXPECT_EQ(table.size(), 5U);
    EXPECT_EQ(table[4], 9);
}

TEST(PlacedVector, ATableGrownAKeyAtATimeMovesAFewTimesNotAtEveryKey)
{
    // A learner's weights[0], weights[1], ... up to 65,535: the int-key table grows by one
    // each time. Growing to the exact size moved the whole table at every key.
    std::int32_t room[10];
    PlacedVector<std::int32_t> table;
    table.place(room, 10);
    int moves = 0;
    const std::int32_t *places = nullptr;
    for (std::size_t count = 1; count <= 65536; ++count) {
        table.resize(count, 0);
        table[count - 1] = std::int32_t(count);
        if (&table[0] != places) {
            ++moves;
            places = &table[0];
        }
    }
    EXPECT_LE(moves, 15); // the room, then doubling: 10 -> 20 -> ... -> 81,920
    for (std::size_t i = 0; i < table.size(); ++i)
        ASSERT_EQ(table[i], std::int32_t(i + 1));
}

} // namespace
} // namespace rankstep::core
