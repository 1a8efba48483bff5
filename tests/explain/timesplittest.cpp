// SPDX-License-Identifier: MIT
// A laid-out run's time split: communication goes to the axis its ranks differ along.
#include "core/explain/timesplit.h"

#include <gtest/gtest.h>

namespace rankstep::explain {
namespace {

using core::OpKind;
using core::SimTime;

void add(core::Trace &trace, int rank, OpKind op, double steps, std::int32_t link = -1,
         int peer = -1)
{
    core::Event event;
    event.rank = rank;
    event.op = op;
    event.duration = SimTime::fromTicks(std::int64_t(steps * SimTime::kTicksPerStep));
    event.link = link;
    event.setPeer(peer);
    trace.events.push_back(event);
}

// 8 ranks as tensor 2 x pipeline 2 x data 2: rank 1 is rank 0's tensor neighbour, rank 2 its next
// stage, rank 4 its data-parallel peer.
core::Trace laidOut()
{
    core::Trace trace;
    trace.config.ranks = 8;
    trace.config.layout.tensor = 2;
    trace.config.layout.pipeline = 2;
    trace.figures.ranks.resize(8);
    trace.figures.ranks[3].idle = SimTime::steps(8);
    add(trace, 0, OpKind::Forward, 1);
    add(trace, 0, OpKind::AllReduce, 2, 7);
    add(trace, 1, OpKind::AllReduce, 2, 7);
    add(trace, 0, OpKind::PassTo, 0.5, 1, 2);
    add(trace, 2, OpKind::Receive, 1.5, 1, 0);
    add(trace, 0, OpKind::AllReduce, 3, 9);
    add(trace, 4, OpKind::AllReduce, 3, 9);
    add(trace, 3, OpKind::AllGather, 4, 11); // rank 3 and rank 4 differ in all three
    add(trace, 4, OpKind::AllGather, 4, 11);
    return trace;
}

std::size_t at(core::Axis axis)
{
    for (std::size_t i = 0; i < core::kAxes.size(); ++i)
        if (core::kAxes[i] == axis)
            return i;
    return 0;
}

TEST(TimeSplit, GivesEachCommunicationToTheAxisItsRanksDifferAlong)
{
    const auto split = timeSplit(laidOut());
    ASSERT_TRUE(split.has_value());
    EXPECT_EQ(split->ranks, 8);
    EXPECT_EQ(split->compute, SimTime::steps(1));
    EXPECT_EQ(split->axes[at(core::Axis::Tensor)], SimTime::steps(4));
    EXPECT_EQ(split->axes[at(core::Axis::Pipeline)], SimTime::steps(2));
    EXPECT_EQ(split->axes[at(core::Axis::Data)], SimTime::steps(6));
    EXPECT_EQ(split->axes[at(core::Axis::Context)], SimTime());
    EXPECT_EQ(split->other, SimTime::steps(8));
    EXPECT_EQ(split->idle, SimTime::steps(8));
}

TEST(TimeSplit, SaysEachShareAsARanksMean)
{
    const auto split = timeSplit(laidOut());
    ASSERT_TRUE(split.has_value());
    // 29 steps in all over 8 ranks.
    EXPECT_EQ(timeSplitSentence(*split),
              "A rank's mean time: compute 0.125 (3.4%), tensor 0.5 (13.8%), pipeline 0.25 "
              "(6.9%), data 0.75 (20.7%), other communication 1 (27.6%), bubble 1 (27.6%).");
}

// Without pipeline stages (a context ring, experts, tensor slices alone) the ranks' waiting is
// not a pipeline's bubble: the sentence calls it waiting.
TEST(TimeSplit, CallsTheWaitingABubbleOnlyInARunWithPipelineStages)
{
    core::Trace trace = laidOut();
    trace.config.layout.pipeline = 1;
    trace.config.layout.context = 2;
    const auto split = timeSplit(trace);
    ASSERT_TRUE(split.has_value());
    EXPECT_FALSE(split->pipelined);
    const std::string sentence = timeSplitSentence(*split);
    EXPECT_NE(sentence.find(", waiting 1 ("), std::string::npos) << sentence;
    EXPECT_EQ(sentence.find("bubble"), std::string::npos) << sentence;
    EXPECT_TRUE(timeSplit(laidOut())->pipelined);
}

TEST(TimeSplit, LeavesAPlainRunToItsRanksFigures)
{
    core::Trace trace = laidOut();
    trace.config.layout = {};
    EXPECT_FALSE(timeSplit(trace).has_value());
}

TEST(TimeSplit, GivesTheExpertsAllToAllsToExpertParallelism)
{
    // 4 ranks, 2 experts: ranks 0 and 1 are one expert group (data-parallel neighbours).
    core::Trace trace;
    trace.config.ranks = 4;
    trace.config.layout.expert = 2;
    trace.figures.ranks.resize(4);
    add(trace, 0, OpKind::AllToAll, 2, 5);
    add(trace, 1, OpKind::AllToAll, 2, 5);
    add(trace, 0, OpKind::AllReduce, 1, 6); // the dense layer's gradient stays data's
    add(trace, 2, OpKind::AllReduce, 1, 6);
    const auto split = timeSplit(trace);
    ASSERT_TRUE(split.has_value());
    EXPECT_EQ(split->axes[at(core::Axis::Expert)], SimTime::steps(4));
    EXPECT_EQ(split->axes[at(core::Axis::Data)], SimTime::steps(2));
}

} // namespace
} // namespace rankstep::explain
