// SPDX-License-Identifier: MIT
// The rank overview's figures: each rank's share of each stretch of the run, and the rows its
// layout folds the ranks into.
#include "rankheat.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

core::Event timed(int rank, core::OpKind op, std::int64_t from, std::int64_t to)
{
    core::Event event;
    event.rank = rank;
    event.op = op;
    event.layer = 0;
    event.start = core::SimTime::fromTicks(from);
    event.duration = core::SimTime::fromTicks(to - from);
    return event;
}

} // namespace

TEST(RankHeat, SharesEachBinBetweenComputeCommunicationAndIdle)
{
    core::Trace trace;
    trace.config.ranks = 3;
    trace.events.push_back(timed(0, core::OpKind::Forward, 0, 1000));
    trace.events.push_back(timed(1, core::OpKind::Backward, 250, 500));
    trace.events.push_back(timed(1, core::OpKind::AllReduce, 500, 1000));
    trace.events.push_back(timed(2, core::OpKind::Receive, 0, 2000));
    const gui::RankHeat heat = gui::rankHeat(trace, 4);
    EXPECT_EQ(heat.end, core::SimTime::fromTicks(2000));
    EXPECT_FLOAT_EQ(heat.busyAt(0, 0), 1.0F);
    EXPECT_FLOAT_EQ(heat.busyAt(0, 1), 1.0F);
    EXPECT_FLOAT_EQ(heat.busyAt(0, 2), 0.0F);
    EXPECT_FLOAT_EQ(heat.busyAt(1, 0), 0.5F); // 250 of the first bin's 500 ticks
    EXPECT_FLOAT_EQ(heat.commAt(1, 0), 0.0F);
    EXPECT_FLOAT_EQ(heat.commAt(1, 1), 1.0F);
    EXPECT_FLOAT_EQ(heat.busyAt(1, 1), 0.0F);
    for (int bin = 0; bin < 4; ++bin)
        EXPECT_FLOAT_EQ(heat.commAt(2, bin), 1.0F) << bin;
    EXPECT_EQ(heat.binOf(core::SimTime::fromTicks(1999)), 3);
    EXPECT_EQ(heat.binOf(core::SimTime::fromTicks(2000)), 3);
    EXPECT_EQ(heat.binStart(2), core::SimTime::fromTicks(1000));
}

TEST(RankHeat, AGroupsRowIsTheMeanOfItsRanks)
{
    core::Trace trace;
    trace.config.ranks = 2;
    trace.events.push_back(timed(0, core::OpKind::Forward, 0, 1000));
    trace.events.push_back(timed(1, core::OpKind::PassTo, 0, 1000));
    const gui::RankHeat heat = gui::rankHeat(trace, 1);
    const gui::RowHeat row = gui::rowHeat(heat, {0, 1});
    EXPECT_FLOAT_EQ(row.busy[0], 0.5F);
    EXPECT_FLOAT_EQ(row.comm[0], 0.5F);
}

TEST(RankHeat, ARunWithoutEventsIsIdle)
{
    core::Trace trace;
    trace.config.ranks = 2;
    const gui::RankHeat heat = gui::rankHeat(trace, 8);
    EXPECT_EQ(heat.end.ticks(), 0);
    EXPECT_EQ(heat.binOf(core::SimTime::fromTicks(5)), 0);
    EXPECT_FLOAT_EQ(heat.busyAt(1, 7), 0.0F);
}

