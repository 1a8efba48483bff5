// SPDX-License-Identifier: MIT
// The stop points' counts of start times made while their range grows, and the bits of the
// distinct ends, are what counting the times plainly in their final buckets gives: for narrow and
// wide ranges (the counts' buckets widened many times), at the bounds of 32 and 64 bits; and they
// say so when a time comes before their origin, or when the final buckets are narrower.
#include "core/replay/timebuckets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace rankstep::testing {
namespace {

using core::SimTime;
using replay::GrowingBits;
using replay::GrowingCounts;
using replay::TimeBuckets;

// `count` times from `origin` (the first of them) within `span` ticks.
std::vector<SimTime> randomTimes(std::mt19937_64 &random, std::size_t count, std::int64_t origin,
                                 std::uint64_t span)
{
    std::vector<SimTime> times{SimTime::fromTicks(origin)};
    while (times.size() < count)
        times.push_back(SimTime::fromTicks(
            std::int64_t(std::uint64_t(origin) + (span == 0 ? 0 : random() % span))));
    return times;
}

// Counts the times while they come, then expects the counts of the final buckets; or none when
// `wide` (few times over a range so wide that the final buckets are 2^22, more than are counted).
void expectPlainCounts(const std::vector<SimTime> &times, bool wide)
{
    GrowingCounts growing(times.front().ticks(), TimeBuckets::fewestMost(times.size()));
    for (const SimTime time : times)
        growing.add(time);
    ASSERT_FALSE(growing.lost());
    const SimTime latest = *std::max_element(times.begin(), times.end());
    const TimeBuckets buckets(times.front().ticks(), latest.ticks(), times.size());
    std::vector<std::uint32_t> plain(buckets.count());
    for (const SimTime time : times)
        ++plain[buckets.of(time)];
    if (wide) {
        EXPECT_LT(buckets.shift(), growing.shift());
        EXPECT_TRUE(growing.countsIn(buckets).empty());
        return;
    }
    EXPECT_LE(growing.shift(), buckets.shift());
    EXPECT_EQ(growing.countsIn(buckets), plain);
}

TEST(TimeBuckets, CountsMadeAsTheRangeGrowsAreThoseOfTheFinalBuckets)
{
    std::mt19937_64 random(13);
    const std::int64_t top = std::numeric_limits<std::int64_t>::max();
    const std::int64_t bottom = std::numeric_limits<std::int64_t>::min();
    const struct {
        std::size_t count;
        std::int64_t origin;
        std::uint64_t span;
        bool wide;
    } shapes[] = {{1, 0, 0, false},
                  {50, 0, 0, false},
                  {1000, 0, 1, false},
                  {5000, 0, 3000, false},
                  {4000, 7, std::uint64_t(1) << 16, false},
                  {80000, 0, std::uint64_t(1) << 28, false},
                  {20000, 0, (std::uint64_t(1) << 32) + 5, true},
                  {3000, -(std::int64_t(1) << 40), std::uint64_t(1) << 41, true},
                  {3000, bottom, std::numeric_limits<std::uint64_t>::max(), true},
                  {2000, top - 100000, 100001, false}};
    for (const auto &shape : shapes) {
        SCOPED_TRACE(::testing::Message()
                     << shape.count << " times from " << shape.origin << " within " << shape.span);
        expectPlainCounts(randomTimes(random, shape.count, shape.origin, shape.span), shape.wide);
    }
    // The top of 64 bits itself.
    std::vector<SimTime> times = randomTimes(random, 300, top - 1000, 1000);
    times.push_back(SimTime::fromTicks(top));
    expectPlainCounts(times, false);
}

TEST(TimeBuckets, ATimeBeforeTheOriginLosesTheCounts)
{
    GrowingCounts growing(100, 64);
    growing.add(SimTime::fromTicks(100));
    growing.add(SimTime::fromTicks(5000));
    EXPECT_FALSE(growing.lost());
    growing.add(SimTime::fromTicks(99));
    growing.add(SimTime::fromTicks(200));
    EXPECT_TRUE(growing.lost());
    EXPECT_TRUE(growing.countsIn(TimeBuckets(99, 5000, 3)).empty());
}

TEST(TimeBuckets, FinalBucketsNarrowerThanTheCountsTakeNoCounts)
{
    // Few times over a wide range: the final buckets are 2^22, more than the counts kept.
    std::mt19937_64 random(17);
    const std::vector<SimTime> times = randomTimes(random, 100, 0, std::uint64_t(1) << 30);
    GrowingCounts growing(0, TimeBuckets::fewestMost(times.size()));
    for (const SimTime time : times)
        growing.add(time);
    const SimTime latest = *std::max_element(times.begin(), times.end());
    const TimeBuckets buckets(0, latest.ticks(), times.size());
    ASSERT_LT(buckets.shift(), growing.shift());
    EXPECT_TRUE(growing.countsIn(buckets).empty());
}

TEST(TimeBuckets, BitsHoldEveryDistinctTimeUnlessTheyGrowTooMany)
{
    std::mt19937_64 random(19);
    for (const std::int64_t origin :
         {std::int64_t(0), std::int64_t(-77), std::numeric_limits<std::int64_t>::max() - 6000}) {
        SCOPED_TRACE(origin);
        const std::vector<SimTime> times = randomTimes(random, 3000, origin, 6000);
        GrowingBits bits(origin, 6000 / 64 + 1);
        for (const SimTime time : times)
            bits.add(time);
        ASSERT_FALSE(bits.lost());
        std::vector<SimTime> plain = times;
        std::sort(plain.begin(), plain.end());
        plain.erase(std::unique(plain.begin(), plain.end()), plain.end());
        EXPECT_EQ(bits.times(), plain);
    }
    GrowingBits few(0, 2);
    few.add(SimTime::fromTicks(127));
    EXPECT_FALSE(few.lost());
    few.add(SimTime::fromTicks(128));
    EXPECT_TRUE(few.lost());
    GrowingBits later(10, 8);
    later.add(SimTime::fromTicks(9));
    EXPECT_TRUE(later.lost());
}

} // namespace
} // namespace rankstep::testing
