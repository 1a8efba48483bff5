// SPDX-License-Identifier: MIT
// Every rank's state rebuilt from a finished trace equals the storage the core held: checked at
// every stop of all eight reference puzzles against the core's own Storage fed the same changes,
// against every event's recorded memory and against the engine's storage at the end.
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>

namespace rankstep::testing {
namespace {

using replay::Cursor;
using replay::Replayer;
using replay::StopPoints;

// A run whose engine stays alive, so that its storage can be compared at the end.
struct FinishedRun {
    explicit FinishedRun(const PuzzleCase &puzzle)
        : engine(makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches))
    {
        core::ProgramList programs = core::makePrograms(engine, puzzle.program);
        engine.run(programs);
    }
    core::Engine engine;
};

// Succeeds when a rebuilt rank holds what a core Storage holds, entry by entry in order.
::testing::AssertionResult sameStorage(const replay::RankState &rank, const core::Storage &storage)
{
    for (int m = 0; m < core::kMapCount; ++m) {
        const auto kind = core::MapKind(m);
        const auto expected = storage.entries(kind);
        const auto &got = rank.map(kind);
        if (got.size() != expected.size())
            return ::testing::AssertionFailure() << core::mapName(kind) << ": " << got.size()
                                                 << " entries, expected " << expected.size();
        for (std::size_t i = 0; i < got.size(); ++i)
            if (!(got[i].key() == expected[i].first) || !(got[i].object() == *expected[i].second))
                return ::testing::AssertionFailure()
                       << core::mapName(kind) << " entry " << i << " is "
                       << core::formatKey(got[i].key()) << ", expected "
                       << core::formatKey(expected[i].first);
    }
    if (rank.memory != storage.memory())
        return ::testing::AssertionFailure()
               << "memory " << rank.memory << ", expected " << storage.memory();
    return ::testing::AssertionSuccess();
}

class ReplayedPuzzle : public ::testing::TestWithParam<PuzzleCase>
{};

TEST_P(ReplayedPuzzle, EveryStopHoldsWhatTheCoreStorageHolds)
{
    const FinishedRun run(GetParam());
    const core::Trace &trace = run.engine.trace();
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const StopPoints stops(trace);
    ASSERT_EQ(stops.count(), trace.events.size() + trace.changes.size() + 1);
    Replayer replayer(stops, 4);
    std::vector<core::Storage> storages(std::size_t(GetParam().ranks),
                                        core::Storage(trace.config.cost.sizes));
    for (std::size_t stop = 0; stop <= stops.last(); ++stop) {
        const replay::Position position = stops.position(stop);
        ASSERT_EQ(position.events + position.changes, stop);
        if (stop > 0 && position.changes > stops.position(stop - 1).changes) {
            const core::StorageChange &c = trace.changes[position.changes - 1];
            core::Storage &storage = storages[std::size_t(c.rank)];
            if (const core::Object *object = trace.changes.object(c))
                storage.set(c.map, c.key, object);
            else
                ASSERT_TRUE(storage.erase(c.map, c.key)) << "change " << position.changes - 1;
        }
        const replay::RunState state = replayer.stateAt(Cursor(stops, stop));
        for (std::size_t r = 0; r < storages.size(); ++r)
            ASSERT_TRUE(sameStorage(state.ranks[r], storages[r])) << "rank " << r << " at " << stop;
    }
}

TEST_P(ReplayedPuzzle, MemoryBeforeEachEventIsTheEventsRecordedMemory)
{
    const FinishedRun run(GetParam());
    const core::Trace &trace = run.engine.trace();
    const StopPoints stops(trace);
    Replayer replayer(stops, 4);
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        // With every change recorded before event i applied, and event i not yet.
        const Cursor before(stops, stops.afterEvent(i) - 1);
        ASSERT_EQ(before.position().events, i);
        const int rank = trace.events[i].rank;
        EXPECT_EQ(replayer.memoryAt(before, rank), trace.events[i].memory) << "event " << i;
        EXPECT_EQ(replayer.rankStateAt(before, rank).memory, trace.events[i].memory)
            << "event " << i;
    }
}