TEST(OverviewRows, TheLlamaLayoutFoldsIntoSixteenStagesThatOpenIntoReplicasAndRanks)
{
    const core::RankLayout layout(16384, {.tensor = 8, .pipeline = 16});
    const std::vector<gui::OverviewRow> folded = gui::overviewRows(layout, {});
    ASSERT_EQ(folded.size(), 16U);
    for (int stage = 0; stage < 16; ++stage) {
        const gui::OverviewRow &row = folded[std::size_t(stage)];
        EXPECT_EQ(row.kind, gui::RowKind::Stage);
        ASSERT_EQ(row.ranks.size(), 1024U);
        EXPECT_TRUE(std::all_of(row.ranks.begin(), row.ranks.end(),
                                [&](int rank) { return layout.coords(rank).pipeline == stage; }));
    }
    std::set<std::int64_t> open{folded[3].key()};
    const std::vector<gui::OverviewRow> stage = gui::overviewRows(layout, open);
    ASSERT_EQ(stage.size(), 16U + 128U);
    EXPECT_TRUE(stage[3].open);
    const gui::OverviewRow &replica = stage[4 + 5];
    EXPECT_EQ(replica.kind, gui::RowKind::Replica);
    EXPECT_EQ(replica.depth, 1);
    ASSERT_EQ(replica.ranks.size(), 8U);
    EXPECT_EQ(replica.ranks, layout.group(replica.ranks.front(), core::Axis::Tensor));
    EXPECT_EQ(layout.coords(replica.ranks.front()).pipeline, 3);
    EXPECT_EQ(layout.coords(replica.ranks.front()).data, 5);
    EXPECT_EQ(stage[4 + 128].kind, gui::RowKind::Stage); // stage 4 follows stage 3's replicas
    open.insert(replica.key());
    const std::vector<gui::OverviewRow> ranks = gui::overviewRows(layout, open);
    ASSERT_EQ(ranks.size(), 16U + 128U + 8U);
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(ranks[std::size_t(10 + i)].kind, gui::RowKind::Rank);
        EXPECT_EQ(ranks[std::size_t(10 + i)].depth, 2);
        EXPECT_EQ(ranks[std::size_t(10 + i)].ranks.front(), replica.ranks[std::size_t(i)]);
    }
}

TEST(OverviewRows, AFewRanksShowWholeAndManyDataParallelRanksFoldIntoBlocks)
{
    EXPECT_EQ(gui::overviewRows(core::RankLayout(32, {.tensor = 2}), {}).size(), 32U);
    const std::vector<gui::OverviewRow> blocks = gui::overviewRows(core::RankLayout(100, {}), {});
    ASSERT_EQ(blocks.size(), 2U);
    EXPECT_EQ(blocks[0].kind, gui::RowKind::Block);
    EXPECT_EQ(blocks[0].ranks.size(), 64U);
    EXPECT_EQ(blocks[1].ranks.front(), 64);
    EXPECT_EQ(blocks[1].ranks.back(), 99);
    // Tensor parallel without stages: one row per replica.
    const std::vector<gui::OverviewRow> replicas =
        gui::overviewRows(core::RankLayout(64, {.tensor = 8}), {});
    ASSERT_EQ(replicas.size(), 8U);
    EXPECT_EQ(replicas[1].kind, gui::RowKind::Replica);
    EXPECT_EQ(replicas[1].ranks.front(), 8);
}

TEST(OverviewRows, ARankChosenComesWithItsTensorAndPipelineGroups)
{
    const core::RankLayout layout(16384, {.tensor = 8, .pipeline = 16});
    const std::vector<int> around = gui::ranksAround(layout, 1000, 24);
    EXPECT_EQ(around.size(), 8U + 16U - 1U);
    EXPECT_TRUE(std::is_sorted(around.begin(), around.end()));
    for (int rank : layout.group(1000, core::Axis::Tensor))
        EXPECT_TRUE(std::binary_search(around.begin(), around.end(), rank)) << rank;
    for (int rank : layout.group(1000, core::Axis::Pipeline))
        EXPECT_TRUE(std::binary_search(around.begin(), around.end(), rank)) << rank;
    const std::vector<int> few = gui::ranksAround(layout, 1000, 5);
    EXPECT_EQ(few.size(), 5U);
    EXPECT_TRUE(std::binary_search(few.begin(), few.end(), 1000));
    EXPECT_TRUE(gui::ranksAround(layout, 16384, 24).empty());
}
