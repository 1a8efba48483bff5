// SPDX-License-Identifier: MIT
// The published figures of docs/simulation.md, reproduced by the reference solutions, and the rules
// computeFigures follows (Timesteps, tie-breaking of the maximum memory).
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>

namespace rankstep::testing {
namespace {

using core::Event;
using core::OpKind;
using core::SimTime;

// Copied from docs/simulation.md, "The published figures". The end time is not in the table: every
// reference solution ends each rank with an update (0.5), so it is Timesteps + 0.5.
struct Published {
    const char *puzzle;
    int ranks, layers, batches;
    const char *timesteps;
    const char *endTime;
    std::int64_t maxMemory;
    int maxMemoryRank;
    const char *maxMemoryTime;
};

void PrintTo(const Published &row, std::ostream *out)
{
    *out << row.puzzle;
}

const Published kPublished[] = {
    {"basic", 1, 2, 4, "16.5", "17", 2621440, 0, "8"},
    {"grad_accum", 1, 2, 4, "16.5", "17", 1966080, 0, "6"},
    {"ddp", 4, 2, 4, "5.1", "5.6", 1835008, 0, "4"},
    {"wsdp", 4, 6, 4, "19.9", "20.4", 2752512, 0, "14.6"},
    {"fsdp", 4, 6, 4, "19.9", "20.4", 2359296, 0, "9.1"},
    {"pipeline", 4, 8, 4, "66.9", "67.4", 3145728, 0, "58.4"},
    {"gpipe", 4, 8, 4, "33.3", "33.8", 4194304, 1, "30.4"},
    {"pipeline_fsdp", 16, 4, 4, "15.5", "16", 966656, 0, "13.7"},
};

const PuzzleCase &puzzleNamed(const std::string &name)
{
    const auto &cases = referencePuzzles();
    auto it = std::find_if(cases.begin(), cases.end(),
                           [&](const PuzzleCase &c) { return c.name == name; });
    if (it == cases.end())
        throw std::runtime_error("no reference puzzle named " + name);
    return *it;
}

class PublishedFigures : public ::testing::TestWithParam<Published>
{};

TEST_P(PublishedFigures, ReferenceSolutionPrintsTheNotebooksNumbers)
{
    const Published &row = GetParam();
    const PuzzleCase &puzzle = puzzleNamed(row.puzzle);
    ASSERT_EQ(puzzle.ranks, row.ranks);
    ASSERT_EQ(puzzle.layers, row.layers);
    ASSERT_EQ(puzzle.batches, row.batches);

    const core::Trace trace =
        runProgram(makeConfig(row.ranks, row.layers, row.batches), puzzle.program);

    ASSERT_EQ(trace.status, core::RunStatus::Ok) << (trace.error ? trace.error->message : "");
    EXPECT_FALSE(trace.error.has_value());
    EXPECT_TRUE(trace.check.passed) << trace.check.message;
    EXPECT_EQ(trace.check.message, "Correct!");
    EXPECT_TRUE(trace.correct());
    const core::Figures &figures = trace.figures;
    ASSERT_TRUE(figures.hasEvents);
    EXPECT_EQ(figures.timesteps.toString(), row.timesteps);
    EXPECT_EQ(figures.endTime.toString(), row.endTime);
    EXPECT_EQ(figures.maxMemory, row.maxMemory);
    EXPECT_EQ(figures.maxMemoryRank, row.maxMemoryRank);
    EXPECT_EQ(figures.maxMemoryTime.toString(), row.maxMemoryTime);
    EXPECT_EQ(figures.ranks.size(), std::size_t(row.ranks));
}

INSTANTIATE_TEST_SUITE_P(Reference, PublishedFigures, ::testing::ValuesIn(kPublished),
                         [](const ::testing::TestParamInfo<Published> &param) {
                             std::string name = param.param.puzzle;
                             name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
                             return name;
                         });

TEST(PublishedFigures, CoverEveryReferencePuzzle)
{
    EXPECT_EQ(referencePuzzles().size(), std::size(kPublished));
}

Event event(int rank, const char *start, const char *duration, std::int64_t memory)
{
    Event e;
    e.rank = rank;
    e.op = OpKind::Forward;
    e.start = *SimTime::parse(start);
    e.duration = *SimTime::parse(duration);
    e.memory = memory;
    return e;
}

TEST(ComputeFigures, MaximumMemoryTieGoesToTheLowestRank)
{
    // Rank 1 reaches 700 first in the trace; rank 0 reaches it later, at a later time.
    const auto figures = core::computeFigures(
        {event(1, "0", "1", 700), event(0, "0", "2", 100), event(0, "2", "1", 700)}, 2);
    EXPECT_EQ(figures.maxMemory, 700);
    EXPECT_EQ(figures.maxMemoryRank, 0);
    EXPECT_EQ(figures.maxMemoryTime.toString(), "2");
}

TEST(ComputeFigures, MaximumMemoryTieOnOneRankGoesToTheEarliestEvent)
{
    const auto figures =
        core::computeFigures({event(2, "0", "1.5", 300), event(2, "1.5", "1", 900),
                              event(2, "2.5", "0.3", 900), event(1, "0", "4", 899)},
                             3);
    EXPECT_EQ(figures.maxMemory, 900);
    EXPECT_EQ(figures.maxMemoryRank, 2);
    EXPECT_EQ(figures.maxMemoryTime.toString(), "1.5");
}

TEST(ComputeFigures, TimestepsIsTheLatestStartAmongTheRanksLastEvents)
{
    // Rank 0 ends with a short update at 4; rank 1 ends with a long event that starts at 2 and
    // is the trace's last event. Timesteps = max(4, 2) = 4; the end time is 2 + 10 = 12.
    const auto figures = core::computeFigures({event(0, "0", "4", 10), event(0, "4", "0.5", 10),
                                               event(1, "0", "2", 10), event(1, "2", "10", 10)},
                                              2);
    EXPECT_EQ(figures.timesteps.toString(), "4");
    EXPECT_EQ(figures.endTime.toString(), "12");
}

TEST(ComputeFigures, TimestepsTakesEachRanksLastEventNotItsLatestStart)
{
    // docs/simulation.md: "the largest start time of any rank's last event". Rank 0's last event
    // starts at 3, after one that started at 7 (not a schedule the engine produces, but the
    // definition decides): Timesteps = max(3, rank 1's 5) = 5, not 7.
    const auto figures = core::computeFigures(
        {event(0, "7", "1", 1), event(0, "3", "1", 1), event(1, "5", "0.5", 1)}, 2);
    EXPECT_EQ(figures.timesteps.toString(), "5");
    EXPECT_EQ(figures.endTime.toString(), "8");
}

TEST(ComputeFigures, SplitsEachRanksTimeIntoComputeCommunicationAndIdle)
{
    Event allreduce = event(1, "3", "0.3", 0);
    allreduce.op = OpKind::AllReduce;
    const auto figures =
        core::computeFigures({event(0, "0", "2", 0), event(1, "0", "1", 0), allreduce}, 2);
    ASSERT_EQ(figures.ranks.size(), 2U);
    EXPECT_EQ(figures.ranks[0].compute.toString(), "2");
    EXPECT_EQ(figures.ranks[0].communication.toString(), "0");
    EXPECT_EQ(figures.ranks[0].idle.toString(), "1.3");
    EXPECT_EQ(figures.ranks[1].compute.toString(), "1");
    EXPECT_EQ(figures.ranks[1].communication.toString(), "0.3");
    EXPECT_EQ(figures.ranks[1].idle.toString(), "2");
}

TEST(ComputeFigures, NoEventsGiveZeroFigures)
{
    const auto figures = core::computeFigures({}, 3);
    EXPECT_FALSE(figures.hasEvents);
    EXPECT_EQ(figures.timesteps.ticks(), 0);
    EXPECT_EQ(figures.maxMemory, 0);
    EXPECT_EQ(figures.ranks.size(), 3U);
}

} // namespace
} // namespace rankstep::testing
