// SPDX-License-Identifier: MIT
// The scheduler is deterministic: the same program gives the same trace, field by field.
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

class Determinism : public ::testing::TestWithParam<PuzzleCase>
{};

// Every field of two records, event by event, change by change and slice by slice.
void expectSameRecord(const core::Trace &first, const core::Trace &second)
{
    ASSERT_EQ(first.status, core::RunStatus::Ok);
    ASSERT_FALSE(first.events.empty());

    ASSERT_EQ(first.events.size(), second.events.size());
    for (std::size_t i = 0; i < first.events.size(); ++i) {
        EXPECT_TRUE(sameEvent(first.events[i], second.events[i])) << "event " << i;
    }

    ASSERT_EQ(first.changes.size(), second.changes.size());
    for (std::size_t i = 0; i < first.changes.size(); ++i) {
        const core::StorageChange &a = first.changes[i];
        const core::StorageChange &b = second.changes[i];
        EXPECT_TRUE(a.rank == b.rank && a.map == b.map && a.key == b.key &&
                    core::sameObject(first.changes.object(a), second.changes.object(b)) &&
                    a.line == b.line && a.eventCount == b.eventCount &&
                    a.memoryAfter == b.memoryAfter)
            << "change " << i;
    }

    ASSERT_EQ(first.slices.size(), second.slices.size());
    for (std::size_t i = 0; i < first.slices.size(); ++i) {
        const core::Slice &a = first.slices[i];
        const core::Slice &b = second.slices[i];
        EXPECT_TRUE(a.rank == b.rank && a.eventBegin == b.eventBegin && a.eventEnd == b.eventEnd &&
                    a.changeBegin == b.changeBegin && a.changeEnd == b.changeEnd &&
                    a.end == b.end && first.detail(a) == second.detail(b) && a.line == b.line)
            << "slice " << i;
    }

    ASSERT_EQ(first.warnings.size(), second.warnings.size());
    EXPECT_EQ(first.finalWeights, second.finalWeights);
    EXPECT_EQ(first.figures.timesteps, second.figures.timesteps);
    EXPECT_EQ(first.figures.maxMemory, second.figures.maxMemory);
}

TEST_P(Determinism, TwoRunsGiveIdenticalTraces)
{
    const PuzzleCase &puzzle = GetParam();
    const core::RunConfig config = makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches);
    expectSameRecord(runProgram(config, puzzle.program), runProgram(config, puzzle.program));
}

// Asking the memory of the next ranks' lookups ahead (core/scheduler.cpp) is for runs of many
// ranks; at any size it changes nothing in the record.
core::RunLimits lookingAheadFrom(int ranks)
{
    core::RunLimits limits;
    limits.lookAheadFromRanks = ranks;
    return limits;
}

TEST_P(Determinism, LookingAheadChangesNothing)
{
    const PuzzleCase &puzzle = GetParam();
    const core::RunConfig config = makeConfig(puzzle.ranks, puzzle.layers, puzzle.batches);
    expectSameRecord(runProgram(config, puzzle.program, lookingAheadFrom(1 << 30)),
                     runProgram(config, puzzle.program, lookingAheadFrom(0)));
}

TEST(Determinism, AManyRankRunLooksAheadAndChangesNothing)
{
    // More ranks than the default bound, so the run looks ahead as a large one does.
    const core::RunLimits byDefault;
    const int ranks = byDefault.lookAheadFromRanks + 32;
    const core::RunConfig config = makeConfig(ranks, 4, ranks);
    const core::Trace never = runProgram(config, fsdp, lookingAheadFrom(1 << 30));
    EXPECT_TRUE(never.correct()) << never.check.message;
    expectSameRecord(never, runProgram(config, fsdp, byDefault));
}

INSTANTIATE_TEST_SUITE_P(Reference, Determinism, ::testing::ValuesIn(referencePuzzles()),
                         [](const ::testing::TestParamInfo<PuzzleCase> &param) {
                             std::string name = param.param.name;
                             std::erase(name, '_');
                             return name;
                         });

TEST(Determinism, SameEventNoticesADifferentField)
{
    // Guards the comparison above against comparing nothing.
    core::Event a;
    core::Event b = a;
    EXPECT_TRUE(sameEvent(a, b));
    b.link = 4;
    EXPECT_FALSE(sameEvent(a, b));
    b = a;
    b.batches = {1};
    EXPECT_FALSE(sameEvent(a, b));
    b = a;
    b.start = core::SimTime::fromTicks(1);
    EXPECT_FALSE(sameEvent(a, b));
}

} // namespace
} // namespace rankstep::testing
