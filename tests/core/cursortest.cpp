// SPDX-License-Identifier: MIT
// Stepping through finished runs: every step mode forward and back on the DDP and GPipe traces,
// with positions and times worked out by hand, and where a deadlocked run ends.
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace rankstep::testing {
namespace {

using core::SimTime;
using replay::Cursor;
using replay::Position;
using replay::StopPoints;
using Step = std::function<Cursor(const Cursor &)>;

// The cursors one mode visits from home to the end, or back.
std::vector<Cursor> walk(Cursor cursor, const Step &step)
{
    std::vector<Cursor> cursors{cursor};
    for (Cursor next = step(cursor); !(next == cursor); next = step(cursor)) {
        cursor = next;
        cursors.push_back(cursor);
    }
    return cursors;
}

// Succeeds when the mode's next and previous visit the same cursors in opposite orders.
::testing::AssertionResult backIsTheInverseOfNext(const StopPoints &stops, const Step &next,
                                                  const Step &previous)
{
    const std::vector<Cursor> forward = walk(Cursor(stops), next);
    std::vector<Cursor> back = walk(Cursor(stops).end(), previous);
    std::reverse(back.begin(), back.end());
    if (forward != back)
        return ::testing::AssertionFailure()
               << forward.size() << " steps forward, " << back.size() << " back";
    if (!forward.front().atHome() || !forward.back().atEnd())
        return ::testing::AssertionFailure() << "the walk does not go from home to the end";
    return ::testing::AssertionSuccess();
}

class CursorOverDataParallelRun : public ::testing::Test
{
protected:
    core::Trace m_trace = runProgram(makeConfig(4, 2, 4), ddp);
    StopPoints m_stops{m_trace};
    replay::Replayer m_replayer{m_stops};
};

TEST_F(CursorOverDataParallelRun, NextSliceFromHomeRunsRankZeroUpToItsAllreduce)
{
    const Cursor cursor = Cursor(m_stops).nextSlice();
    // 2 forwards, the loss, 2 backwards; 5 sets before the first forward, then 11 more.
    EXPECT_EQ(cursor.position(), (Position{5, 16}));
    EXPECT_EQ(cursor.slice(), 0U);
    EXPECT_EQ(cursor.lastEvent(), 4U);
    const replay::RunState state = m_replayer.stateAt(cursor);
    const replay::RankState &rank0 = state.ranks[0];
    const auto keys = [&](core::MapKind kind) {
        std::vector<core::Key> out;
        for (const replay::MapEntry &entry : rank0.map(kind))
            out.push_back(entry.key());
        return out;
    };
    EXPECT_EQ(keys(core::MapKind::Weights), (std::vector<core::Key>{0, 1}));
    EXPECT_EQ(keys(core::MapKind::OptStates), (std::vector<core::Key>{0, 1}));
    EXPECT_EQ(keys(core::MapKind::Activations), (std::vector<core::Key>{2}));
    EXPECT_EQ(keys(core::MapKind::GradActivations), (std::vector<core::Key>{0}));
    EXPECT_EQ(keys(core::MapKind::GradWeights), (std::vector<core::Key>{1, 0}));
    // 6 full layers (262144 bytes each) and 2 activations of one batch (131072 each).
    EXPECT_EQ(rank0.memory, 6 * 262144 + 2 * 131072);
    EXPECT_EQ(rank0.event, 4U);
    EXPECT_FALSE(rank0.running);
    EXPECT_EQ(rank0.clock, SimTime::steps(4)); // backward(layer 0) ran from 3 to 4
    EXPECT_EQ(rank0.line, m_trace.changes[15].line);
    for (int r = 1; r < 4; ++r) {
        EXPECT_EQ(state.ranks[std::size_t(r)].memory, 0) << "rank " << r;
        EXPECT_FALSE(state.ranks[std::size_t(r)].event) << "rank " << r;
    }
}

TEST_F(CursorOverDataParallelRun, SliceStepsFollowTheTurnsTheRanksTook)
{
    const std::vector<Cursor> visited = walk(Cursor(m_stops), &Cursor::nextSlice);
    ASSERT_EQ(visited.size(), 11U); // home and the ends of 10 slices
    for (std::size_t k = 0; k < m_trace.slices.size(); ++k) {
        const Cursor &cursor = visited[k + 1];
        EXPECT_EQ(cursor.slice(), k);
        EXPECT_EQ(cursor.position(),
                  (Position{m_trace.slices[k].eventEnd, m_trace.slices[k].changeEnd}));
    }
    EXPECT_TRUE(visited.back().atEnd());
    EXPECT_TRUE(backIsTheInverseOfNext(m_stops, &Cursor::nextSlice, &Cursor::previousSlice));
}

TEST_F(CursorOverDataParallelRun, OperationStepsStartOneEventWithEveryRankAtItsStart)
{
    const Cursor first = Cursor(m_stops).nextOperation();
    EXPECT_EQ(first.lastEvent(), 0U);
    const replay::RankState rank0 = m_replayer.rankStateAt(first, 0);
    EXPECT_TRUE(rank0.running);
    EXPECT_EQ(rank0.clock, SimTime::steps(0)); // forward(layer 0) starts at 0
    EXPECT_EQ(rank0.line, m_trace.events[0].line);
    // The activation, 2 weights and 2 optimizer states set before it; its output not yet.
    EXPECT_EQ(rank0.map(core::MapKind::Activations).size(), 1U);
    EXPECT_EQ(rank0.map(core::MapKind::Weights).size(), 2U);
    // Rank 1 at t = 0 too: its weights loaded, its forward next (the following step).
    const replay::RankState rank1 = m_replayer.rankStateAt(first, 1);
    EXPECT_FALSE(rank1.running);
    EXPECT_EQ(rank1.map(core::MapKind::Weights).size(), 2U);
    const Cursor second = first.nextOperation();
    EXPECT_EQ(m_trace.events[*second.lastEvent()].rank, 1);
    EXPECT_TRUE(m_replayer.rankStateAt(second, 1).running);
    EXPECT_EQ(m_replayer.rankStateAt(second, 0).clock, SimTime::steps(0));
    // Home, the 36 events, the end.
    EXPECT_EQ(walk(Cursor(m_stops), &Cursor::nextOperation).size(), 38U);
    EXPECT_TRUE(
        backIsTheInverseOfNext(m_stops, &Cursor::nextOperation, &Cursor::previousOperation));
}

TEST_F(CursorOverDataParallelRun, TimeStepsVisitEveryEventBoundary)
{
    // Forwards, loss and backwards of every rank in step, the allreduce of layer 0 at 4, the
    // updates of layer 0 from 4.3, the allreduce of layer 1 at 4.8 and its updates from 5.1.
    const std::vector<std::int64_t> ticks = {0, 1000, 2000, 3000, 4000, 4300, 4800, 5100, 5600};
    Cursor cursor(m_stops);
    EXPECT_FALSE(cursor.time());
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        cursor = cursor.nextTime();
        EXPECT_EQ(cursor.time(), SimTime::fromTicks(ticks[k])) << "step " << k;
        EXPECT_EQ(cursor.cut(), SimTime::fromTicks(ticks[k])) << "step " << k;
        EXPECT_EQ(Cursor(m_stops).toCut(SimTime::fromTicks(ticks[k])), cursor);
    }
    EXPECT_TRUE(cursor.atEnd());
    EXPECT_EQ(cursor.nextTime(), cursor);
    EXPECT_EQ(Cursor(m_stops).toCut(SimTime::fromTicks(4500)).cut(), SimTime::fromTicks(4300));
    EXPECT_TRUE(Cursor(m_stops).toCut(SimTime::steps(100)).atEnd());
    // And back through the same times to home.
    for (std::size_t k = ticks.size() - 1; k-- > 0;) {
        cursor = cursor.previousTime();
        EXPECT_EQ(cursor.cut(), SimTime::fromTicks(ticks[k])) << "back " << k;
    }
    EXPECT_TRUE(cursor.previousTime().atHome());
}

TEST_F(CursorOverDataParallelRun, HomeEndAndEventsAreWhereTheySay)
{
    const Cursor home(m_stops);
    EXPECT_EQ(home.position(), (Position{0, 0}));
    EXPECT_EQ(home.previousOperation(), home);
    EXPECT_EQ(home.previousSlice(), home);
    EXPECT_EQ(home.previousTime(), home);
    const Cursor end = home.end();
    EXPECT_EQ(end.position(), (Position{36, m_trace.changes.size()}));
    EXPECT_EQ(end.nextOperation(), end);
    EXPECT_EQ(end.nextSlice(), end);
    EXPECT_EQ(end.nextTime(), end);
    EXPECT_EQ(end.home(), home);
    for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
        EXPECT_EQ(home.toEvent(i).lastEvent(), i);
        EXPECT_EQ(home.toEvent(i).cut(), m_trace.events[i].start);
    }
    EXPECT_EQ(home.toEvent(36), end);
}

