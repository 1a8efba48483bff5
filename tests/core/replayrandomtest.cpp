// SPDX-License-Identifier: MIT
// The Replayer's links and snapshots against the plain rebuild from nothing: random traces (keys
// set, set again and deleted on several ranks and maps, and a rank with more changes than 16-bit
// links can name) and the reference puzzles' runs, at random positions and moments visited in a
// random order, with few and many snapshots, built on one thread and on several.
#include "core/replay/replayer.h"
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <random>

namespace rankstep::testing {
namespace {

using replay::Cursor;
using replay::Replayer;
using replay::StopPoints;

struct RandomTrace {
    int ranks = 1;
    int changes = 0;
    int keys = 1;                // per rank and map, at most
    unsigned setsInFive = 3;     // of every five changes, the sets; the rest delete
    unsigned firstRankShare = 0; // percent of the changes rank 0 makes beyond its even share
    unsigned seed = 0;
};

core::Trace randomTrace(const RandomTrace &shape)
{
    core::Trace trace;
    trace.config.ranks = shape.ranks;
    std::mt19937 random(shape.seed);
    for (int i = 0; i < shape.changes; ++i) {
        core::StorageChange change;
        change.rank =
            random() % 100 < shape.firstRankShare ? 0 : int(random() % unsigned(shape.ranks));
        change.map = core::MapKind(random() % core::kMapCount);
        const int a = int(random() % unsigned(shape.keys));
        change.key = random() % 4 == 0 ? core::Key(a % 7, a) : core::Key(a);
        change.memoryAfter = i;
        std::optional<core::Object> object;
        if (random() % 5 < shape.setsInFive) {
            object.emplace();
            object->layer = int(random() % 8);
        }
        trace.changes.append(change, std::move(object));
    }
    return trace;
}

// Visits `visits` random stops of `stops` from stop `from` on (after the two ends) with replayers
// of several snapshot gaps and threads: each state equals the plain rebuild's.
void expectPlainStatesAtRandomStops(const StopPoints &stops, int visits, unsigned seed,
                                    std::size_t from = 0)
{
    std::mt19937 random(seed);
    std::vector<std::size_t> visited{stops.last(), 0};
    for (int v = 0; v < visits; ++v)
        visited.push_back(from + random() % (stops.count() - from));
    std::vector<replay::RunState> expected;
    for (const std::size_t stop : visited)
        expected.push_back(replay::stateAt(stops.trace(), Cursor(stops, stop)));
    for (const std::size_t gap : {std::size_t(1), std::size_t(5), Replayer::kMinCheckpointGap})
        for (const unsigned threads : {1U, 2U, 3U}) {
            Replayer replayer(stops, gap, threads);
            for (std::size_t v = 0; v < visited.size(); ++v)
                ASSERT_EQ(replayer.stateAt(Cursor(stops, visited[v])), expected[v])
                    << "stop " << visited[v] << ", gap " << gap << ", threads " << threads;
        }
}

TEST(ReplayAtRandom, RandomTracesReplayAsThePlainRebuild)
{
    const RandomTrace shapes[] = {
        {.ranks = 5, .changes = 20000, .keys = 300, .setsInFive = 3, .seed = 1},
        // Many keys that stay: the snapshots' gap follows the number of entries, not the least.
        {.ranks = 3, .changes = 20000, .keys = 600, .setsInFive = 4, .seed = 2},
        // Few keys set and deleted again and again, deletes of missing keys among them.
        {.ranks = 17, .changes = 20000, .keys = 4, .setsInFive = 2, .seed = 3},
        // One rank makes nearly every change; some ranks make none.
        {.ranks = 40,
         .changes = 5000,
         .keys = 50,
         .setsInFive = 3,
         .firstRankShare = 90,
         .seed = 4},
        {.ranks = 1, .changes = 1, .keys = 1, .setsInFive = 5, .seed = 5},
    };
    for (const RandomTrace &shape : shapes) {
        SCOPED_TRACE(::testing::Message() << "seed " << shape.seed);
        const core::Trace trace = randomTrace(shape);
        const StopPoints stops(trace);
        expectPlainStatesAtRandomStops(stops, 40, shape.seed);
    }
}

// 16-bit links name at most 65,536 changes of a rank: a rank with more has its links and snapshots
// in 32 bits.
TEST(ReplayAtRandom, ARankWithMoreChangesThanSixteenBitsCountReplaysAsThePlainRebuild)
{
    const core::Trace trace = randomTrace({.ranks = 2,
                                           .changes = 70000,
                                           .keys = 40,
                                           .setsInFive = 3,
                                           .firstRankShare = 97,
                                           .seed = 6});
    const StopPoints stops(trace);
    ASSERT_GT(stops.rankChanges(0).size(), 0x10000U);
    expectPlainStatesAtRandomStops(stops, 6, 6);
    // Where the rank's snapshots name changes past the 65,536th.
    expectPlainStatesAtRandomStops(stops, 6, 7, stops.afterChange(stops.rankChanges(0)[0x10000]));
}

class ReplayedPuzzleAtRandom : public ::testing::TestWithParam<PuzzleCase>
{};

// Positions and time cuts (every rank at its own prefix) in a random order, each against the
// plain rebuild, and one rank's state alone.
TEST_P(ReplayedPuzzleAtRandom, RandomCursorsReplayAsThePlainRebuild)
{
    const core::Trace trace = runProgram(
        makeConfig(GetParam().ranks, GetParam().layers, GetParam().batches), GetParam().program);
    const StopPoints stops(trace);
    ASSERT_FALSE(stops.boundaries().empty());
    std::mt19937 random(20261129);
    for (const std::size_t gap : {std::size_t(1), std::size_t(3), Replayer::kMinCheckpointGap})
        for (const unsigned threads : {1U, 2U}) {
            Replayer replayer(stops, gap, threads);
            for (int v = 0; v < 60; ++v) {
                const Cursor cursor =
                    random() % 2 == 0
                        ? Cursor(stops, random() % stops.count())
                        : Cursor::atCut(stops,
                                        stops.boundaries()[random() % stops.boundaries().size()]);
                const replay::RunState expected = replay::stateAt(trace, cursor);
                ASSERT_EQ(replayer.stateAt(cursor), expected)
                    << "visit " << v << ", gap " << gap << ", threads " << threads;
                const int rank = int(random() % unsigned(trace.config.ranks));
                ASSERT_EQ(replayer.rankStateAt(cursor, rank), expected.ranks[std::size_t(rank)])
                    << "visit " << v << ", rank " << rank;
            }
        }
}

INSTANTIATE_TEST_SUITE_P(Replay, ReplayedPuzzleAtRandom, ::testing::ValuesIn(referencePuzzles()),
                         [](const ::testing::TestParamInfo<PuzzleCase> &param) {
                             std::string name = param.param.name;
                             std::erase(name, '_');
                             return name;
                         });

} // namespace
} // namespace rankstep::testing
