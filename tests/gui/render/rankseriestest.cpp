// SPDX-License-Identifier: MIT
// Every rank's memory line held once for the ranks that share it: what the memory chart shows
// (each rank's line, which ranks draw one line together, a group's band and its peak's rank) is
// what the plain series, a line of its own for each rank, shows.
#include "memoryband.h"
#include "memoryseries.h"
#include "patterntrace.h"

#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// Each rank's line from its own samples alone, a line for each rank.
gui::RankSeries plainSeries(const core::Trace &trace)
{
    std::vector<std::vector<gui::MemoryPoint>> lines;
    for (int rank = 0; rank < trace.config.ranks; ++rank)
        lines.push_back(gui::stepSeries(gui::memorySamples(trace, rank), trace.figures.endTime));
    return gui::RankSeries(std::move(lines));
}

void expectBandsEqual(const gui::MemoryBand &shared, const gui::MemoryBand &plain)
{
    EXPECT_EQ(shared.times, plain.times);
    EXPECT_EQ(shared.least, plain.least);
    EXPECT_EQ(shared.median, plain.median);
    EXPECT_EQ(shared.most, plain.most);
    EXPECT_EQ(shared.peakRank, plain.peakRank);
    EXPECT_EQ(shared.peakTime, plain.peakTime);
    EXPECT_EQ(shared.peak, plain.peak);
}

// The shared series shows what the plain one does, rank by rank and group by group, and holds
// one line for the ranks with equal lines (when `oneLineEach`: a trace whose ranks keep time).
// Matched by size alone, every rank of a size is compared with the first of that size.
void expectShowsThePlainSeries(const core::Trace &trace, bool oneLineEach, std::mt19937 &random,
                               gui::LineMatch match = gui::LineMatch::Hash)
{
    const gui::RankSeries shared = gui::memorySeries(trace, match);
    const gui::RankSeries plain = plainSeries(trace);
    ASSERT_EQ(shared.size(), plain.size());
    for (std::size_t rank = 0; rank < plain.size(); ++rank)
        ASSERT_EQ(shared[rank], plain[rank]) << "rank " << rank;
    EXPECT_EQ(gui::sharedLines(shared), gui::sharedLines(plain));
    std::vector<bool> included(plain.size());
    for (std::size_t rank = 0; rank < included.size(); ++rank)
        included[rank] = random() % 3 != 0;
    EXPECT_EQ(gui::sharedLines(shared, included), gui::sharedLines(plain, included));
    if (oneLineEach && match == gui::LineMatch::Hash) {
        std::vector<std::vector<gui::MemoryPoint>> distinct;
        for (std::size_t rank = 0; rank < plain.size(); ++rank)
            if (std::find(distinct.begin(), distinct.end(), plain[rank]) == distinct.end())
                distinct.push_back(plain[rank]);
        EXPECT_EQ(shared.lineCount(), distinct.size());
    }
    for (int round = 0; round < 4; ++round) {
        std::vector<int> group;
        for (int rank = -1; rank <= int(plain.size()); ++rank)
            if (random() % 2 == 0)
                group.push_back(rank); // the ones outside the series are ignored
        SCOPED_TRACE("band " + std::to_string(round));
        expectBandsEqual(gui::memoryBand(shared, group, trace.figures.endTime, 7),
                         gui::memoryBand(plain, group, trace.figures.endTime, 7));
    }
}

core::Trace puzzleRun(const std::string &name, int ranks)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        if (puzzle.name != name)
            continue;
        core::RunConfig config;
        config.ranks = ranks;
        config.layers = puzzle.layers;
        config.batches = std::max(puzzle.batches, ranks);
        return rankstep::testing::runProgram(config, puzzle.program);
    }
    ADD_FAILURE() << "no reference puzzle named " << name;
    return {};
}

} // namespace

TEST(RankSeries, SharedLinesShowWhatEachRanksOwnLineShowsInRandomTraces)
{
    std::mt19937 random(1129);
    for (int round = 0; round < 300; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const bool inOrder = round % 3 != 0;
        // The series' own shape: more ranks, fewer calls, each a plain event.
        const core::Trace trace = gui::testing::patternTrace(
            random, {.extraRanks = 12, .mostCalls = 8, .kindsAndLinks = false, .inOrder = inOrder});
        expectShowsThePlainSeries(trace, inOrder, random);
        SCOPED_TRACE("matched by size");
        expectShowsThePlainSeries(trace, inOrder, random, gui::LineMatch::Size);
    }
}

TEST(RankSeries, PuzzleRunsKeepOneLineForTheRanksThatShareIt)
{
    std::mt19937 random(2026);
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        const core::Trace trace = puzzleRun(puzzle.name, puzzle.ranks);
        expectShowsThePlainSeries(trace, true, random);
        expectShowsThePlainSeries(trace, true, random, gui::LineMatch::Size);
    }
    // Data parallelism at 16 ranks: every rank holds the same memory at the same times.
    const gui::RankSeries ddp = gui::memorySeries(puzzleRun("ddp", 16));
    ASSERT_EQ(ddp.size(), 16U);
    EXPECT_EQ(ddp.lineCount(), 1U);
    EXPECT_EQ(ddp.pointCount(), ddp[0].size());
}

TEST(RankSeries, AnEmptyTraceHasNoLines)
{
    core::Trace trace;
    trace.config.ranks = 3;
    const gui::RankSeries series = gui::memorySeries(trace);
    ASSERT_EQ(series.size(), 3U);
    for (std::size_t rank = 0; rank < 3; ++rank)
        EXPECT_TRUE(series[rank].empty());
    EXPECT_EQ(gui::sharedLines(series), (std::vector<gui::LineShare>{{0, 3}, {1, 3}, {2, 3}}));
}
