// SPDX-License-Identifier: MIT
// The counts a step keeps as the cursor moves (CutFront) never drift from a full recount over
// every rank: through every reference puzzle in every step mode forward and back, at jumps, and
// at draw() marks; and a step recounts nothing.
#include "core/replay/cutfront.h"
#include "core/replay/frontsearch.h"
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <tuple>
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

// What a rank's cut holds: its own events and changes applied, and whether its last event runs
// (two prefixes hold the same for most ranks in different numbers).
std::tuple<std::size_t, std::size_t, bool> held(const StopPoints &stops, int rank,
                                                const RankCut &cut)
{
    const auto &events = stops.rankEvents(rank);
    const auto &changes = stops.rankChanges(rank);
    return {
        std::size_t(std::lower_bound(events.begin(), events.end(), cut.events) - events.begin()),
        std::size_t(std::lower_bound(changes.begin(), changes.end(), cut.changes) -
                    changes.begin()),
        cut.running};
}

// Every rank whose cut the move from `before` changed is among the front's moved ranks: between
// two cuts every rank whose cut differs, elsewhere every rank whose cut holds something else.
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
        const bool changed = from.cut() && cursor.cut()
                                 ? !(before.cuts[r] == now.cuts[r])
                                 : held(cursor.stops(), rank, before.cuts[r]) !=
                                       held(cursor.stops(), rank, now.cuts[r]);
        if (!drawing && r < before.cuts.size() && changed &&
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
                                      &Cursor::nextSlice,     &Cursor::previousSlice,
                                      &Cursor::nextSnapshot,  &Cursor::previousSnapshot};
        std::mt19937 random(11);
        Cursor cursor = Cursor::atCut(stops, stops.boundaries()[stops.boundaries().size() / 3]);
        front.moveTo(cursor);
        for (int i = 0; i < 900; ++i) {
            // Runs of steps in one mode (time, operation, scheduler turn; each twice as likely
            // forward), a snapshot, home, the end or a jump at times.
            const std::size_t pick = random() % 20;
            const std::size_t mode = std::size_t(i / 30 % 3);
            Cursor next = cursor;
            if (pick == 19)
                next = cursor.toCut(stops.boundaries()[random() % stops.boundaries().size()]);
            else if (pick == 18)
                next = steps[6 + random() % 2](cursor);
            else if (pick == 17)
                next = random() % 2 ? cursor.home() : cursor.end();
            else
                next = steps[2 * mode + (pick % 3 == 2 ? 1 : 0)](cursor);
            const Cursor from = cursor;
            cursor = next;
            front.moveTo(cursor);
            ASSERT_TRUE(agrees(front, cursor)) << "step " << i;
            ASSERT_TRUE(movedHolds(front, from, cursor)) << "step " << i;
        }
    }
}

// A step moves the counts by the events it starts or takes back; only a jump past more events
// than there are ranks, from where the counts stood and from nothing started, counts every rank
// again.
TEST(CutFront, AStepRecountsNoRank)
{
    const core::Trace trace = runProgram(makeConfig(64, 8, 64), fsdp);
    const StopPoints stops(trace);
    CutFront front(stops);
    Cursor cursor = Cursor::atCut(stops, stops.boundaries()[stops.boundaries().size() / 2]);
    front.moveTo(cursor);
    ASSERT_EQ(front.recounts(), 1U) << "the middle of the run is far from nothing started";
    cursor = Cursor::atOperation(stops, 10);
    front.moveTo(cursor);
    ASSERT_EQ(front.recounts(), 1U) << "near the start: counted on from nothing started";
    EXPECT_TRUE(agrees(front, cursor));
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

// The first step from the start and a step by scheduler turn (forward or back) name the ranks
// they moved, not every rank, and recount none: at 16,384 ranks they then cost what they moved.
TEST(CutFront, TheFirstStepAndAStepByTurnMoveOnlyTheirRanks)
{
    const core::Trace trace = runProgram(makeConfig(64, 8, 64), fsdp);
    const StopPoints stops(trace);
    CutFront front(stops);
    front.moveTo(Cursor::atCut(stops, stops.boundaries().back()));
    const std::size_t recounts = front.recounts();
    for (const Step &first : std::vector<Step>{&Cursor::nextTime, &Cursor::nextOperation}) {
        const Cursor home(stops);
        front.moveTo(home);
        const Cursor cursor = first(home);
        front.moveTo(cursor);
        EXPECT_FALSE(front.allMoved());
        EXPECT_TRUE(agrees(front, cursor));
        EXPECT_TRUE(movedHolds(front, home, cursor));
    }
    Cursor cursor(stops);
    front.moveTo(cursor);
    for (int i = 0; i < 200; ++i) {
        const Cursor from = cursor;
        cursor = i % 4 == 3 ? cursor.previousSlice() : cursor.nextSlice();
        front.moveTo(cursor);
        ASSERT_FALSE(front.allMoved()) << "turn " << i;
        // The ranks named: those holding something else (a collective's last member records
        // every member's event), and the ranks running before and after.
        std::size_t changed = 0;
        for (int rank = 0; rank < trace.config.ranks; ++rank)
            changed +=
                held(stops, rank, from.rankCut(rank)) != held(stops, rank, cursor.rankCut(rank));
        EXPECT_LE(front.movedRanks().size(), changed + 2) << "turn " << i;
        ASSERT_TRUE(agrees(front, cursor)) << "turn " << i;
        ASSERT_TRUE(movedHolds(front, from, cursor)) << "turn " << i;
    }
    EXPECT_EQ(front.recounts(), recounts);
}

// The search from the front that a step of many ranks uses finds what a binary search finds, in
// lists of every length, for bounds below, inside and past them.
TEST(FrontSearch, FindsWhatABinarySearchFinds)
{
    std::mt19937 random(13);
    for (std::size_t size = 0; size < 70; ++size) {
        std::vector<std::size_t> sorted;
        for (std::size_t i = 0; i < size; ++i)
            sorted.push_back(random() % 3 + (sorted.empty() ? 0 : sorted.back()));
        for (std::size_t bound = 0; bound < 3 * size + 3; ++bound)
            ASSERT_EQ(replay::lowerBoundFromFront(sorted, bound),
                      std::lower_bound(sorted.begin(), sorted.end(), bound))
                << size << " elements, bound " << bound;
    }
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
            // Runs of time and operation steps, then of scheduler turns, a jump at times.
            const std::size_t pick = random() % 13;
            const bool turns = i / 25 % 2 == 1;
            cursor = pick == 12 ? cursor.home()
                     : pick == 11
                         ? cursor.toCut(stops.boundaries()[random() % stops.boundaries().size()])
                     : pick == 10
                         ? (random() % 2 ? cursor.nextSnapshot() : cursor.previousSnapshot())
                     : turns     ? (pick % 3 == 2 ? cursor.previousSlice() : cursor.nextSlice())
                     : pick == 9 ? cursor.nextSlice()
                     : pick < 3  ? cursor.previousTime()
                     : pick < 6  ? cursor.nextTime()
                     : pick < 7  ? cursor.previousOperation()
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
