// SPDX-License-Identifier: MIT
// `group=` on collectives (docs/simulation.md, "Beyond the notebook").
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::IndexSet;
using core::Object;
using core::OpKind;

// Four ranks at clocks 5, 1, 0 and 2.
class GroupTest : public ::testing::Test
{
protected:
    GroupTest() : m_engine(makeConfig(4, 2, 8))
    {
        const int clocks[] = {5, 1, 0, 2};
        for (int r = 0; r < 4; ++r) {
            if (clocks[r] > 0) {
                EXPECT_TRUE(m_engine.forward(
                    CallSite{r, 1}, 0, activation(0, IndexSet::range(0, clocks[r])), weight(0)));
            }
        }
    }

    Object resultOf(int rank)
    {
        core::Payload payload = m_engine.takeResult(rank);
        return std::holds_alternative<Object>(payload) ? std::get<Object>(payload) : Object{};
    }

    core::Engine m_engine;
};

TEST_F(GroupTest, ClockIsTheLatestAmongTheGroupOnly)
{
    ASSERT_TRUE(m_engine.allreduce(CallSite{1, 10}, weightGrad(0, {1}), 0, {1, 3}));
    EXPECT_FALSE(m_engine.resultReady(1));
    ASSERT_TRUE(m_engine.allreduce(CallSite{3, 11}, weightGrad(0, {3}), 0, {1, 3}));
    ASSERT_TRUE(m_engine.resultReady(1));
    ASSERT_TRUE(m_engine.resultReady(3));
    // Rank 3's clock 2, not rank 0's 5.
    const auto &events = m_engine.trace().events;
    for (std::size_t i = events.size() - 2; i < events.size(); ++i) {
        EXPECT_EQ(events[i].op, OpKind::AllReduce);
        EXPECT_EQ(events[i].start.toString(), "2");
    }
    EXPECT_EQ(m_engine.clock(1).toString(), "2.3");
    EXPECT_EQ(m_engine.clock(3).toString(), "2.3");
    EXPECT_EQ(m_engine.clock(0).toString(), "5");
    EXPECT_EQ(m_engine.clock(2).toString(), "0");
    EXPECT_EQ(resultOf(1), weightGrad(0, {1, 3}));
}

TEST_F(GroupTest, ScatterreduceShardsOverTheGroupByPosition)
{
    ASSERT_TRUE(m_engine.scatterreduce(CallSite{3, 10}, weightGrad(1, {3}), 1, {1, 3}));
    ASSERT_TRUE(m_engine.scatterreduce(CallSite{1, 11}, weightGrad(1, {1}), 1, {1, 3}));
    ASSERT_TRUE(m_engine.resultReady(1));
    // Rank 1 is first in the group, rank 3 second; the split has the group's size.
    EXPECT_EQ(resultOf(1), weightGrad(1, {1, 3}, {0}, 2));
    EXPECT_EQ(resultOf(3), weightGrad(1, {1, 3}, {1}, 2));
}

TEST_F(GroupTest, DisjointGroupsProceedIndependently)
{
    // Group {0, 1} allreduces layer 0 while group {2, 3} allgathers layer 1: no mismatch.
    ASSERT_TRUE(m_engine.allreduce(CallSite{0, 10}, weightGrad(0, {0}), 0, {0, 1}));
    ASSERT_TRUE(m_engine.allgather(CallSite{2, 11}, weight(1, {0}, 2), 1, {2, 3}));
    ASSERT_TRUE(m_engine.allreduce(CallSite{1, 12}, weightGrad(0, {1}), 0, {0, 1}));
    EXPECT_TRUE(m_engine.resultReady(0));
    EXPECT_FALSE(m_engine.resultReady(2));
    ASSERT_TRUE(m_engine.allgather(CallSite{3, 13}, weight(1, {1}, 2), 1, {2, 3}));
    EXPECT_TRUE(m_engine.resultReady(2));
    EXPECT_FALSE(m_engine.fatalError());
    EXPECT_EQ(m_engine.clock(0).toString(), "5.3");
    EXPECT_EQ(m_engine.clock(1).toString(), "5.3");
    EXPECT_EQ(m_engine.clock(2).toString(), "2.3");
    EXPECT_EQ(m_engine.clock(3).toString(), "2.3");
    EXPECT_EQ(resultOf(3), weight(1, {0, 1}, 2));
}

TEST_F(GroupTest, GroupCollectivesDoNotShiftTheWholeRunsCollectives)
{
    ASSERT_TRUE(m_engine.allreduce(CallSite{0, 10}, weightGrad(0, {0}), 0, {0, 1}));
    ASSERT_TRUE(m_engine.allreduce(CallSite{1, 10}, weightGrad(0, {1}), 0, {0, 1}));
    for (int r = 0; r < 4; ++r) {
        ASSERT_TRUE(m_engine.allreduce(CallSite{r, 20}, weightGrad(1, {r}), 1));
    }
    EXPECT_FALSE(m_engine.fatalError());
    EXPECT_EQ(resultOf(2), weightGrad(1, {0, 1, 2, 3}));
    EXPECT_EQ(m_engine.clock(2).toString(), "5.6");
}

