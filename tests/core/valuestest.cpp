// SPDX-License-Identifier: MIT
// Value types: exact simulated time, index sets and their wording, object sizes.
#include "testsupport.h"

#include "core/indexset.h"
#include "core/simtime.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace rankstep::testing {
namespace {

using core::IndexSet;
using core::SimTime;

TEST(SimTime, PrintsTheShortestDecimal)
{
    EXPECT_EQ(SimTime::parse("19.9")->toString(), "19.9");
    EXPECT_EQ(SimTime::steps(8).toString(), "8");
    EXPECT_EQ(SimTime::fromTicks(250).toString(), "0.25");
    EXPECT_EQ(SimTime::fromTicks(1).toString(), "0.001");
    EXPECT_EQ(SimTime().toString(), "0");
    EXPECT_EQ(SimTime::parse("2.500")->toString(), "2.5");
}

TEST(SimTime, ParsesDecimalsExactly)
{
    EXPECT_EQ(SimTime::parse("19.9")->ticks(), 19900);
    EXPECT_EQ(SimTime::parse("0.3")->ticks(), 300);
    EXPECT_EQ(SimTime::parse("1.25")->ticks(), 1250);
    EXPECT_EQ(SimTime::parse("7")->ticks(), 7000);
    EXPECT_EQ(SimTime::parse("0.125")->ticks(), 125);
}

TEST(SimTime, RejectsWhatIsNotANonNegativeDecimal)
{
    for (const char *text : {"", ".", "-1", "abc", "1.2.3", "0.0001", "1e3", " 1"}) {
        EXPECT_FALSE(SimTime::parse(text).has_value()) << '"' << text << '"';
    }
}

TEST(SimTime, SumsOfTenthsStayExact)
{
    SimTime sum;
    for (int i = 0; i < 199; ++i)
        sum += *SimTime::parse("0.1");
    EXPECT_EQ(sum.toString(), "19.9");
    EXPECT_EQ(sum, *SimTime::parse("19.9"));
    // A mix of the four durations: 12 + 18 * 0.3 + 5 * 0.5 + 0.2 = 12 + 5.4 + 2.5 + 0.2.
    const SimTime mixed = SimTime::steps(12) + *SimTime::parse("0.3") * 18 +
                          *SimTime::parse("0.5") * 5 + *SimTime::parse("0.2");
    EXPECT_EQ(mixed.toString(), "20.1");
    EXPECT_EQ(*SimTime::parse("0.1") + *SimTime::parse("0.2"), *SimTime::parse("0.3"));
}

TEST(IndexSet, SetOperations)
{
    const IndexSet a{0, 1, 2, 70};
    const IndexSet b{2, 3, 70};
    EXPECT_EQ(a | b, (IndexSet{0, 1, 2, 3, 70}));
    EXPECT_EQ(a & b, (IndexSet{2, 70}));
    EXPECT_EQ(a.minus(b), (IndexSet{0, 1}));
    EXPECT_TRUE((IndexSet{2, 70}).isSubsetOf(a));
    EXPECT_FALSE(b.isSubsetOf(a));
    EXPECT_TRUE(IndexSet{}.isSubsetOf(a));
    EXPECT_TRUE(a.intersects(b));
    EXPECT_FALSE(a.intersects(IndexSet{3, 64}));
    EXPECT_EQ(a.size(), 4);
    EXPECT_EQ(a.first(), 0);
    EXPECT_EQ(a.last(), 70);
    EXPECT_EQ(IndexSet{}.first(), -1);
    EXPECT_TRUE(a.contains(70));
    EXPECT_FALSE(a.contains(69));
    EXPECT_FALSE(a.contains(-1));
    EXPECT_EQ(a.toVector(), (std::vector<int>{0, 1, 2, 70}));
}

TEST(IndexSet, EqualityIgnoresCapacity)
{
    const IndexSet grown = IndexSet{3, 200}.minus(IndexSet{200});
    EXPECT_EQ(grown, IndexSet{3});
    EXPECT_TRUE(IndexSet{200}.minus(IndexSet{200}).empty());
    EXPECT_EQ(IndexSet{200}.minus(IndexSet{200}), IndexSet{});
    EXPECT_EQ(IndexSet::range(0, 1024).size(), 1024);
    EXPECT_EQ(IndexSet::range(0, 1024), IndexSet::fromVector(IndexSet::range(0, 1024).toVector()));
}

TEST(IndexSet, FormatAndDescribe)
{
    EXPECT_EQ(core::formatSet({2, 3}), "{2, 3}");
    EXPECT_EQ(core::formatSet({}), "{}");
    EXPECT_EQ(core::describeSet({2}, "batch", "batches"), "batch 2");
    EXPECT_EQ(core::describeSet({2, 3}, "batch", "batches"), "batches 2 and 3");
    EXPECT_EQ(core::describeSet({0, 1, 2, 3}, "batch", "batches"), "batches 0-3");
    EXPECT_EQ(core::describeSet({0, 2, 5}, "batch", "batches"), "batches 0, 2 and 5");
    EXPECT_EQ(core::describeSet({}, "batch", "batches"), "no batches");
    EXPECT_EQ(core::describeSet({1, 3}, "rank", "ranks"), "ranks 1 and 3");
}

TEST(MemoryOf, WeightLikeObjectsScaleWithTheirShare)
{
    const core::Sizes sizes;
    EXPECT_EQ(core::memoryOf(weight(0), sizes), 512 * 512);
    EXPECT_EQ(core::memoryOf(optState(0), sizes), 512 * 512);
    EXPECT_EQ(core::memoryOf(weight(0, {1}, 4), sizes), 65536);
    EXPECT_EQ(core::memoryOf(optState(0, {0, 3}, 4), sizes), 131072);
    // A weight gradient's size does not depend on its batches.
    EXPECT_EQ(core::memoryOf(weightGrad(0, {0}), sizes), 262144);
    EXPECT_EQ(core::memoryOf(weightGrad(0, {0, 1, 2, 3}), sizes), 262144);
    EXPECT_EQ(core::memoryOf(weightGrad(0, {0, 1, 2, 3}, {2}, 16), sizes), 16384);
}

TEST(MemoryOf, SplitsThatDoNotDivideRoundToTheNearestUnit)
{
    const core::Sizes sizes;
    EXPECT_EQ(core::memoryOf(weight(0, {0}, 3), sizes), 87381);     // 87381.33
    EXPECT_EQ(core::memoryOf(weight(0, {0, 1}, 3), sizes), 174763); // 174762.67
}

// memoryOf() divides in 32 bits where the numbers fit, and skips the division for a whole
// object: the quotient must not change on either side of those limits.
TEST(MemoryOf, TheQuotientIsTheSameWhereverItIsComputed)
{
    const std::int64_t limit = core::kMostDividedIn32Bits;
    for (const std::int64_t whole : {std::int64_t(1), std::int64_t(262144), limit - 1, limit,
                                     limit + 1, 2 * limit, std::int64_t(1) << 40})
        for (const int total : {1, 2, 3, 7, 1024, int(limit) - 1, int(limit), int(limit) + 1}) {
            core::Sizes sizes;
            sizes.weightBytes = whole;
            for (const int shards : {1, 2}) {
                const std::int64_t numerator = whole * shards;
                const std::int64_t expected = (2 * numerator + total) / (2 * std::int64_t(total));
                const core::IndexSet held = shards == 1 ? core::IndexSet{0} : core::IndexSet{0, 1};
                EXPECT_EQ(core::memoryOf(weight(0, held, total), sizes), expected)
                    << whole << " x " << shards << " / " << total;
            }
        }
}

TEST(MemoryOf, ActivationsScaleWithTheirBatches)
{
    const core::Sizes sizes;
    EXPECT_EQ(core::memoryOf(activation(0, {0}), sizes), 512 * 256);
    EXPECT_EQ(core::memoryOf(activation(2, {0, 1, 2, 3}), sizes), 524288);
    EXPECT_EQ(core::memoryOf(activationGrad(1, {1, 3}), sizes), 262144);
    EXPECT_EQ(core::memoryOf(activation(0, {}), sizes), 0);
}

} // namespace
} // namespace rankstep::testing
