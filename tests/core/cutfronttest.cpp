// SPDX-License-Identifier: MIT
// The counts a step keeps as the cursor moves (CutFront) never drift from a full recount over
// every rank: through every reference puzzle in every step mode forward and back, at jumps, and
// at draw() marks; and a step recounts nothing.
#include "core/replay/cutfront.h"
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace rankstep::testing {
namespace {

using replay::Cursor;
using replay::CutFront;
using replay::RankCut;
using replay::StopPoints;
using Step = std::function<Cursor(const Cursor &)>;

// What the step bar and the timeline read, counted over every rank as the cursor answers it.
struct Recount {
    std::vector<RankCut> cuts;
    std::size_t running = 0;
    std::size_t done = 0;
};

Recount recount(const Cursor &cursor)
{
    Recount counts;
    const StopPoints &stops = cursor.stops();
    for (int rank = 0; rank < cursor.stops().trace().config.ranks; ++rank) {
        const RankCut cut = cursor.rankCut(rank);
        counts.cuts.push_back(cut);
        const auto &events = stops.rankEvents(rank);
        const auto started = std::size_t(
            std::lower_bound(events.begin(), events.end(), cut.events) - events.begin());
        counts.running += cut.running ? 1 : 0;
        counts.done += started - (cut.running && started > 0 ? 1 : 0);
    }
    return counts;
}

::testing::AssertionResult agrees(const CutFront &front, const Cursor &cursor)
{
    const Recount full = recount(cursor);
    // The prefix the front kept, against the one a search over every rank finds.
    if (!front.cursor() || !front.cursor()->stopKnown() || !(*front.cursor() == cursor) ||
        front.cursor()->stop() != cursor.stop())
        return ::testing::AssertionFailure()
               << "at stop " << cursor.stop() << ": the front's cursor stands at "
               << (front.cursor() ? front.cursor()->stop() : 0);
    if (front.running() != full.running || front.done() != full.done)
        return ::testing::AssertionFailure()
               << "at stop " << cursor.stop() << ": running " << front.running() << " done "
               << front.done() << ", recounted " << full.running << " and " << full.done;
    for (int rank = 0; rank < int(full.cuts.size()); ++rank) {
        const RankCut cut = front.rankCut(rank);
        const RankCut &expected = full.cuts[std::size_t(rank)];
        if (!(cut == expected))
            return ::testing::AssertionFailure()
                   << "at stop " << cursor.stop() << " rank " << rank << ": events " << cut.events
                   << " changes " << cut.changes << " running " << cut.running << ", recounted "
                   << expected.events << " " << expected.changes << " " << expected.running;
        if (front.runningEvent(rank).has_value() != expected.running)
            return ::testing::AssertionFailure() << "rank " << rank << "'s running event";
    }
    return ::testing::AssertionSuccess();
}

// Every rank whose cut the move from `before` changed is among the front's moved ranks.
::testing::AssertionResult movedHolds(const CutFront &front, const Cursor &from,
                                      const Cursor &cursor)
{
    const Recount before = recount(from);
    const auto drawingAt = [](const Cursor &at) {
        return at.mark() ? at.stops().trace().marks[*at.mark()].rank : -1;
    };
    if (front.allMoved())
        return ::testing::AssertionSuccess();
    const Recount now = recount(cursor);
    std::vector<int> moved = front.movedRanks();
    std::sort(moved.begin(), moved.end());
    if (std::adjacent_find(moved.begin(), moved.end()) != moved.end())
        return ::testing::AssertionFailure() << "a rank moved twice in one move";
    for (int rank = 0; rank < int(now.cuts.size()); ++rank) {
        const auto r = std::size_t(rank);
        // A draw()'s rank is looked at again by its followers whatever moved, and after it.
        const bool drawing = rank == drawingAt(cursor) || rank == drawingAt(from);
        cursor.mark() && cursor.stops().trace().marks[*cursor.mark()].rank == rank;
        if (!drawing && r < before.cuts.size() && !(before.cuts[r] == now.cuts[r]) &&
            !std::binary_search(moved.begin(), moved.end(), rank))
            return ::testing::AssertionFailure() << "at stop " << cursor.stop() << ": rank " << rank
                                                 << "'s cut changed, and the front did not name it";
    }
    return ::testing::AssertionSuccess();
}

// Walks from `from` with `step` until it stands still, the front following every cursor.
::testing::AssertionResult walkAgrees(CutFront &front, Cursor cursor, const Step &step)
{
    front.moveTo(cursor);
    for (int steps = 0;; ++steps) {
        if (auto result = agrees(front, cursor); !result)
            return result << " after " << steps << " steps";
        const Cursor next = step(cursor);
        if (next == cursor)
            return ::testing::AssertionSuccess();
        cursor = next;
        front.moveTo(cursor);
    }
}

class CutFrontOverReferencePuzzles : public ::testing::TestWithParam<std::string>
{};

TEST_P(CutFrontOverReferencePuzzles, AgreesWithARecountInEveryModeForwardAndBack)
{
    const core::Trace trace = runReference(GetParam());
    const StopPoints stops(trace);
    CutFront front(stops);
    const Cursor home(stops);
    EXPECT_TRUE(walkAgrees(front, home, &Cursor::nextTime));
    EXPECT_TRUE(
        walkAgrees(front, Cursor::atCut(stops, stops.boundaries().back()), &Cursor::previousTime));
    EXPECT_TRUE(walkAgrees(front, home, &Cursor::nextOperation));
    EXPECT_TRUE(walkAgrees(front, home.end(), &Cursor::previousOperation));
    EXPECT_TRUE(walkAgrees(front, home, &Cursor::nextSlice));
    // From a time cut to operations, back and forth, then jumps anywhere.
    Cursor cursor = Cursor::atCut(stops, stops.boundaries()[stops.boundaries().size() / 2]);
    front.moveTo(cursor);
    for (int i = 0; i < 6; ++i) {
        cursor = i % 3 == 2 ? cursor.previousTime() : cursor.nextOperation();
        front.moveTo(cursor);
        EXPECT_TRUE(agrees(front, cursor)) << "step " << i;
    }
    std::mt19937 random(7);
    for (int i = 0; i < 40; ++i) {
        const std::size_t count = random() % (stops.operations().size() + 2);
        cursor = i % 2 ? Cursor::atOperation(stops, count)
                       : cursor.toCut(stops.boundaries()[random() % stops.boundaries().size()]);
        front.moveTo(cursor);
        EXPECT_TRUE(agrees(front, cursor)) << "jump " << i;
    }
}

// The cut's prefix, found with one search a rank, is the one each rank's cut holds.
TEST_P(CutFrontOverReferencePuzzles, TheCutsStopHoldsEveryRanksCut)
{
    const core::Trace trace = runReference(GetParam());
    const StopPoints stops(trace);
    for (Cursor cursor = Cursor(stops).nextOperation();; cursor = cursor.nextOperation()) {
        std::size_t stop = 0;
        for (int rank = 0; rank < trace.config.ranks; ++rank)
            stop = std::max(
                stop, stops.stopHolding(rank, stops.rankCut(rank, *cursor.cut(), cursor.bound())));
        ASSERT_EQ(stops.cutStop(*cursor.cut(), cursor.bound()), stop) << cursor.operations();
        if (cursor.atEnd() || cursor.operations() >= stops.operations().size())
            break;
    }
    for (const core::SimTime time : stops.boundaries()) {
        std::size_t stop = 0;
        for (int rank = 0; rank < trace.config.ranks; ++rank)
            stop = std::max(stop, stops.stopHolding(rank, stops.rankCut(rank, time)));
        ASSERT_EQ(stops.cutStop(time), stop) << time.toString();
    }
}

INSTANTIATE_TEST_SUITE_P(Puzzles, CutFrontOverReferencePuzzles,
                         ::testing::Values("ddp", "fsdp", "gpipe", "pipeline_fsdp"));

TEST(CutFront, AgreesAtEveryDrawMark)
{
    const core::Trace trace = runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward);
    const StopPoints stops(trace);
    CutFront front(stops);
    EXPECT_TRUE(walkAgrees(front, Cursor(stops), &Cursor::nextSnapshot));
    EXPECT_TRUE(walkAgrees(front, Cursor(stops).end(), &Cursor::previousSnapshot));
}

// Random steps forward and back in every mode, and now and then a jump: after each, the counts,
// every rank's cut and the cut's prefix the front kept equal a recount over every rank, and the
// ranks it says moved hold every rank whose cut changed.
TEST(CutFront, AgreesWithARecountAfterRandomStepsForwardAndBack)
{
    for (const core::Trace &trace :
         {runProgram(makeConfig(64, 8, 64), fsdp), runReference("gpipe"),
          runReference("pipeline_fsdp"),
          runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward)}) {
        const StopPoints stops(trace);
        CutFront front(stops);
        const std::vector<Step> steps{&Cursor::nextTime,      &Cursor::previousTime,
                                      &Cursor::nextOperation, &Cursor::previousOperation,
                                      &Cursor::nextSnapshot,  &Cursor::previousSnapshot};
        std::mt19937 random(11);
        Cursor cursor = Cursor::atCut(stops, stops.boundaries()[stops.boundaries().size() / 3]);
        front.moveTo(cursor);
        for (int i = 0; i < 600; ++i) {
            // Mostly time and operation steps (each twice as likely forward), a jump at times.
            const std::size_t pick = random() % 16;
            Cursor next = cursor;
            if (pick == 15)
                next = cursor.toCut(stops.boundaries()[random() % stops.boundaries().size()]);
            else if (pick == 14)
                next = steps[4 + random() % 2](cursor);
            else
                next = steps[(pick % 4 == 3 ? 1 : 0) + (pick < 7 ? 0 : 2)](cursor);
            const Cursor from = cursor;
            cursor = next;
            front.moveTo(cursor);
            ASSERT_TRUE(agrees(front, cursor)) << "step " << i;
            ASSERT_TRUE(movedHolds(front, from, cursor)) << "step " << i;
        }
    }
}