TEST_F(CursorOverDataParallelRun, FractionsRoundTripAtEveryStop)
{
    EXPECT_EQ(Cursor(m_stops).fraction(), 0.0);
    EXPECT_EQ(Cursor(m_stops).end().fraction(), 1.0);
    for (std::size_t stop = 0; stop <= m_stops.last(); ++stop) {
        const Cursor cursor(m_stops, stop);
        EXPECT_EQ(cursor.fromFraction(cursor.fraction()), cursor) << "stop " << stop;
    }
    EXPECT_EQ(Cursor(m_stops).fromFraction(0.5).stop(), (m_stops.last() + 1) / 2);
    EXPECT_TRUE(Cursor(m_stops).fromFraction(7.0).atEnd());
    EXPECT_TRUE(Cursor(m_stops).end().fromFraction(-1.0).atHome());
}

TEST(CursorOverGpipeRun, SlicesFollowTheScheduler)
{
    const core::Trace trace = runProgram(makeConfig(4, 8, 4), gpipe);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const StopPoints stops(trace);
    // A pass_to never waits: rank 0 sends all 4 microbatches, then waits for a gradient; ranks 1
    // and 2 find their messages queued; rank 3 runs to the end and wakes rank 2 with its first
    // pass_to (rank 2's receive is recorded in rank 3's slice), then 2, 1 and 0 finish in turn.
    const int ranks[] = {0, 1, 2, 3, 2, 1, 0};
    const std::size_t events[] = {12, 16, 16, 31};
    ASSERT_EQ(trace.slices.size(), std::size(ranks));
    Cursor cursor(stops);
    for (std::size_t k = 0; k < std::size(ranks); ++k) {
        const Cursor next = cursor.nextSlice();
        EXPECT_EQ(trace.slices[*next.slice()].rank, ranks[k]) << "slice " << k;
        if (k < std::size(events)) {
            EXPECT_EQ(next.position().events - cursor.position().events, events[k]) << k;
        }
        cursor = next;
    }
    EXPECT_TRUE(cursor.atEnd());
    EXPECT_TRUE(backIsTheInverseOfNext(stops, &Cursor::nextOperation, &Cursor::previousOperation));
    EXPECT_TRUE(backIsTheInverseOfNext(stops, &Cursor::nextSlice, &Cursor::previousSlice));
}

