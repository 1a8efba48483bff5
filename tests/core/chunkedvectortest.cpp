// SPDX-License-Identifier: MIT
// The trace's chunked sequence: appending never moves an element, indexing crosses chunks, and
// the standard algorithms the views use work on it as on a vector.
#include "core/chunkedvector.h"
#include "core/trace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

namespace rankstep::core {
namespace {

using Small = ChunkedVector<int, 8>; // chunks of 8: a few hundred elements cross many

TEST(ChunkedVector, AppendingNeverMovesAnElementPastTheFirstChunk)
{
    Small values;
    values.push_back(0);
    std::vector<const int *> addresses;
    for (int i = 1; i < 300; ++i) {
        values.push_back(i);
        if (i >= int(Small::kChunk)) // the first chunk grows as a vector does
            addresses.push_back(&values[std::size_t(i)]);
    }
    for (std::size_t k = 0; k < addresses.size(); ++k)
        EXPECT_EQ(addresses[k], &values[Small::kChunk + k]) << k;
    ASSERT_EQ(values.size(), 300U);
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i], int(i));
    EXPECT_EQ(values.back(), 299);
    EXPECT_EQ(values.indexOf(&values[157]), 157U);
    const int elsewhere = 7;
    EXPECT_EQ(values.indexOf(&elsewhere), values.size());
}

TEST(ChunkedVector, WorksWithTheStandardAlgorithms)
{
    Small values;
    for (int i = 0; i < 100; ++i)
        values.push_back(2 * i);
    EXPECT_EQ(std::accumulate(values.begin(), values.end(), 0), 9900);
    const auto it = std::lower_bound(values.begin(), values.end(), 77);
    EXPECT_EQ(it - values.begin(), 39);
    EXPECT_EQ(*it, 78);
    EXPECT_EQ(std::distance(values.rbegin(), values.rend()), 100);
    EXPECT_EQ(*values.rbegin(), 198);
    const auto found =
        std::partition_point(values.begin(), values.end(), [](int v) { return v < 21; });
    EXPECT_EQ(*found, 22);

    Small copy = values;
    EXPECT_EQ(copy, values);
    copy[63] = -1;
    EXPECT_FALSE(copy == values);
    copy.resize(0);
    EXPECT_TRUE(copy.empty());
    copy.resize(20);
    EXPECT_EQ(copy.size(), 20U);
    EXPECT_EQ(copy[19], 0);
    EXPECT_THROW(static_cast<void>(copy.at(20)), std::out_of_range);
}

// The default chunk fills 4 MiB, which is no power of two elements for most records.
TEST(ChunkedVector, ChunksNeedNotHoldAPowerOfTwoElements)
{
    ChunkedVector<int, 7> values;
    for (int i = 0; i < 50; ++i)
        values.push_back(i);
    const int *eighth = &values[7];
    for (int i = 50; i < 100; ++i)
        values.push_back(i);
    EXPECT_EQ(&values[7], eighth);
    for (std::size_t i = 0; i < values.size(); ++i)
        EXPECT_EQ(values[i], int(i)) << i;
    EXPECT_EQ(values.indexOf(&values[48]), 48U);
    EXPECT_EQ(*std::lower_bound(values.begin(), values.end(), 66), 66);
    EXPECT_EQ(ChunkedVector<Event>::kChunk * sizeof(Event),
              (std::size_t(4) << 20) / sizeof(Event) * sizeof(Event));
}

} // namespace
} // namespace rankstep::core

namespace rankstep::core {
namespace {

// Issue 16: a long run records millions of these; the members are ordered so that no padding is
// wasted (136 and 64 bytes before, with Key at 32; then 56 and 64, with Key at 24 and a slice's
// text in the slice).
TEST(RecordSizes, TheRecordKeepsItsCompactLayout)
{
    EXPECT_LE(sizeof(Key), 16U);
    EXPECT_LE(sizeof(Object), 56U);
    EXPECT_LE(sizeof(StorageChange), 48U);
    EXPECT_LE(sizeof(Event), 88U);
    EXPECT_LE(sizeof(Slice), 32U);
}

Object weightOf(int layer)
{
    Object weight;
    weight.layer = layer;
    weight.layers = 4;
    weight.shards = IndexSet{0};
    return weight;
}

TEST(ChangeLog, AChangeSetsTheObjectTheLogKeepsAndADeleteNone)
{
    ChangeLog log;
    StorageChange set;
    set.key = Key(2);
    log.append(set, weightOf(2));
    log.append(set, std::nullopt);
    ASSERT_EQ(log.size(), 2U);
    ASSERT_NE(log[0].object, nullptr);
    EXPECT_EQ(*log[0].object, weightOf(2));
    EXPECT_EQ(log[1].object, nullptr);
    EXPECT_TRUE(sameObject(nullptr, nullptr));
    EXPECT_FALSE(sameObject(log[0].object, nullptr));
}

TEST(ChangeLog, ACopyPointsIntoItsOwnObjectsAndOutlivesTheOriginal)
{
    auto original = std::make_unique<ChangeLog>();
    for (int layer = 0; layer < 300; ++layer) // crosses chunks of the objects' sequence
        original->append(StorageChange{}, layer % 3 == 0 ? std::optional<Object>()
                                                         : std::optional<Object>(weightOf(layer)));
    const ChangeLog copy = *original;
    ChangeLog assigned;
    assigned.append(StorageChange{}, weightOf(99));
    assigned = copy;
    for (std::size_t i = 0; i < copy.size(); ++i) {
        EXPECT_TRUE(sameObject(copy[i].object, (*original)[i].object)) << i;
        if (copy[i].object) {
            EXPECT_NE(copy[i].object, (*original)[i].object) << i;
        }
    }
    original.reset(); // the copies' objects are their own
    for (std::size_t i = 0; i < copy.size(); ++i) {
        const int layer = int(i);
        if (layer % 3 == 0) {
            EXPECT_EQ(copy[i].object, nullptr);
            EXPECT_EQ(assigned[i].object, nullptr);
        } else {
            ASSERT_NE(copy[i].object, nullptr);
            EXPECT_EQ(copy[i].object->layer, layer);
            EXPECT_EQ(assigned[i].object->layer, layer);
        }
    }
    ChangeLog moved = std::move(assigned); // moving keeps every object where it is
    EXPECT_EQ(moved[1].object->layer, 1);
}

} // namespace
} // namespace rankstep::core
