// SPDX-License-Identifier: MIT
// One moment for every rank: stepping by operation goes in the order operations start in
// simulated time (the scheduler runs one rank until it waits, which taught that data-parallel
// ranks run one after another), and a draw() stands at the drawing rank's time with every other
// rank there too, so that a rank's panel, the step bar and the cursors name one time.
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

// Succeeds when every rank of the state stands at the cursor's cut time.
::testing::AssertionResult everyRankAt(const replay::RunState &state, SimTime time)
{
    for (std::size_t r = 0; r < state.ranks.size(); ++r)
        if (state.ranks[r].clock != time)
            return ::testing::AssertionFailure()
                   << "rank " << r << " at " << state.ranks[r].clock.toString() << ", not "
                   << time.toString();
    return ::testing::AssertionSuccess();
}

// The cursors one mode visits from home to the end.
std::vector<Cursor> walk(Cursor cursor, Cursor (Cursor::*step)() const)
{
    std::vector<Cursor> cursors{cursor};
    for (Cursor next = (cursor.*step)(); !(next == cursor); next = (cursor.*step)()) {
        cursor = next;
        cursors.push_back(cursor);
    }
    return cursors;
}

TEST(MomentByOperation, DataParallelRanksStartTheirForwardsTogether)
{
    const core::Trace trace = runProgram(makeConfig(4, 2, 4), ddp);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const StopPoints stops(trace);
    replay::Replayer replayer(stops, 4);
    const std::vector<Cursor> steps = walk(Cursor(stops), &Cursor::nextOperation);
    // Home, one step per event, the end.
    ASSERT_EQ(steps.size(), trace.events.size() + 2);
    // The first four: forward(layer 0) of ranks 0, 1, 2 and 3, all at t = 0.
    for (int rank = 0; rank < 4; ++rank) {
        const Cursor &step = steps[std::size_t(rank) + 1];
        ASSERT_TRUE(step.lastEvent());
        EXPECT_EQ(trace.events[*step.lastEvent()].rank, rank);
        EXPECT_EQ(step.cut(), SimTime());
        const replay::RunState state = replayer.stateAt(step);
        for (int other = 0; other < 4; ++other)
            EXPECT_EQ(state.ranks[std::size_t(other)].running, other <= rank)
                << "step " << rank + 1 << ", rank " << other;
    }
    replay::OrderKey before{SimTime(), -1, 0};
    for (std::size_t k = 1; k + 1 < steps.size(); ++k) {
        const Cursor &step = steps[k];
        const core::Event &event = trace.events[*step.lastEvent()];
        // In the order of simulated start, ties by rank, every rank at the event's start.
        const replay::OrderKey key = stops.key(*step.lastEvent());
        EXPECT_TRUE(before < key) << "step " << k;
        before = key;
        EXPECT_EQ(step.cut(), event.start) << "step " << k;
        EXPECT_EQ(step.operations(), k);
        const replay::RunState state = replayer.stateAt(step);
        EXPECT_TRUE(everyRankAt(state, event.start)) << "step " << k;
        EXPECT_EQ(state, replay::stateAt(trace, step)) << "step " << k;
    }
    EXPECT_TRUE(steps.back().atEnd());
    // Back visits the same steps.
    std::vector<Cursor> back = walk(steps.back(), &Cursor::previousOperation);
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(back, steps);
}

TEST(MomentByOperation, AnEventsStepIsWhereClickingItGoes)
{
    const core::Trace trace = runProgram(makeConfig(4, 8, 4), gpipe);
    const StopPoints stops(trace);
    for (std::size_t e = 0; e < trace.events.size(); ++e) {
        const Cursor at = Cursor(stops).toEvent(e);
        EXPECT_EQ(at.lastEvent(), e);
        EXPECT_EQ(at.cut(), trace.events[e].start);
        EXPECT_TRUE(replay::Replayer(stops).rankStateAt(at, trace.events[e].rank).running ||
                    trace.events[e].duration == SimTime());
    }
}

TEST(MomentAtASnapshot, EveryRankStandsAtTheDrawingRanksTime)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward);
    ASSERT_EQ(trace.marks.size(), 4U);
    const StopPoints stops(trace);
    replay::Replayer replayer(stops);
    for (std::size_t k = 0; k < trace.marks.size(); ++k) {
        const core::Mark &mark = trace.marks[k];
        const Cursor at = Cursor(stops).toMark(k);
        // The drawing rank's clock: the end of its forward, or 0 before it.
        SimTime clock;
        for (std::size_t e = 0; e < mark.eventCount; ++e)
            if (trace.events[e].rank == mark.rank)
                clock = trace.events[e].end();
        ASSERT_EQ(at.cut(), clock) << "mark " << k;
        EXPECT_EQ(at.mark(), k);
        const replay::RunState state = replayer.stateAt(at);
        EXPECT_TRUE(everyRankAt(state, clock)) << "mark " << k;
        // The drawing rank holds what it held at the call, nothing it did after it.
        const replay::RankState &drawing = state.ranks[std::size_t(mark.rank)];
        const replay::RankState atCall =
            replayer.rankStateAt(Cursor(stops, stops.markStops()[k]), mark.rank);
        EXPECT_EQ(drawing.maps, atCall.maps) << "mark " << k;
        EXPECT_FALSE(drawing.running) << "mark " << k;
        EXPECT_EQ(drawing.line, mark.line);
    }
    // Rank 1's draw after loading, at 0: rank 0 is drawn at 0 too, its forward started (ordered
    // before the draw by rank) and its output not there yet, though the scheduler had run it
    // to its end before rank 1 started.
    ASSERT_EQ(trace.marks[2].rank, 1);
    const replay::RunState state = replayer.stateAt(Cursor(stops).toMark(2));
    EXPECT_EQ(state.ranks[0].map(core::MapKind::Activations).size(), 1U);
    EXPECT_TRUE(state.ranks[0].running);
}

core::RankTask drawsTwiceAfterItsLastOperation(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({m.rank}));
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw");
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw_group");
    co_return;
}

// The walk-through draws twice after its last operation and change: the first of those draws
// is not the end (the step bar's Next was off there and --step 13 stopped at snapshot 12).
TEST(MomentAtASnapshot, DrawsAfterTheLastChangeAreEachAStepOn)
{
    const core::Trace trace = runProgram(makeConfig(1, 1, 1), drawsTwiceAfterItsLastOperation);
    ASSERT_EQ(trace.marks.size(), 2U);
    const StopPoints stops(trace);
    const Cursor first = Cursor(stops).toMark(0);
    EXPECT_FALSE(first.atEnd());
    const Cursor second = first.nextSnapshot();
    EXPECT_EQ(second.mark(), 1U);
    EXPECT_TRUE(second.atEnd());
}

} // namespace
} // namespace rankstep::testing