TEST(CursorToMark, StandsWhereEachDrawWasCalled)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward);
    ASSERT_EQ(trace.marks.size(), 4U);
    const StopPoints stops(trace);
    const Cursor home(stops);
    // Each draw at its rank's clock: after loading at 0, after the forward at its end, 1.
    EXPECT_EQ(home.toMark(0).cut(), SimTime::steps(0));
    EXPECT_EQ(home.toMark(1).cut(), SimTime::steps(1));
    EXPECT_EQ(home.toMark(2).cut(), SimTime::steps(0));
    EXPECT_EQ(home.toMark(3).cut(), SimTime::steps(1));
    EXPECT_TRUE(home.toMark(4).atEnd());
    replay::Replayer replayer(stops);
    const replay::RunState state = replayer.stateAt(home.toMark(1));
    EXPECT_EQ(state.ranks[0].map(core::MapKind::Activations).size(), 2U);
    EXPECT_EQ(state.ranks[0].clock, SimTime::steps(1));
    // Rank 1 stands at that time too: its weights loaded and its forward done by t = 1, though
    // the scheduler had not run it yet when rank 0 drew.
    EXPECT_EQ(state.ranks[1].clock, SimTime::steps(1));
    EXPECT_EQ(state.ranks[1].map(core::MapKind::Activations).size(), 2U);
    // Rank 1's first draw, at 0: rank 0 has started its forward (ordered before it by rank),
    // its output not there yet.
    const replay::RunState atZero = replayer.stateAt(home.toMark(2));
    EXPECT_TRUE(atZero.ranks[0].running);
    EXPECT_EQ(atZero.ranks[0].map(core::MapKind::Activations).size(), 1U);
}

