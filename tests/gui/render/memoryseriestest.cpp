// SPDX-License-Identifier: MIT
#include "memoryseries.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

using rankstep::core::SimTime;
using rankstep::core::Trace;
using rankstep::gui::MemoryPoint;

namespace {

Trace runPuzzle(const std::string &name)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        if (puzzle.name != name)
            continue;
        rankstep::core::RunConfig config;
        config.ranks = puzzle.ranks;
        config.layers = puzzle.layers;
        config.batches = puzzle.batches;
        return rankstep::testing::runProgram(config, puzzle.program);
    }
    throw std::runtime_error("no reference puzzle named " + name);
}

SimTime at(const char *steps)
{
    return *SimTime::parse(steps);
}

class MemorySeriesOfEveryPuzzle : public ::testing::TestWithParam<std::string>
{};

} // namespace

TEST(MemorySeries, DdpRankZeroReachesTheMaximumAtStepFourAndNowhereHigher)
{
    const Trace trace = runPuzzle("ddp");
    const auto series = rankstep::gui::memorySeries(trace);
    ASSERT_EQ(series.size(), 4u);
    const auto &rank0 = series[0];
    const auto highest = std::max_element(
        rank0.begin(), rank0.end(),
        [](const MemoryPoint &a, const MemoryPoint &b) { return a.memory < b.memory; });
    ASSERT_NE(highest, rank0.end());
    EXPECT_EQ(highest->memory, 1835008);
    EXPECT_EQ(highest->time, SimTime::steps(4)); // the first point at the maximum
    EXPECT_EQ(rank0.back().time, trace.figures.endTime);
}

TEST(MemorySeries, OneRunsSeriesIsMadeOnceWhileHeldAndAgainForAnotherRun)
{
    const auto fsdp = std::make_shared<const Trace>(runPuzzle("fsdp"));
    auto first = rankstep::gui::sharedMemorySeries(fsdp);
    EXPECT_EQ(*first, rankstep::gui::memorySeries(*fsdp));
    EXPECT_EQ(rankstep::gui::sharedMemorySeries(fsdp), first); // the Ranks tab's chart: the same
    // Another run, even one equal to it, has its own.
    const auto copy = std::make_shared<const Trace>(*fsdp);
    const auto other = rankstep::gui::sharedMemorySeries(copy);
    EXPECT_NE(other, first);
    EXPECT_EQ(*other, *first);
    const auto ddp = std::make_shared<const Trace>(runPuzzle("ddp"));
    EXPECT_EQ(*rankstep::gui::sharedMemorySeries(ddp), rankstep::gui::memorySeries(*ddp));
    // Nobody holds fsdp's any more: made again, the same lines.
    first.reset();
    EXPECT_EQ(*rankstep::gui::sharedMemorySeries(fsdp), rankstep::gui::memorySeries(*fsdp));
    EXPECT_TRUE(rankstep::gui::sharedMemorySeries(nullptr)->empty());
}

TEST(MemorySeries, StepsHoldTheValueUntilTheNextSampleThenJump)
{
    const std::vector<MemoryPoint> samples = {
        {at("0"), 10}, {at("1"), 10}, {at("2.5"), 30}, {at("2.5"), 20}, {at("4"), 5}};
    const std::vector<MemoryPoint> expected = {
        {at("0"), 10}, {at("2.5"), 10}, {at("2.5"), 30}, {at("2.5"), 20},
        {at("4"), 20}, {at("4"), 5},    {at("6"), 5},
    };
    EXPECT_EQ(rankstep::gui::stepSeries(samples, at("6")), expected);
}

TEST(MemorySeries, NoSamplesGiveNoLineAndTheEndNeverShortensOne)
{
    EXPECT_TRUE(rankstep::gui::stepSeries({}, at("5")).empty());
    const std::vector<MemoryPoint> one = {{at("3"), 7}};
    EXPECT_EQ(rankstep::gui::stepSeries(one, at("1")), one);
}