TEST_F(GroupTest, AGroupNamingEveryRankIsTheWholeRunsGroup)
{
    // Ranks 0 and 1 name all four ranks (out of order), ranks 2 and 3 name none: one collective.
    ASSERT_TRUE(m_engine.allreduce(CallSite{0, 10}, weightGrad(0, {0}), 0, {3, 2, 1, 0}));
    ASSERT_TRUE(m_engine.allreduce(CallSite{2, 11}, weightGrad(0, {2}), 0));
    ASSERT_TRUE(m_engine.allreduce(CallSite{1, 12}, weightGrad(0, {1}), 0, {0, 1, 2, 3}));
    EXPECT_FALSE(m_engine.resultReady(0));
    ASSERT_TRUE(m_engine.allreduce(CallSite{3, 13}, weightGrad(0, {3}), 0));
    EXPECT_FALSE(m_engine.fatalError());
    for (int r = 0; r < 4; ++r)
        EXPECT_EQ(resultOf(r), weightGrad(0, {0, 1, 2, 3})) << "rank " << r;
}

TEST_F(GroupTest, ARankOutsideTheGroupCannotCallItsCollective)
{
    auto status = m_engine.allreduce(CallSite{0, 30}, weightGrad(0, {0}), 0, {1, 2});
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 0, 30,
                             "allreduce(layer 0): rank 0 calls a collective of a group it is not "
                             "in (ranks 1 and 2)"));
    EXPECT_FALSE(m_engine.resultReady(0));
}

TEST_F(GroupTest, AGroupCannotNameARankTheRunDoesNotHave)
{
    auto status = m_engine.allgather(CallSite{1, 31}, weight(0, {0}, 2), 0, {1, 7});
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 1, 31, "the group names rank 7"));
}

TEST_F(GroupTest, ARankThatTakesTurnsBetweenTwoGroupsMeetsEachGroupsNextCollective)
{
    // Rank 0 is in {0, 1} and {0, 2}; each group's second collective is its second, whichever
    // group rank 0 joined in between (the count of the group it left is kept, not restarted).
    for (int round = 0; round < 2; ++round) {
        ASSERT_TRUE(m_engine.allreduce(CallSite{0, 10}, weightGrad(0, {0}), 0, {0, 1}));
        ASSERT_TRUE(m_engine.allreduce(CallSite{1, 11}, weightGrad(0, {1}), 0, {0, 1}));
        ASSERT_TRUE(m_engine.resultReady(0)) << "round " << round;
        EXPECT_EQ(resultOf(0), weightGrad(0, {0, 1}));
        EXPECT_EQ(resultOf(1), weightGrad(0, {0, 1}));
        ASSERT_TRUE(m_engine.allreduce(CallSite{0, 12}, weightGrad(1, {0}), 1, {0, 2}));
        ASSERT_TRUE(m_engine.allreduce(CallSite{2, 13}, weightGrad(1, {2}), 1, {2, 0}));
        ASSERT_TRUE(m_engine.resultReady(2)) << "round " << round;
        EXPECT_EQ(resultOf(0), weightGrad(1, {0, 2}));
        EXPECT_EQ(resultOf(2), weightGrad(1, {0, 2}));
    }
    EXPECT_FALSE(m_engine.fatalError());
}

TEST_F(GroupTest, AGroupAnotherRankJoinedIsStillCheckedForThisRank)
{
    // Rank 0 joined {0, 1}: rank 2 naming the same group is still not in it.
    ASSERT_TRUE(m_engine.allreduce(CallSite{0, 10}, weightGrad(0, {0}), 0, {0, 1}));
    auto status = m_engine.allreduce(CallSite{2, 30}, weightGrad(0, {2}), 0, {0, 1});
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 2, 30,
                             "allreduce(layer 0): rank 2 calls a collective of a group it is not "
                             "in (ranks 0 and 1)"));
}

// Pairs {0, 1} and {2, 3} each allreduce their own gradients in a group.
core::RankTask pairwiseAllreduce(core::Model &m)
{
    const int partner = m.rank ^ 1;
    const std::vector<int> pair = {std::min(m.rank, partner), std::max(m.rank, partner)};
    // Built before the co_await: GCC 12 rejects a braced list inside a co_await expression.
    const Object grad = m.fakeGrad(m.rank / 2, {m.rank});
    const IndexSet expected = IndexSet::fromVector(pair);
    const Object sum = co_await m.allreduce(grad, m.rank / 2, pair);
    EXPECT_EQ(sum.batches, expected);
}

TEST(GroupRun, PairsOfRanksReduceWithinTheirPair)
{
    const core::Trace trace = runProgram(makeConfig(4, 2, 4), pairwiseAllreduce);
    ASSERT_EQ(trace.status, core::RunStatus::Ok) << trace.error->message;
    ASSERT_EQ(trace.events.size(), 4U);
    EXPECT_EQ(trace.events[0].link, trace.events[1].link);
    EXPECT_EQ(trace.events[2].link, trace.events[3].link);
    EXPECT_NE(trace.events[0].link, trace.events[2].link);
}

} // namespace
} // namespace rankstep::testing