// Three draws around one forward, two of them with nothing in between, then one at the end.
core::RankTask drawsTwiceBeforeTheForward(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw");
    m.activations.set(0, m.getActivation({m.rank}));
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw");
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw_group");
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    m.engine().mark(core::CallSite{m.rank, __LINE__}, "draw");
    co_return;
}

TEST(CursorBySnapshot, StopsAtEveryDrawInOrderEvenWhenSeveralShareAPosition)
{
    const core::Trace trace = runProgram(makeConfig(1, 1, 1), drawsTwiceBeforeTheForward);
    ASSERT_EQ(trace.marks.size(), 4U);
    const StopPoints stops(trace);
    // Forward: marks 0-3, then the end; the two draws between the same changes are two stops.
    std::vector<Cursor> forward{Cursor(stops)};
    for (Cursor c = forward.back().nextSnapshot(); !(c == forward.back()); c = c.nextSnapshot())
        forward.push_back(c);
    ASSERT_EQ(forward.size(), 6U);
    const std::vector<Position> positions = {{0, 0}, {0, 1}, {0, 2}, {0, 2}, {1, 3}, {1, 3}};
    for (std::size_t k = 0; k < forward.size(); ++k)
        EXPECT_EQ(forward[k].position(), positions[k]) << "stop " << k;
    for (std::size_t k = 1; k <= 4; ++k)
        EXPECT_EQ(forward[k].mark(), k - 1);
    EXPECT_FALSE(forward[0].mark());
    EXPECT_FALSE(forward[5].mark());
    EXPECT_TRUE(forward[5].atEnd());
    // Back retraces every one of them.
    for (std::size_t k = forward.size() - 1; k > 0; --k)
        EXPECT_EQ(forward[k].previousSnapshot(), forward[k - 1]) << "stop " << k;
    // Stepped to by operation first, the next snapshot is the first draw at or after the stop.
    EXPECT_EQ(Cursor(stops).nextOperation().nextSnapshot().mark(), 3U);
    EXPECT_EQ(Cursor(stops).nextOperation().previousSnapshot().mark(), 2U);
    // The state at a draw is the state then: the input is there, its forward not yet.
    replay::Replayer replayer(stops);
    const replay::RunState state = replayer.stateAt(forward[3]);
    EXPECT_EQ(state.ranks[0].map(core::MapKind::Activations).size(), 1U);
    // The rank stands at that draw's line, not at the change before it.
    EXPECT_EQ(state.ranks[0].line, trace.marks[2].line);
    EXPECT_NE(replayer.stateAt(Cursor(stops, forward[3].stop())).ranks[0].line,
              trace.marks[2].line);
}