// A step moves the counts by the events it starts or takes back; only the first cut and a jump
// past more events than there are ranks count every rank again.
TEST(CutFront, AStepRecountsNoRank)
{
    const core::Trace trace = runProgram(makeConfig(64, 8, 64), fsdp);
    const StopPoints stops(trace);
    CutFront front(stops);
    Cursor cursor = Cursor::atCut(stops, stops.boundaries()[1]);
    front.moveTo(cursor);
    ASSERT_EQ(front.recounts(), 1U);
    int steps = 0;
    for (int i = 0; i < 100; ++i) {
        const Cursor next =
            i < 50 ? (i % 5 == 4 ? cursor.previousTime() : cursor.nextTime())
                   : (i % 5 == 4 ? cursor.previousOperation() : cursor.nextOperation());
        const std::size_t from = cursor.operations(), to = next.operations();
        const std::size_t recounts = front.recounts();
        cursor = next;
        front.moveTo(cursor);
        if ((from > to ? from - to : to - from) <= 64) {
            EXPECT_EQ(front.recounts(), recounts) << "step " << i;
            ++steps;
        }
    }
    EXPECT_GT(steps, 90);
    EXPECT_TRUE(agrees(front, cursor));
    const std::size_t recounts = front.recounts();
    front.moveTo(Cursor::atCut(stops, stops.boundaries().back()));
    EXPECT_EQ(front.recounts(), recounts + 1) << "a jump over the whole run recounts";
    EXPECT_TRUE(agrees(front, *front.cursor()));
}

