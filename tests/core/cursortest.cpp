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

// The stops one mode visits from home to the end, and the stops it visits back.
std::vector<std::size_t> walk(Cursor cursor, const Step &step)
{
    std::vector<std::size_t> stops{cursor.stop()};
    for (Cursor next = step(cursor); next.stop() != cursor.stop(); next = step(cursor)) {
        cursor = next;
        stops.push_back(cursor.stop());
    }
    return stops;
}

// Succeeds when the mode's next and previous visit the same stops in opposite orders.
::testing::AssertionResult backIsTheInverseOfNext(const StopPoints &stops, const Step &next,
                                                  const Step &previous)
{
    const std::vector<std::size_t> forward = walk(Cursor(stops), next);
    std::vector<std::size_t> back = walk(Cursor(stops).end(), previous);
    std::reverse(back.begin(), back.end());
    if (forward != back)
        return ::testing::AssertionFailure()
               << forward.size() << " stops forward, " << back.size() << " back";
    if (forward.front() != 0 || forward.back() != stops.last())
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
    const std::vector<std::size_t> visited = walk(Cursor(m_stops), &Cursor::nextSlice);
    ASSERT_EQ(visited.size(), 11U); // home and the ends of 10 slices
    for (std::size_t k = 0; k < m_trace.slices.size(); ++k) {
        const Cursor cursor(m_stops, visited[k + 1]);
        EXPECT_EQ(cursor.slice(), k);
        EXPECT_EQ(cursor.position(),
                  (Position{m_trace.slices[k].eventEnd, m_trace.slices[k].changeEnd}));
    }
    EXPECT_EQ(visited.back(), m_stops.last());
    EXPECT_TRUE(backIsTheInverseOfNext(m_stops, &Cursor::nextSlice, &Cursor::previousSlice));
}

TEST_F(CursorOverDataParallelRun, OperationStepsApplyOneEventWithTheChangesBeforeIt)
{
    const Cursor first = Cursor(m_stops).nextOperation();
    EXPECT_EQ(first.position(), (Position{1, 5})); // activation, 2 weights, 2 optimizer states
    const replay::RankState rank0 = m_replayer.rankStateAt(first, 0);
    EXPECT_TRUE(rank0.running);
    EXPECT_EQ(rank0.clock, SimTime::steps(0)); // forward(layer 0) starts at 0
    EXPECT_EQ(rank0.line, m_trace.events[0].line);
    EXPECT_EQ(first.nextOperation().position(), (Position{2, 6}));
    EXPECT_EQ(m_replayer.rankStateAt(first.nextOperation(), 0).clock, SimTime::steps(1));
    // 36 events, then the weights and optimizer states rank 3 set after its last update.
    const std::vector<std::size_t> visited = walk(Cursor(m_stops), &Cursor::nextOperation);
    EXPECT_EQ(visited.size(), 38U);
    EXPECT_EQ(Cursor(m_stops, visited[36]).position(), (Position{36, m_trace.changes.size() - 2}));
    EXPECT_TRUE(
        backIsTheInverseOfNext(m_stops, &Cursor::nextOperation, &Cursor::previousOperation));
}

TEST_F(CursorOverDataParallelRun, TimeStepsVisitEveryDistinctStartTime)
{
    // Rank 3 runs last in the first round, so each of its events completes a start time; then
    // the allreduce of layer 0, the updates of layer 0, the allreduce and updates of layer 1.
    const std::vector<std::size_t> lastEvents = {15, 16, 18, 19, 23, 27, 31, 35};
    const std::vector<std::int64_t> ticks = {0, 1000, 2000, 3000, 4000, 4300, 4800, 5100};
    Cursor cursor(m_stops);
    EXPECT_FALSE(cursor.time());
    for (std::size_t k = 0; k < ticks.size(); ++k) {
        cursor = cursor.nextTime();
        EXPECT_EQ(cursor.stop(), m_stops.afterEvent(lastEvents[k])) << "step " << k;
        EXPECT_EQ(cursor.time(), SimTime::fromTicks(ticks[k])) << "step " << k;
        EXPECT_EQ(Cursor(m_stops).toTime(SimTime::fromTicks(ticks[k])), cursor);
    }
    EXPECT_TRUE(cursor.nextTime().atEnd());
    EXPECT_EQ(Cursor(m_stops).toTime(SimTime::fromTicks(4500)).stop(), m_stops.afterEvent(27));
    EXPECT_EQ(Cursor(m_stops).toTime(SimTime::steps(100)).stop(), m_stops.afterEvent(35));
    EXPECT_TRUE(backIsTheInverseOfNext(m_stops, &Cursor::nextTime, &Cursor::previousTime));
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
        EXPECT_EQ(home.toEvent(i).position().events, i + 1);
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

} // namespace
} // namespace rankstep::testing
