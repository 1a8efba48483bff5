// SPDX-License-Identifier: MIT
// Every rank's memory line held once for the ranks that share it: what the memory chart shows
// (each rank's line, which ranks draw one line together, a group's band and its peak's rank) is
// what the plain series, a line of its own for each rank, shows.
#include "memoryband.h"
#include "memoryseries.h"

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

// A trace whose ranks each follow one of a few patterns of calls (as the data-parallel lanes of
// one stage do), some of them changed in one call or in what they hold at the end, their events
// interleaved in random order (a rank's own in its order, or not at all when `inOrder` is false).
core::Trace patternTrace(std::mt19937 &random, bool inOrder)
{
    core::Trace trace;
    trace.config.ranks = 2 + int(random() % 12);
    const int patterns = 1 + int(random() % 3);
    const int calls = 1 + int(random() % 8);
    std::vector<std::vector<core::Event>> byPattern(static_cast<std::size_t>(patterns));
    for (auto &pattern : byPattern) {
        std::int64_t clock = 0;
        for (int i = 0; i < calls; ++i) {
            core::Event event;
            clock += std::int64_t(random() % 3) * 250;
            event.start = core::SimTime::fromTicks(clock);
            event.duration = core::SimTime::fromTicks(std::int64_t(random() % 3) * 250);
            clock += event.duration.ticks();
            event.memory = std::int64_t(random() % 3) * 100;
            pattern.push_back(event);
        }
    }
    std::vector<std::vector<core::Event>> byRank;
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        std::vector<core::Event> events = byPattern[random() % unsigned(patterns)];
        for (core::Event &event : events)
            event.rank = rank;
        if (random() % 4 == 0) // one call holds something else
            events[random() % events.size()].memory += 50;
        if (!inOrder && random() % 3 == 0)
            std::swap(events.front(), events.back());
        byRank.push_back(std::move(events));
    }
    // Interleaved: each time a random rank's next call, so a rank may come before the first of
    // its equals.
    std::vector<std::size_t> next(byRank.size(), 0);
    for (std::size_t left = std::size_t(trace.config.ranks) * std::size_t(calls); left > 0;
         --left) {
        std::size_t rank = random() % byRank.size();
        while (next[rank] == byRank[rank].size())
            rank = (rank + 1) % byRank.size();
        trace.events.push_back(byRank[rank][next[rank]++]);
        trace.figures.endTime = std::max(trace.figures.endTime, trace.events.back().end());
        if (random() % 3 == 0) { // a change after this call, which may be the rank's last
            core::StorageChange change;
            change.rank = trace.events.back().rank;
            change.eventCount = std::uint32_t(trace.events.size());
            change.memoryAfter = std::int64_t(random() % 2) * 100;
            trace.changes.append(change, std::nullopt);
        }
    }
    return trace;
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
        const core::Trace trace = patternTrace(random, inOrder);
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