// The state a step keeps (only the ranks whose cut moved rebuilt) equals the state rebuilt
// whole, at every cursor of every mode, at jumps and at draw() marks.
TEST(FollowedState, EqualsTheStateRebuiltWholeAtEveryCursor)
{
    for (const core::Trace &trace :
         {runReference("pipeline_fsdp"), runReference("gpipe"),
          runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward)}) {
        const StopPoints stops(trace);
        CutFront front(stops);
        replay::Replayer follower(stops), reference(stops);
        replay::RunState followed;
        std::vector<Cursor> cursors;
        for (const Step &step : std::vector<Step>{&Cursor::nextTime, &Cursor::nextOperation,
                                                  &Cursor::nextSnapshot, &Cursor::nextSlice})
            for (Cursor cursor(stops);;) {
                cursors.push_back(cursor);
                const Cursor next = step(cursor);
                if (next == cursor)
                    break;
                cursor = next;
            }
        std::mt19937 random(3);
        for (int i = 0; i < 30; ++i)
            cursors.push_back(cursors[random() % cursors.size()]);
        for (const Cursor &cursor : cursors) {
            front.moveTo(cursor);
            follower.followState(cursor, followed, front);
            ASSERT_TRUE(followed == reference.stateAt(cursor)) << "at stop " << cursor.stop();
        }
    }
}

// The state rebuilt for the ranks whose cut moved only (gathered over the moves since it was
// last asked for, as the step controller does) equals the state rebuilt whole, after random
// steps forward and back.
TEST(FollowedState, RebuiltForTheMovedRanksOnlyEqualsTheStateRebuiltWhole)
{
    for (const core::Trace &trace :
         {runProgram(makeConfig(64, 8, 64), fsdp), runReference("pipeline_fsdp"),
          runProgram(makeConfig(2, 1, 2), drawsAfterLoadingAndAfterTheForward)}) {
        const StopPoints stops(trace);
        CutFront front(stops);
        replay::Replayer follower(stops), reference(stops);
        replay::RunState followed;
        std::vector<int> moved;
        bool all = true;
        std::vector<char> isMoved(std::size_t(trace.config.ranks), 0);
        std::mt19937 random(5);
        Cursor cursor = Cursor::atCut(stops, stops.boundaries()[stops.boundaries().size() / 2]);
        for (int i = 0; i < 300; ++i) {
            const std::size_t pick = random() % 12;
            cursor =
                pick == 11 ? cursor.toCut(stops.boundaries()[random() % stops.boundaries().size()])
                : pick == 10 ? (random() % 2 ? cursor.nextSnapshot() : cursor.previousSnapshot())
                : pick == 9  ? cursor.nextSlice()
                : pick < 3   ? cursor.previousTime()
                : pick < 6   ? cursor.nextTime()
                : pick < 7   ? cursor.previousOperation()
                             : cursor.nextOperation();
            front.moveTo(cursor);
            all = all || front.allMoved();
            for (const int rank : front.movedRanks())
                if (!all && !isMoved[std::size_t(rank)]) {
                    isMoved[std::size_t(rank)] = 1;
                    moved.push_back(rank);
                }
            if (random() % 3 != 0)
                continue; // the state is asked for after some moves only
            follower.followState(*front.cursor(), followed, front, all ? nullptr : &moved);
            ASSERT_TRUE(followed == reference.stateAt(cursor)) << "step " << i;
            for (const int rank : moved)
                isMoved[std::size_t(rank)] = 0;
            moved.clear();
            all = false;
        }
    }
}

} // namespace
} // namespace rankstep::testing
