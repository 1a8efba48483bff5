// SPDX-License-Identifier: MIT
// The experts' load: tokens per expert from the run's router, the idle time of each expert's ranks.
#include "core/explain/expertload.h"

#include <gtest/gtest.h>

namespace rankstep::explain {
namespace {

using core::SimTime;

// 4 ranks, 2 experts: ranks 0 and 2 hold expert 0, ranks 1 and 3 expert 1 (data % expert).
core::Trace expertRun(int skew)
{
    core::Trace trace;
    trace.config.ranks = 4;
    trace.config.batches = 8;
    trace.config.layout.expert = 2;
    trace.config.cost.routerSkew = skew;
    trace.figures.ranks.resize(4);
    trace.figures.ranks[1].idle = SimTime::steps(4);
    trace.figures.ranks[3].idle = SimTime::steps(2);
    trace.figures.ranks[2].idle = SimTime::steps(1);
    return trace;
}

TEST(ExpertLoad, CountsTheRoutersTokensAndEachExpertsRanksMeanIdleTime)
{
    const auto load = expertLoad(expertRun(2));
    ASSERT_TRUE(load);
    EXPECT_EQ(load->skew, 2);
    ASSERT_EQ(load->experts.size(), 2U);
    // Of every 4 batches the first 3 go to expert 0: 6 of 8.
    EXPECT_EQ(load->experts[0].tokens, 6);
    EXPECT_EQ(load->experts[1].tokens, 2);
    EXPECT_EQ(load->experts[0].ranks, (std::vector<int>{0, 2}));
    EXPECT_EQ(load->experts[1].ranks, (std::vector<int>{1, 3}));
    EXPECT_EQ(load->experts[0].idle, SimTime::fromTicks(SimTime::steps(1).ticks() / 2));
    EXPECT_EQ(load->experts[1].idle, SimTime::steps(3));
    EXPECT_EQ(expertLoadSentence(*load),
              "The router (skew 2) sends expert 0 6 of the 8 tokens, expert 1 2; the ranks of "
              "expert 1 wait 3 steps on average, expert 0's 0.5: the experts with fewer tokens "
              "wait in the all-to-alls for the busiest.");
}

TEST(ExpertLoad, AnEvenRouterSaysSo)
{
    const auto load = expertLoad(expertRun(0));
    ASSERT_TRUE(load);
    EXPECT_EQ(load->experts[0].tokens, 4);
    EXPECT_EQ(load->experts[1].tokens, 4);
    EXPECT_NE(expertLoadSentence(*load).find("sends expert 0 4 of the 8 tokens, expert 1 4: an "
                                             "even load"),
              std::string::npos)
        << expertLoadSentence(*load);
}

TEST(ExpertLoad, ARunWithoutExpertsHasNone)
{
    core::Trace trace = expertRun(0);
    trace.config.layout.expert = 1;
    EXPECT_FALSE(expertLoad(trace));
    trace.config.layout.expert = 3; // 4 ranks do not hold 3 experts each in its data group
    trace.config.ranks = 0;
    EXPECT_FALSE(expertLoad(trace));
}

} // namespace
} // namespace rankstep::explain
