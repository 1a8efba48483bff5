// SPDX-License-Identifier: MIT
// A group's memory as one band: least, median and most over time, the peak's rank named.
#include "memoryband.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

core::SimTime at(int steps)
{
    return core::SimTime::steps(steps);
}

} // namespace

TEST(MemoryBand, HoldsTheLeastMedianAndMostOfTheGroupAtEachTime)
{
    // Rank 0 holds 10 from step 0, rank 1 holds 30 from step 1, rank 2 holds 20 from step 0 and
    // 50 from step 3; rank 3 holds 99 but is not in the group.
    const std::vector<std::vector<gui::MemoryPoint>> series = {
        {{at(0), 10}, {at(4), 10}},
        {{at(1), 30}, {at(4), 30}},
        {{at(0), 20}, {at(3), 50}, {at(4), 50}},
        {{at(0), 99}, {at(4), 99}},
    };
    const gui::MemoryBand band = gui::memoryBand(series, {0, 1, 2}, at(4), 5);
    const std::vector<core::SimTime> times = {at(0), at(1), at(2), at(3), at(4)};
    ASSERT_EQ(band.times, times);
    EXPECT_EQ(band.least, (std::vector<std::int64_t>{0, 10, 10, 10, 10}));
    EXPECT_EQ(band.median, (std::vector<std::int64_t>{10, 20, 20, 30, 30}));
    EXPECT_EQ(band.most, (std::vector<std::int64_t>{20, 30, 30, 50, 50}));
    EXPECT_EQ(band.peakRank, 2);
    EXPECT_EQ(band.peakTime, at(3));
    EXPECT_EQ(band.peak, 50);
}

TEST(MemoryBand, SamplesThePeakBetweenItsSteps)
{
    const std::vector<std::vector<gui::MemoryPoint>> series = {
        {{core::SimTime::fromTicks(0), 1},
         {core::SimTime::fromTicks(1500), 7},
         {core::SimTime::fromTicks(1600), 1}},
    };
    const gui::MemoryBand band = gui::memoryBand(series, {0}, at(4), 3);
    EXPECT_EQ(band.peakTime, core::SimTime::fromTicks(1500));
    const auto it = std::find(band.times.begin(), band.times.end(), band.peakTime);
    ASSERT_NE(it, band.times.end());
    EXPECT_EQ(band.most[std::size_t(it - band.times.begin())], 7);
}

TEST(MemoryBand, NoRankGivesNoBand)
{
    const gui::MemoryBand band = gui::memoryBand(
        std::vector<std::vector<gui::MemoryPoint>>{{{at(0), 5}}}, {3, -1}, at(1), 4);
    EXPECT_TRUE(band.times.empty());
    EXPECT_EQ(band.peakRank, -1);
}