TEST(MemorySeries, SamplesAreTheRanksCallsAndWhatItHoldsAfterTheLast)
{
    Trace trace;
    trace.config.ranks = 2;
    rankstep::core::Event event;
    event.rank = 1;
    event.start = at("2");
    event.duration = at("1");
    event.memory = 100;
    trace.events.push_back(event);
    rankstep::core::StorageChange change;
    change.rank = 1;
    change.memoryAfter = 999; // before the first call: its memory counts
    change.eventCount = 0;
    trace.changes.append(change, std::nullopt);
    event.start = at("5"); // the rank waited from 3: what it stored then shows from 3
    event.memory = 300;
    trace.events.push_back(event);
    change.memoryAfter = 200; // after the last call: what it ends with
    change.eventCount = 2;
    trace.changes.append(change, std::nullopt);
    EXPECT_TRUE(rankstep::gui::memorySamples(trace, 0).empty());
    EXPECT_EQ(rankstep::gui::memorySamples(trace, 1),
              (std::vector<MemoryPoint>{{at("2"), 100}, {at("3"), 300}, {at("6"), 200}}));
}

TEST(MemorySeries, RanksWithTheSameMemoryShareOneLine)
{
    using rankstep::gui::LineShare;
    const std::vector<MemoryPoint> a = {{at("0"), 1}}, b = {{at("0"), 2}};
    EXPECT_EQ(rankstep::gui::sharedLines(std::vector<std::vector<MemoryPoint>>{a, b, a, a}),
              (std::vector<LineShare>{{0, 3}, {0, 1}, {1, 3}, {2, 3}}));
    const auto ddp = rankstep::gui::sharedLines(rankstep::gui::memorySeries(runPuzzle("ddp")));
    EXPECT_EQ(ddp, (std::vector<LineShare>{{0, 4}, {1, 4}, {2, 4}, {3, 4}}));
    const auto gpipe = rankstep::gui::sharedLines(rankstep::gui::memorySeries(runPuzzle("gpipe")));
    EXPECT_EQ(gpipe, std::vector<LineShare>(4));
}

TEST(MemorySeries, ClicksSnapToTheNearestCallOfAnyRank)
{
    Trace trace;
    for (const char *start : {"0", "1.5", "4"}) {
        rankstep::core::Event event;
        event.start = at(start);
        trace.events.push_back(event);
    }
    EXPECT_EQ(rankstep::gui::nearestSampleTime(trace, 1.2), at("1.5"));
    EXPECT_EQ(rankstep::gui::nearestSampleTime(trace, 0.75), at("0")); // a tie: the earlier
    EXPECT_EQ(rankstep::gui::nearestSampleTime(trace, 99), at("4"));
    EXPECT_FALSE(rankstep::gui::nearestSampleTime(Trace(), 1).has_value());
}

TEST(MemorySeries, TicksAreRoundNumbersCoveringTheTop)
{
    EXPECT_DOUBLE_EQ(rankstep::gui::niceStep(1835008, 5), 500000);
    EXPECT_DOUBLE_EQ(rankstep::gui::niceStep(5.1, 10), 1);
    EXPECT_DOUBLE_EQ(rankstep::gui::niceStep(0.8, 10), 0.1);
    EXPECT_DOUBLE_EQ(rankstep::gui::niceStep(0, 10), 1);
    EXPECT_EQ(rankstep::gui::memoryTicks(1835008, 5),
              (std::vector<std::int64_t>{0, 500000, 1000000, 1500000, 2000000}));
    EXPECT_EQ(rankstep::gui::memoryTicks(0, 5), (std::vector<std::int64_t>{0, 1}));
}

TEST(MemorySeries, MemoryLabelsAreShortDecimals)
{
    EXPECT_EQ(rankstep::gui::formatMemory(0), QStringLiteral("0 B"));
    EXPECT_EQ(rankstep::gui::formatMemory(900), QStringLiteral("900 B"));
    EXPECT_EQ(rankstep::gui::formatMemory(500000), QStringLiteral("500 kB"));
    EXPECT_EQ(rankstep::gui::formatMemory(1500000), QStringLiteral("1.5 MB"));
    EXPECT_EQ(rankstep::gui::formatMemory(1835008), QStringLiteral("1.84 MB"));
    EXPECT_EQ(rankstep::gui::formatMemory(2000000000), QStringLiteral("2 GB"));
}

