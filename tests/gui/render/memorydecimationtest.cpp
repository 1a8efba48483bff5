// SPDX-License-Identifier: MIT
// A rank's memory line as a plot of a given width can show it: a few points per pixel column,
// every peak and dip kept.
#include "memorydecimation.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gui = rankstep::gui;
using rankstep::core::SimTime;

namespace {

// A saw of `points` samples one tick apart: 0, 1, ..., 9, 0, 1, ... bytes, and one spike.
std::vector<gui::MemoryPoint> saw(int points, int spikeAt)
{
    std::vector<gui::MemoryPoint> series;
    for (int i = 0; i < points; ++i)
        series.push_back({SimTime::fromTicks(i), i == spikeAt ? 1000000 : i % 10});
    return series;
}

bool hasMemory(const std::vector<gui::MemoryPoint> &series, std::int64_t memory)
{
    return std::any_of(series.begin(), series.end(),
                       [&](const gui::MemoryPoint &point) { return point.memory == memory; });
}

} // namespace

TEST(MemoryDecimation, AMillionPointsBecomeAtMostFourPerColumnWithEveryPeakKept)
{
    const auto series = saw(1000000, 777777);
    const auto shown = gui::decimated(series, 0, 1000000, 500);
    EXPECT_LE(shown.size(), 4U * 500U + 2U);
    EXPECT_TRUE(hasMemory(shown, 1000000)); // the spike
    EXPECT_TRUE(hasMemory(shown, 0));       // the dips
    EXPECT_TRUE(hasMemory(shown, 9));       // the tops of the saw
    EXPECT_EQ(shown.front(), series.front());
    EXPECT_EQ(shown.back(), series.back());
    EXPECT_TRUE(std::is_sorted(shown.begin(), shown.end(),
                               [](const auto &a, const auto &b) { return a.time < b.time; }));
}

TEST(MemoryDecimation, AZoomKeepsTheNeighboursOutsideAndTheDetailInside)
{
    const auto series = saw(1000000, 500010);
    const auto shown = gui::decimated(series, 500000, 500100, 500); // 100 points, all kept
    ASSERT_EQ(shown.size(), 103U);
    EXPECT_EQ(shown.front().time, SimTime::fromTicks(499999));
    EXPECT_EQ(shown.back().time, SimTime::fromTicks(500101));
    EXPECT_TRUE(hasMemory(shown, 1000000));
}

TEST(MemoryDecimation, AShortLineComesBackWhole)
{
    const auto series = saw(100, 50);
    EXPECT_EQ(gui::decimated(series, 0, 100, 500), series);
}