core::RankTask forwardThenBothReceive(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({m.rank}));
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    const core::Object got = co_await m.receive();
    m.activations.set(2, got);
}

TEST(CursorOverDeadlock, EndsWhereNoRankCouldGoOn)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), forwardThenBothReceive);
    ASSERT_EQ(trace.status, core::RunStatus::Deadlock);
    const StopPoints stops(trace);
    const Cursor end = Cursor(stops).end();
    // Each rank: 2 sets, its forward, 1 set; then it waits for the other.
    EXPECT_EQ(end.position(), (Position{2, 6}));
    EXPECT_EQ(end.slice(), 1U);
    EXPECT_EQ(trace.slices[1].end, core::SliceEnd::Receive);
    EXPECT_EQ(walk(Cursor(stops), &Cursor::nextSlice).size(), 3U);
    EXPECT_EQ(end.nextSlice(), end);
    EXPECT_EQ(end.nextOperation(), end);
    replay::Replayer replayer(stops);
    const replay::RunState state = replayer.stateAt(end);
    for (std::size_t r = 0; r < 2; ++r) {
        EXPECT_EQ(state.ranks[r].map(core::MapKind::Activations).size(), 2U) << "rank " << r;
        EXPECT_EQ(state.ranks[r].clock, SimTime::steps(1)) << "rank " << r;
        EXPECT_EQ(state.ranks[r].line, trace.changes[2 + 3 * r].line) << "rank " << r;
        EXPECT_LT(state.ranks[r].line, trace.diagnosis->ranks[r].line) << "rank " << r;
    }
    EXPECT_EQ(state, replay::stateAt(trace, end));
}

// Rank 0 runs three forwards in its one turn, then waits; rank 1 loads its weights in the turn
// after and waits for rank 0: a hang whose last item is rank 1's load.
core::RankTask threeForwardsThenBothReceive(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    if (m.rank == 0) {
        m.activations.set(0, m.getActivation({0, 1}));
        for (int i = 0; i < 3; ++i) {
            m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
            m.activations.del(1);
        }
    }
    const core::Object got = co_await m.receive();
    m.activations.set(2, got);
}

TEST(CursorOverDeadlock, AnOperationBeforeTheLastEventEndsIsNotTheEnd)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), threeForwardsThenBothReceive);
    ASSERT_EQ(trace.status, core::RunStatus::Deadlock);
    const StopPoints stops(trace);
    ASSERT_EQ(stops.operations().size(), 3U);
    // The first forward's cut holds rank 1's load, the last item of the trace: every stop.
    const Cursor first = Cursor::atOperation(stops, 1);
    ASSERT_EQ(first.stop(), stops.last());
    EXPECT_FALSE(first.atEnd());
    EXPECT_EQ(first.time(), SimTime::steps(0));
    EXPECT_EQ(first.operations(), 1U);
    // Stepped by operation: each forward, then the end where the ranks hung.
    const std::vector<Cursor> steps = walk(Cursor(stops), &Cursor::nextOperation);
    ASSERT_EQ(steps.size(), 5U);
    for (std::size_t k = 1; k <= 3; ++k) {
        EXPECT_FALSE(steps[k].atEnd()) << "operation " << k;
        EXPECT_EQ(steps[k].time(), SimTime::steps(2 * int(k - 1))) << "operation " << k;
    }
    EXPECT_TRUE(steps[4].atEnd());
    EXPECT_EQ(steps[4].time(), SimTime::steps(6));
    EXPECT_TRUE(backIsTheInverseOfNext(stops, &Cursor::nextOperation, &Cursor::previousOperation));
}

} // namespace
} // namespace rankstep::testing
