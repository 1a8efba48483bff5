// SPDX-License-Identifier: MIT
// Stepping by simulated time: at every event boundary each rank stands at that time, with the
// events that started by then applied, the one still running without its result, and nothing
// later, however far the scheduler ran one rank ahead of the others.
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace rankstep::testing {
namespace {

using core::SimTime;
using replay::Cursor;
using replay::StopPoints;

// Succeeds when every rank of `state` stands at the cursor's time, as the events say it should.
::testing::AssertionResult everyRankAtTheCut(const core::Trace &trace, const Cursor &cursor,
                                             const replay::RunState &state)
{
    const SimTime t = *cursor.cut();
    for (std::size_t r = 0; r < state.ranks.size(); ++r) {
        const replay::RankState &rank = state.ranks[r];
        if (rank.clock != t)
            return ::testing::AssertionFailure() << "rank " << r << " at " << rank.clock.toString();
        bool running = false;
        for (std::size_t e = 0; e < trace.events.size(); ++e) {
            const core::Event &event = trace.events[e];
            if (event.rank != int(r))
                continue;
            const bool applied = rank.event && e <= *rank.event;
            if (applied != (event.start <= t))
                return ::testing::AssertionFailure() << "event " << e << " at " << t.toString();
            running = running || (event.start <= t && t < event.end());
        }
        if (rank.running != running)
            return ::testing::AssertionFailure() << "rank " << r << " running at " << t.toString();
    }
    return ::testing::AssertionSuccess();
}

TEST(TimeCut, EveryRankOfGpipeStandsAtEachBoundaryAsTheReferenceReplays)
{
    const core::Trace trace = runProgram(makeConfig(4, 8, 4), gpipe);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const StopPoints stops(trace);
    replay::Replayer replayer(stops, 4); // small gaps: moves between checkpoints too
    Cursor cursor = Cursor(stops).nextTime();
    std::size_t steps = 0;
    for (; !cursor.atEnd(); cursor = cursor.nextTime(), ++steps) {
        const replay::RunState state = replayer.stateAt(cursor);
        EXPECT_TRUE(everyRankAtTheCut(trace, cursor, state)) << "step " << steps;
        EXPECT_EQ(state, replay::stateAt(trace, cursor)) << "step " << steps;
    }
    EXPECT_EQ(steps + 1, stops.boundaries().size());
    EXPECT_EQ(cursor.cut(), trace.figures.endTime);
    // Backwards too, the replayer moving each rank back on its own.
    for (cursor = cursor.previousTime(); !cursor.atHome(); cursor = cursor.previousTime())
        EXPECT_EQ(replayer.stateAt(cursor), replay::stateAt(trace, cursor));
}

// The boundaries and time stops are built by merging each rank's own order (sorting two
// million times was the largest part of showing a big run); they equal a plain sort of every
// start and end, for the reference puzzles and for a trace whose rank is out of order.
TEST(TimeCut, MergedBoundariesAndTimeStopsEqualAPlainSort)
{
    const auto plain = [](const core::Trace &trace) {
        std::vector<SimTime> times{SimTime()};
        for (const core::Event &event : trace.events) {
            times.push_back(event.start);
            times.push_back(event.end());
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        return times;
    };
    std::vector<core::Trace> traces;
    for (const auto &puzzle : referencePuzzles())
        traces.push_back(
            runProgram(makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches), puzzle.program));
    core::Trace shuffled = traces.back(); // rank 0's first two events swapped in the order
    std::size_t first = 0, second = 0;
    for (std::size_t e = 0; e < shuffled.events.size(); ++e)
        if (shuffled.events[e].rank == 0 && shuffled.events[e].start > SimTime()) {
            (first == 0 ? first : second) = e;
            if (second != 0)
                break;
        }
    ASSERT_NE(second, 0U);
    std::swap(shuffled.events[first].start, shuffled.events[second].start);
    traces.push_back(shuffled);
    for (const core::Trace &trace : traces) {
        const StopPoints stops(trace);
        EXPECT_EQ(stops.boundaries(), plain(trace)) << trace.config.ranks << " ranks";
        // Each time stop holds every event started by its time, and the next one does not.
        const auto &times = stops.stopTimes();
        ASSERT_FALSE(times.empty());
        EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
        EXPECT_EQ(std::adjacent_find(times.begin(), times.end()), times.end());
    }
}

TEST(TimeCut, ARunningOperationHasNoResultYet)
{
    const core::Trace trace = runProgram(makeConfig(4, 8, 4), gpipe);
    const StopPoints stops(trace);
    replay::Replayer replayer(stops);
    // Rank 0's first forward runs from 0 to 1: at 0.5 it runs, its activation not stored yet.
    const Cursor half = Cursor::atCut(stops, SimTime::fromTicks(500));
    const replay::RankState running = replayer.rankStateAt(half, 0);
    EXPECT_TRUE(running.running);
    EXPECT_EQ(running.event, 0U);
    EXPECT_EQ(running.clock, SimTime::fromTicks(500));
    const replay::RankState done = replayer.rankStateAt(Cursor::atCut(stops, SimTime::steps(1)), 0);
    EXPECT_EQ(done.map(core::MapKind::Activations).size(),
              running.map(core::MapKind::Activations).size() + 1);
    // Rank 1 has only loaded its weights: the scheduler ran rank 0 to t 4 before it, but at
    // t 1 rank 1 has not received anything yet.
    const replay::RankState rank1 =
        replayer.rankStateAt(Cursor::atCut(stops, SimTime::steps(1)), 1);
    EXPECT_FALSE(rank1.event);
    EXPECT_EQ(rank1.clock, SimTime::steps(1));
}

TEST(TimeCut, TheEndHoldsEverythingWithEveryRankAtTheEndTime)
{
    const core::Trace trace = runProgram(makeConfig(4, 2, 4), ddp);
    const StopPoints stops(trace);
    replay::Replayer replayer(stops);
    const Cursor end = Cursor::atCut(stops, trace.figures.endTime);
    EXPECT_TRUE(end.atEnd());
    const replay::RunState state = replayer.stateAt(end);
    const replay::RunState plain = replayer.stateAt(end.end());
    for (std::size_t r = 0; r < state.ranks.size(); ++r) {
        EXPECT_EQ(state.ranks[r].clock, trace.figures.endTime);
        EXPECT_EQ(state.ranks[r].maps, plain.ranks[r].maps);
        EXPECT_EQ(state.ranks[r].memory, plain.ranks[r].memory);
    }
}

} // namespace
} // namespace rankstep::testing
