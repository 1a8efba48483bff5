// SPDX-License-Identifier: MIT
// Stepping through the DDP reference run (4 ranks, 2 layers, 4 batches) in every mode, forward
// and back, and playing it: the stops and times are the ones docs/simulation.md works out.
#include "core/replay/state.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "tests/gui/support/eventwaits.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <random>
#include <vector>

namespace rankstep::gui {
namespace {

// A trace handed to the stepper with its end, as RunSession does.
void load(rankstep::gui::StepController &controller, rankstep::gui::TracePtr trace)
{
    const auto end = trace ? trace->figures.endTime : rankstep::core::SimTime();
    controller.setTrace(std::move(trace), end);
}

using core::SimTime;
using Mode = StepController::StepMode;

TracePtr ddpTrace()
{
    static const TracePtr trace = [] {
        for (const rankstep::testing::PuzzleCase &puzzle : rankstep::testing::referencePuzzles())
            if (puzzle.name == "ddp")
                return std::make_shared<const core::Trace>(rankstep::testing::runProgram(
                    core::RunConfig{puzzle.ranks, puzzle.layers, puzzle.batches, {}},
                    puzzle.program));
        return TracePtr();
    }();
    return trace;
}

// The cursor after each step of `step` from where it stands, until it stops moving.
std::vector<replay::Cursor> walk(StepController &controller, void (StepController::*step)())
{
    std::vector<replay::Cursor> cursors{*controller.cursor()};
    for (;;) {
        (controller.*step)();
        if (*controller.cursor() == cursors.back())
            return cursors;
        cursors.push_back(*controller.cursor());
    }
}

class StepControllerTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(ddpTrace());
        ASSERT_EQ(ddpTrace()->events.size(), 36U);
        load(m_controller, ddpTrace());
    }
    StepController m_controller;
};

TEST_F(StepControllerTest, ARunIsShownFromItsEnd)
{
    ASSERT_TRUE(m_controller.cursor());
    EXPECT_TRUE(m_controller.atEnd());
    EXPECT_EQ(m_controller.appliedEvents(), 36U);
    EXPECT_EQ(m_controller.state().ranks.size(), 4U);
    EXPECT_EQ(m_controller.cursorTime(), SimTime::fromTicks(5600)); // update (0.5) from 5.1
}

TEST_F(StepControllerTest, OperationStepsApplyOneEventEachWayRound)
{
    m_controller.setStepMode(Mode::Operation);
    m_controller.home();
    EXPECT_EQ(m_controller.appliedEvents(), 0U);
    EXPECT_TRUE(m_controller.state().ranks[0].maps[0].empty());
    m_controller.next();
    EXPECT_EQ(m_controller.appliedEvents(), 1U);
    EXPECT_TRUE(m_controller.state().ranks[0].running); // forward(layer 0) of rank 0
    // Then rank 1's, at the same time: in the order of simulated start, not the scheduler's.
    m_controller.next();
    EXPECT_EQ(m_controller.movedRank(), 1);
    EXPECT_EQ(m_controller.cursorTime(), SimTime());
    EXPECT_TRUE(m_controller.state().ranks[1].running);
    m_controller.home();
    const std::vector<replay::Cursor> forward = walk(m_controller, &StepController::next);
    ASSERT_EQ(forward.size(), 38U); // home, 36 events, the end
    std::vector<replay::Cursor> back = walk(m_controller, &StepController::previous);
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(back, forward);
}

TEST_F(StepControllerTest, SliceStepsFollowTheTurnsTheRanksTook)
{
    m_controller.setStepMode(Mode::Slice);
    m_controller.home();
    m_controller.next();
    // Rank 0 runs 2 forwards, the loss and 2 backwards up to its first allreduce.
    EXPECT_EQ(m_controller.appliedEvents(), 5U);
    EXPECT_EQ(m_controller.state().ranks[0].clock, SimTime::steps(4));
    // The one mode whose ranks stand at their own clocks: the cursor at the mover's.
    EXPECT_EQ(m_controller.cursorTime(), SimTime::steps(4));
    EXPECT_EQ(m_controller.state().ranks[1].clock, SimTime());
    m_controller.home();
    const std::vector<replay::Cursor> forward = walk(m_controller, &StepController::nextSlice);
    EXPECT_EQ(forward.size(), 11U); // home and the ends of 10 slices
    std::vector<replay::Cursor> back = walk(m_controller, &StepController::previousSlice);
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(back, forward);
}