TEST_P(ReplayedPuzzle, TheEndHoldsTheEnginesStorage)
{
    const FinishedRun run(GetParam());
    const StopPoints stops(run.engine.trace());
    Replayer replayer(stops);
    const replay::RunState end = replayer.stateAt(Cursor(stops).end());
    EXPECT_EQ(end.position, (replay::Position{run.engine.trace().events.size(),
                                              run.engine.trace().changes.size()}));
    for (int r = 0; r < GetParam().ranks; ++r)
        EXPECT_TRUE(sameStorage(end.ranks[std::size_t(r)], run.engine.storage(r))) << "rank " << r;
}

TEST_P(ReplayedPuzzle, CheckpointsGiveTheStateOfReplayFromNothingInAnyOrder)
{
    const core::Trace trace = runProgram(
        makeConfig(GetParam().ranks, GetParam().layers, GetParam().batches), GetParam().program);
    const StopPoints stops(trace);
    std::vector<replay::RunState> expected;
    for (std::size_t stop = 0; stop <= stops.last(); ++stop)
        expected.push_back(replay::stateAt(trace, Cursor(stops, stop)));
    std::vector<std::size_t> order(stops.count());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::vector<std::size_t> shuffled = order;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(20240607));
    std::vector<std::size_t> backward(order.rbegin(), order.rend());
    for (std::size_t gap : {std::size_t(1), std::size_t(7), std::size_t(1024)}) {
        Replayer replayer(stops, gap);
        EXPECT_GT(replayer.checkpointCount(), gap == 1 ? 1U : 0U);
        for (const auto *visit : {&order, &backward, &shuffled})
            for (std::size_t stop : *visit)
                ASSERT_EQ(replayer.stateAt(Cursor(stops, stop)), expected[stop])
                    << "stop " << stop << ", gap " << gap;
        replay::RunState reused; // filled again and again, as a view following the cursor
        for (std::size_t stop : shuffled) {
            replayer.stateAt(Cursor(stops, stop), reused);
            ASSERT_EQ(reused, expected[stop]) << "stop " << stop << ", gap " << gap;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Replay, ReplayedPuzzle, ::testing::ValuesIn(referencePuzzles()),
                         [](const ::testing::TestParamInfo<PuzzleCase> &param) {
                             std::string name = param.param.name;
                             std::erase(name, '_');
                             return name;
                         });

// Links between changes of one key are found in one table of every rank's keys, which grows and
// closes up its gaps as keys are deleted: many keys set, set again and deleted at random (deletes
// of missing keys among them), on several ranks and maps, replay as the plain rebuild does.
TEST(Replay, KeysSetAndDeletedAtRandomReplayAsThePlainRebuild)
{
    core::Trace trace;
    trace.config.ranks = 5;
    std::mt19937 random(3);
    for (int i = 0; i < 20000; ++i) {
        core::StorageChange change;
        change.rank = int(random() % 5);
        change.map = core::MapKind(random() % core::kMapCount);
        const int a = int(random() % 300);
        change.key = random() % 4 == 0 ? core::Key(a % 7, a) : core::Key(a);
        change.eventCount = 0;
        std::optional<core::Object> object;
        if (random() % 5 < 3) {
            object.emplace();
            object->layer = int(random() % 8);
        }
        trace.changes.append(change, std::move(object));
    }
    const StopPoints stops(trace);
    Replayer replayer(stops, 64);
    for (std::size_t stop = 0; stop <= stops.last(); stop += 1 + stop / 3)
        EXPECT_EQ(replayer.stateAt(Cursor(stops, stop)),
                  replay::stateAt(trace, Cursor(stops, stop)))
            << "stop " << stop;
    EXPECT_EQ(replayer.stateAt(Cursor(stops, stops.last())),
              replay::stateAt(trace, Cursor(stops, stops.last())));
}

} // namespace
} // namespace rankstep::testing