namespace {

// Each rank's series as the plain way makes it, from that rank's samples alone.
void expectSeriesOfEachRanksSamples(const Trace &trace)
{
    const auto series = rankstep::gui::memorySeries(trace);
    ASSERT_EQ(series.size(), std::size_t(trace.config.ranks));
    for (int rank = 0; rank < trace.config.ranks; ++rank)
        EXPECT_EQ(series[std::size_t(rank)],
                  rankstep::gui::stepSeries(rankstep::gui::memorySamples(trace, rank),
                                            trace.figures.endTime))
            << "rank " << rank;
}

} // namespace

TEST(MemorySeries, EveryRanksSeriesIsTheOneItsOwnSamplesMakeInRandomTraces)
{
    std::mt19937 random(20261129);
    for (int round = 0; round < 80; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const bool inOrder =
            round % 2 == 0; // a rank's clock never goes back; a hand-made trace's may
        Trace trace;
        trace.config.ranks = 1 + round % 4;
        std::vector<std::int64_t> clock(std::size_t(trace.config.ranks), 0);
        for (int i = 0; i < 3 + round; ++i) {
            rankstep::core::Event event;
            event.rank = int(random() % unsigned(trace.config.ranks));
            std::int64_t &at = clock[std::size_t(event.rank)];
            at += std::int64_t(random() % 3) * 250;
            if (!inOrder && random() % 4 == 0)
                at = std::max<std::int64_t>(0, at - 1000);
            event.start = SimTime::fromTicks(at);
            event.duration = SimTime::fromTicks(std::int64_t(random() % 3) * 250);
            at += event.duration.ticks();
            event.memory = std::int64_t(random() % 3) * 100; // equal values in a row too
            trace.events.push_back(event);
            if (random() % 2 == 0) {
                rankstep::core::StorageChange change;
                change.rank = int(random() % unsigned(trace.config.ranks));
                change.eventCount = std::uint32_t(trace.events.size());
                change.memoryAfter = std::int64_t(random() % 4) * 100;
                trace.changes.append(change);
            }
            trace.figures.endTime = std::max(trace.figures.endTime, event.end());
        }
        expectSeriesOfEachRanksSamples(trace);
    }
}

TEST_P(MemorySeriesOfEveryPuzzle, EachRanksSeriesIsTheOneItsOwnSamplesMake)
{
    expectSeriesOfEachRanksSamples(runPuzzle(GetParam()));
}

TEST_P(MemorySeriesOfEveryPuzzle, PeaksAtTheFiguresMaximumWithSteppedNonDecreasingTime)
{
    const Trace trace = runPuzzle(GetParam());
    const auto series = rankstep::gui::memorySeries(trace);
    ASSERT_EQ(series.size(), std::size_t(trace.config.ranks));
    std::int64_t highest = -1;
    int highestRank = -1;
    SimTime highestTime;
    for (std::size_t rank = 0; rank < series.size(); ++rank) {
        const auto &points = series[rank];
        ASSERT_FALSE(points.empty()) << "rank " << rank;
        EXPECT_EQ(points.back().time, trace.figures.endTime) << "rank " << rank;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (i > 0) {
                const MemoryPoint &a = points[i - 1], &b = points[i];
                EXPECT_LE(a.time, b.time) << "rank " << rank << " point " << i;
                EXPECT_TRUE(a.time == b.time || a.memory == b.memory) // flat or vertical
                    << "rank " << rank << " point " << i;
            }
            if (points[i].memory > highest) { // strictly: ties keep the lower rank, earlier time
                highest = points[i].memory;
                highestRank = int(rank);
                highestTime = points[i].time;
            }
        }
    }
    EXPECT_EQ(highest, trace.figures.maxMemory);
    EXPECT_EQ(highestRank, trace.figures.maxMemoryRank);
    EXPECT_EQ(highestTime, trace.figures.maxMemoryTime);
}

INSTANTIATE_TEST_SUITE_P(MemoryReference, MemorySeriesOfEveryPuzzle,
                         ::testing::Values("basic", "grad_accum", "ddp", "wsdp", "fsdp", "pipeline",
                                           "gpipe", "pipeline_fsdp"),
                         [](const ::testing::TestParamInfo<std::string> &param) {
                             std::string name = param.param;
                             name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
                             return name;
                         });