TEST_F(StepControllerTest, TimeStepsVisitEveryStartTimeAndComeBack)
{
    m_controller.setStepMode(Mode::Time);
    m_controller.home();
    const std::vector<std::int64_t> ticks = {0, 1000, 2000, 3000, 4000, 4300, 4800, 5100};
    for (std::int64_t t : ticks) {
        m_controller.next();
        EXPECT_EQ(m_controller.cursorTime(), SimTime::fromTicks(t));
    }
    m_controller.next();
    EXPECT_TRUE(m_controller.atEnd());
    for (auto t = ticks.rbegin(); t != ticks.rend(); ++t) {
        m_controller.previous();
        EXPECT_EQ(m_controller.cursorTime(), SimTime::fromTicks(*t));
    }
    m_controller.previousTime();
    EXPECT_TRUE(m_controller.atHome());
}

// The step bar's counts and the timeline's running blocks are kept as the cursor moves; at
// every step of every mode, and after jumps, they are what a count over every rank gives.
TEST_F(StepControllerTest, CountsKeptAsTheCursorMovesEqualARecount)
{
    const auto expectRecount = [this](const char *where) {
        const replay::Cursor cursor = *m_controller.cursor();
        std::size_t done = 0;
        std::vector<std::size_t> running;
        for (int rank = 0; rank < ddpTrace()->config.ranks; ++rank) {
            const replay::RankCut cut = cursor.rankCut(rank);
            const auto &events = cursor.stops().rankEvents(rank);
            const auto started = std::size_t(
                std::lower_bound(events.begin(), events.end(), cut.events) - events.begin());
            done += started - (cut.running && started > 0 ? 1 : 0);
            if (cut.running && started > 0)
                running.push_back(events[started - 1]);
            EXPECT_EQ(m_controller.rankCut(rank), cut) << where << ", rank " << rank;
        }
        EXPECT_EQ(m_controller.doneEvents(), done) << where;
        EXPECT_EQ(m_controller.runningCount(), running.size()) << where;
        EXPECT_EQ(m_controller.runningEvents(), running) << where;
    };
    for (const Mode mode : {Mode::Time, Mode::Operation, Mode::Slice}) {
        m_controller.setStepMode(mode);
        m_controller.home();
        expectRecount("home");
        while (!m_controller.atEnd()) {
            m_controller.next();
            expectRecount("forward");
        }
        for (int i = 0; i < 5; ++i) {
            m_controller.previous();
            expectRecount("back");
        }
    }
    m_controller.toTime(SimTime::fromTicks(2000));
    expectRecount("toTime");
    m_controller.setFraction(0.3);
    expectRecount("setFraction");
    m_controller.toEvent(20);
    expectRecount("toEvent");
}

// The state the stepper keeps, rebuilt for the ranks whose cut moved since it was last asked
// for, and the cursor's prefix it keeps, equal the state rebuilt whole and the prefix a search
// finds, after random steps forward and back in every mode.
TEST(StepControllerState, KeptAsTheCursorMovesEqualsTheStateRebuiltWhole)
{
    const TracePtr trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{16, 4, 16, {}}, rankstep::testing::fsdp));
    StepController controller;
    load(controller, trace);
    std::mt19937 random(13);
    const std::vector<Mode> modes{Mode::Time, Mode::Operation, Mode::Slice};
    controller.toTime(SimTime::fromTicks(trace->figures.endTime.ticks() / 3));
    for (int i = 0; i < 400; ++i) {
        if (random() % 25 == 0)
            controller.setStepMode(modes[random() % modes.size()]);
        if (random() % 30 == 0)
            controller.toTime(SimTime::fromTicks(
                std::int64_t(random() % std::uint64_t(trace->figures.endTime.ticks() + 1))));
        else if (random() % 3 == 0)
            controller.previous();
        else
            controller.next();
        if (random() % 3 != 0)
            continue; // asked for after some steps only, as a view that is hidden a while
        const replay::Cursor cursor = *controller.cursor();
        ASSERT_TRUE(cursor.stopKnown());
        // The same cursor made anew, its prefix found by a search over every rank.
        const replay::StopPoints &stops = cursor.stops();
        const replay::Cursor fresh = cursor.mark()   ? cursor.toMark(*cursor.mark())
                                     : !cursor.cut() ? cursor
                                     : cursor.bound() == replay::OrderKey::after(*cursor.cut())
                                         ? replay::Cursor::atCut(stops, *cursor.cut())
                                         : replay::Cursor::atOperation(stops, cursor.operations());
        ASSERT_TRUE(fresh == cursor) << "step " << i;
        ASSERT_EQ(cursor.stop(), fresh.stop()) << "step " << i;
        ASSERT_TRUE(controller.state() == replay::stateAt(*trace, cursor)) << "step " << i;
    }
}

TEST_F(StepControllerTest, JumpsToEventsTimesAndFractions)
{
    QSignalSpy changed(&m_controller, &StepController::cursorChanged);
    m_controller.toEvent(11);
    EXPECT_EQ(m_controller.cursor()->lastEvent(), 11U);
    EXPECT_EQ(m_controller.cursorTime(), m_controller.trace()->events[11].start);
    m_controller.toTime(SimTime::fromTicks(4500)); // every event starting by 4.5: up to 4.3
    EXPECT_EQ(m_controller.cursorTime(), SimTime::fromTicks(4300));
    m_controller.setFraction(0.0);
    EXPECT_TRUE(m_controller.atHome());
    m_controller.setFraction(0.0); // not a move: no signal
    m_controller.setFraction(1.0);
    EXPECT_TRUE(m_controller.atEnd());
    EXPECT_EQ(changed.count(), 4);
}

TEST_F(StepControllerTest, StateIsSignalledForTheStateView)
{
    QSignalSpy states(&m_controller, &StepController::stateChanged);
    m_controller.home();
    m_controller.nextSlice();
    ASSERT_EQ(states.count(), 2);
    const auto state = states.last().at(0).value<replay::RunState>();
    EXPECT_EQ(state.ranks[0].event, 4U);
    EXPECT_EQ(state, m_controller.state());
}

TEST_F(StepControllerTest, PlayStepsToTheEndAndStops)
{
    m_controller.setStepMode(Mode::Slice);
    m_controller.setSpeed(200);
    QSignalSpy changed(&m_controller, &StepController::cursorChanged);
    QSignalSpy playing(&m_controller, &StepController::playingChanged);
    m_controller.play(); // from the end: starts again at home
    EXPECT_TRUE(m_controller.isPlaying());
    EXPECT_TRUE(m_controller.atHome());
    ASSERT_TRUE(playing.wait(testing::kSettleTimeoutMs) || playing.count() == 2);
    ASSERT_EQ(playing.count(), 2);
    EXPECT_FALSE(playing.last().at(0).toBool());
    EXPECT_TRUE(m_controller.atEnd());
    EXPECT_EQ(changed.count(), 11); // home, then the ends of 10 slices
}

TEST_F(StepControllerTest, PauseHoldsTheCursor)
{
    m_controller.home();
    m_controller.setSpeed(50);
    m_controller.togglePlay();
    QSignalSpy changed(&m_controller, &StepController::cursorChanged);
    ASSERT_TRUE(changed.wait(testing::kSettleTimeoutMs));
    m_controller.togglePlay();
    EXPECT_FALSE(m_controller.isPlaying());
    const std::size_t applied = m_controller.appliedEvents();
    // The loop's sleep of one step (20 ms) was under way: once it has woken, nothing moves.
    ASSERT_TRUE(testing::letTimersFire(20));
    EXPECT_EQ(m_controller.appliedEvents(), applied);
    EXPECT_FALSE(m_controller.atEnd());
}

TEST(StepControllerLifetime, DyingWhilePlayingEndsTheLoop)
{
    // A dead controller's memory is reused by a new one that plays in the same generation: a loop
    // that woke and read its controller's fields would step the new one.
    alignas(StepController) std::byte storage[sizeof(StepController)];
    auto *controller = new (storage) StepController();
    load(*controller, ddpTrace());
    controller->setSpeed(500); // a step every 2 ms
    controller->play();        // the loop sleeps until its first step
    controller->~StepController();
    auto *successor = new (storage) StepController();
    load(*successor, ddpTrace());
    successor->setSpeed(0.1); // its own loop sleeps 10 s: no step of its own during the test
    successor->play();
    QSignalSpy moved(successor, &StepController::cursorChanged);
    // The dead controller's loop wakes to a null QPointer and ends without a step.
    ASSERT_TRUE(testing::letTimersFire(2));
    EXPECT_TRUE(moved.isEmpty());
    EXPECT_TRUE(successor->atHome());
    successor->~StepController();
}

// Both ranks wait for a message nobody sends.
core::RankTask forwardThenBothReceive(core::Model &m)
{
    auto [w, o] = m.loadWeights(0);
    m.weights.set(0, w);
    m.activations.set(0, m.getActivation({m.rank}));
    m.activations.set(1, m.forward(0, m.activations.get(0), m.weights.get(0)));
    const core::Object got = co_await m.receive();
    m.activations.set(2, got);
}

TEST(StepControllerAfterADeadlock, StandsWhereNoRankCouldGoOn)
{
    auto trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{2, 1, 2, {}}, forwardThenBothReceive));
    ASSERT_EQ(trace->status, core::RunStatus::Deadlock);
    StepController controller;
    load(controller, trace);
    ASSERT_TRUE(controller.atEnd());
    EXPECT_EQ(controller.appliedEvents(), 2U); // one forward per rank, then both wait
    EXPECT_EQ(controller.cursorTime(), SimTime::steps(1));
    for (const replay::RankState &rank : controller.state().ranks) {
        EXPECT_EQ(rank.clock, SimTime::steps(1));
        EXPECT_GT(rank.line, 0);
    }
    controller.nextSlice();
    EXPECT_TRUE(controller.atEnd()) << "nothing after the point where every rank waits";
    controller.previousSlice();
    EXPECT_EQ(controller.appliedEvents(), 1U); // rank 0's slice, up to its receive
}

// The DDP trace with three draws: one after the first change, two together after event 3.
TracePtr ddpWithDraws()
{
    auto trace = std::make_shared<core::Trace>(*ddpTrace());
    const replay::StopPoints stops(*trace);
    const replay::Position first = stops.position(1), later = stops.position(stops.afterEvent(3));
    trace->marks = {core::Mark{0, 7, first.events, first.changes, "draw"},
                    core::Mark{0, 9, later.events, later.changes, "draw"},
                    core::Mark{0, 10, later.events, later.changes, "draw_group"}};
    return trace;
}

TEST(StepControllerBySnapshot, ARunWithDrawsStepsByEachOfThemUntilAModeIsPicked)
{
    StepController controller;
    load(controller, ddpWithDraws());
    EXPECT_EQ(controller.stepMode(), Mode::Snapshot);
    controller.home();
    std::vector<replay::RunState> states;
    for (std::size_t k = 0; k < 3; ++k) {
        controller.next();
        EXPECT_EQ(controller.snapshot(), k);
        EXPECT_EQ(controller.stepIndex(), k + 1);
        states.push_back(controller.state());
        // Every rank at the drawing rank's time.
        for (const replay::RankState &rank : states.back().ranks)
            EXPECT_EQ(rank.clock, controller.cursorTime()) << "snapshot " << k;
    }
    // Two draws with nothing between are two steps at one moment (only the line differs).
    for (std::size_t r = 0; r < states[1].ranks.size(); ++r) {
        EXPECT_EQ(states[1].ranks[r].maps, states[2].ranks[r].maps) << "rank " << r;
        EXPECT_EQ(states[1].ranks[r].clock, states[2].ranks[r].clock) << "rank " << r;
    }
    EXPECT_NE(states[1].ranks[0].line, states[2].ranks[0].line);
    controller.next();
    EXPECT_TRUE(controller.atEnd());
    controller.previous();
    EXPECT_EQ(controller.snapshot(), 2U);
    controller.toSnapshot(0);
    EXPECT_EQ(controller.cursorTime(), SimTime()); // rank 0's first change, before its forward
    // A run without draws steps by simulated time again; one picked by hand stays picked.
    load(controller, ddpTrace());
    EXPECT_EQ(controller.stepMode(), Mode::Time);
    controller.setStepMode(Mode::Operation);
    load(controller, ddpWithDraws());
    EXPECT_EQ(controller.stepMode(), Mode::Operation);
}

TEST(StepControllerWithoutTrace, StepsDoNothing)
{
    StepController controller;
    QSignalSpy changed(&controller, &StepController::cursorChanged);
    controller.next();
    controller.end();
    controller.toEvent(3);
    controller.play();
    EXPECT_FALSE(controller.cursor());
    EXPECT_FALSE(controller.isPlaying());
    EXPECT_EQ(controller.appliedEvents(), 0U);
    EXPECT_EQ(changed.count(), 0);
    load(controller, ddpTrace());
    load(controller, nullptr);
    EXPECT_FALSE(controller.cursor());
    EXPECT_EQ(changed.count(), 2);
}

} // namespace
} // namespace rankstep::gui
