// SPDX-License-Identifier: MIT
// Collectives and point-to-point messages (docs/simulation.md, "Communication"): results and
// clocks.
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

#include <memory>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::Engine;
using core::IndexSet;
using core::Object;
using core::OpKind;

Object resultOf(Engine &engine, int rank)
{
    core::Payload payload = engine.takeResult(rank);
    EXPECT_TRUE(std::holds_alternative<Object>(payload)) << "rank " << rank << " got no object";
    return std::holds_alternative<Object>(payload) ? std::get<Object>(payload) : Object{};
}

// Three ranks whose clocks are 0, 1 and 2: rank r ran one forward over r batches.
class CollectiveTest : public ::testing::Test
{
protected:
    CollectiveTest() : m_engine(makeConfig(3, 2, 3))
    {
        for (int r = 1; r < 3; ++r) {
            EXPECT_TRUE(m_engine.forward(CallSite{r, 1}, 0, activation(0, IndexSet::range(0, r)),
                                         weight(0)));
        }
    }

    // Every rank calls start(CallSite{r, 10 + r}, value(r)); only the last call completes it.
    template <typename Start, typename Value>
    void callOnEveryRank(Start start, Value value)
    {
        const std::size_t before = m_engine.trace().events.size();
        for (int r = 0; r < 3; ++r) {
            ASSERT_TRUE(start(CallSite{r, 10 + r}, value(r)));
            for (int other = 0; other <= r; ++other) {
                EXPECT_EQ(m_engine.resultReady(other), r == 2) << "rank " << other;
            }
        }
        ASSERT_EQ(m_engine.trace().events.size(), before + 3);
    }

    // Each rank's collective event starts at 2 (the latest clock at the call) and lasts 0.3.
    void expectEventsAtTheLatestClock(OpKind op, int layer)
    {
        const auto &events = m_engine.trace().events;
        for (std::size_t i = events.size() - 3; i < events.size(); ++i) {
            EXPECT_EQ(events[i].op, op);
            EXPECT_EQ(events[i].layer, layer);
            EXPECT_EQ(events[i].start.toString(), "2");
            EXPECT_EQ(events[i].duration.toString(), "0.3");
            EXPECT_EQ(events[i].line, 10 + events[i].rank);
            EXPECT_EQ(events[i].link, events.back().link);
        }
        for (int r = 0; r < 3; ++r) {
            EXPECT_EQ(m_engine.clock(r).toString(), "2.3");
        }
    }

    Engine m_engine;
};

TEST_F(CollectiveTest, AllreduceSumsEveryRanksGradient)
{
    callOnEveryRank([&](CallSite at, Object v) { return m_engine.allreduce(at, v, 1); },
                    [](int r) { return weightGrad(1, {r}); });
    expectEventsAtTheLatestClock(OpKind::AllReduce, 1);
    for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(resultOf(m_engine, r), weightGrad(1, {0, 1, 2}));
    }
}

TEST_F(CollectiveTest, AllgatherCombinesEveryRanksShard)
{
    callOnEveryRank([&](CallSite at, Object v) { return m_engine.allgather(at, v, 0); },
                    [](int r) { return weight(0, {r}, 3); });
    expectEventsAtTheLatestClock(OpKind::AllGather, 0);
    for (int r = 0; r < 3; ++r) {
        const Object gathered = resultOf(m_engine, r);
        EXPECT_EQ(gathered, weight(0, {0, 1, 2}, 3));
        EXPECT_TRUE(gathered.isComplete());
    }
}

TEST_F(CollectiveTest, ScatterreduceGivesEachRankItsShardOfTheSum)
{
    callOnEveryRank([&](CallSite at, Object v) { return m_engine.scatterreduce(at, v, 1); },
                    [](int r) { return weightGrad(1, {r}); });
    expectEventsAtTheLatestClock(OpKind::ScatterReduce, 1);
    for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(resultOf(m_engine, r), weightGrad(1, {0, 1, 2}, {r}, 3));
    }
}

TEST_F(CollectiveTest, AllreduceRefusesSomethingOtherThanAWeightGradient)
{
    auto status = m_engine.allreduce(CallSite{1, 19}, weight(0), 0);
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 1, 19, "this collective sums weight gradients"));
}

// Two ranks: rank 0 at clock `senderClock`, rank 1 at `receiverClock` (whole steps).
std::unique_ptr<Engine> twoRanksAt(int senderClock, int receiverClock)
{
    auto engine = std::make_unique<Engine>(makeConfig(2, 2, 4));
    const int clocks[] = {senderClock, receiverClock};
    for (int r = 0; r < 2; ++r) {
        if (clocks[r] > 0) {
            EXPECT_TRUE(engine->forward(CallSite{r, 1}, 0,
                                        activation(0, IndexSet::range(0, clocks[r])), weight(0)));
        }
    }
    return engine;
}

TEST(PassTo, LogsAtTheSendersClockAndNeverBlocks)
{
    auto owner = twoRanksAt(2, 0);
    Engine &engine = *owner;
    ASSERT_TRUE(engine.passTo(CallSite{0, 5}, 1, activation(1, {3})));
    EXPECT_TRUE(engine.resultReady(0));
    const core::Event &sent = engine.trace().events.back();
    EXPECT_EQ(sent.op, OpKind::PassTo);
    EXPECT_EQ(sent.start.toString(), "2");
    EXPECT_EQ(sent.duration.toString(), "0.2");
    EXPECT_EQ(sent.peer, 1);
    EXPECT_EQ(sent.layer, 1);
    EXPECT_EQ(engine.clock(0).toString(), "2.2");
}

TEST(Receive, WaitsUntilTheMessageClockWhenTheSenderIsLater)
{
    auto owner = twoRanksAt(2, 0);
    Engine &engine = *owner;
    ASSERT_TRUE(engine.passTo(CallSite{0, 5}, 1, activation(1, {3})));
    ASSERT_TRUE(engine.receive(CallSite{1, 6}));
    ASSERT_TRUE(engine.resultReady(1));
    const core::Event &received = engine.trace().events.back();
    EXPECT_EQ(received.op, OpKind::Receive);
    EXPECT_EQ(received.start.toString(), "2.2");
    EXPECT_EQ(received.duration.toString(), "0.2");
    EXPECT_EQ(received.peer, 0);
    EXPECT_EQ(received.line, 6);
    EXPECT_EQ(received.link, engine.trace().events[engine.trace().events.size() - 2].link);
    EXPECT_EQ(engine.clock(1).toString(), "2.4");
    EXPECT_EQ(resultOf(engine, 1), activation(1, {3}));
}

TEST(Receive, KeepsItsOwnClockWhenItIsLater)
{
    auto owner = twoRanksAt(0, 3);
    Engine &engine = *owner;
    ASSERT_TRUE(engine.passTo(CallSite{0, 5}, 1, activation(1, {0})));
    ASSERT_TRUE(engine.receive(CallSite{1, 6}));
    EXPECT_EQ(engine.trace().events.back().start.toString(), "3");
    EXPECT_EQ(engine.clock(1).toString(), "3.2");
}

TEST(Receive, PostedBeforeTheMessageCompletesWhenItArrives)
{
    auto owner = twoRanksAt(1, 0);
    Engine &engine = *owner;
    ASSERT_TRUE(engine.receive(CallSite{1, 6}));
    EXPECT_FALSE(engine.resultReady(1));
    ASSERT_TRUE(engine.passTo(CallSite{0, 5}, 1, activation(1, {0})));
    ASSERT_TRUE(engine.resultReady(1));
    EXPECT_EQ(engine.trace().events.back().start.toString(), "1.2");
    EXPECT_EQ(engine.clock(1).toString(), "1.4");
}

TEST(Receive, FromASourceTakesThatRanksOldestWhileAnOlderMessageWaits)
{
    Engine engine(makeConfig(3, 4, 4));
    ASSERT_TRUE(engine.passTo(CallSite{0, 1}, 2, activation(1, {0}))); // clock 0.2
    ASSERT_TRUE(engine.passTo(CallSite{1, 2}, 2, activation(2, {1}))); // clock 0.2
    ASSERT_TRUE(engine.passTo(CallSite{1, 3}, 2, activation(3, {1}))); // clock 0.4

    ASSERT_TRUE(engine.receive(CallSite{2, 4}, 1));
    EXPECT_EQ(resultOf(engine, 2), activation(2, {1}));
    EXPECT_EQ(engine.trace().events.back().peer, 1);
    EXPECT_EQ(engine.clock(2).toString(), "0.4");

    ASSERT_TRUE(engine.receive(CallSite{2, 5}));
    EXPECT_EQ(resultOf(engine, 2), activation(1, {0}));
    EXPECT_EQ(engine.clock(2).toString(), "0.6");

    ASSERT_TRUE(engine.receive(CallSite{2, 6}));
    EXPECT_EQ(resultOf(engine, 2), activation(3, {1}));
    EXPECT_EQ(engine.trace().events.back().start.toString(), "0.6");
    EXPECT_EQ(engine.clock(2).toString(), "0.8");
}

TEST(PassTo, RejectsARankThatDoesNotExist)
{
    Engine engine(makeConfig(2, 2, 4));
    auto status = engine.passTo(CallSite{1, 7}, 2, activation(0, {0}));
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 1, 7, "pass_to: rank 2 does not exist"));
    EXPECT_TRUE(engine.trace().events.empty());
}

core::RankTask sendThreeThenFinish(core::Model &m)
{
    if (m.rank == 0) {
        for (int i = 0; i < 3; ++i)
            co_await m.passTo(1, m.fakeGrad(i, {}));
    } else {
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ((co_await m.receive(0)).layer, i);
        }
    }
}

TEST(PassTo, LetsTheSenderRunToTheEndInOneSlice)
{
    const core::Trace trace = runProgram(makeConfig(2, 3, 4), sendThreeThenFinish);
    ASSERT_EQ(trace.status, core::RunStatus::Ok) << trace.error->message;
    ASSERT_GE(trace.slices.size(), 1U);
    EXPECT_EQ(trace.slices[0].rank, 0);
    EXPECT_EQ(trace.slices[0].end, core::SliceEnd::Finished);
    EXPECT_EQ(trace.slices[0].eventEnd - trace.slices[0].eventBegin, 3U);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(trace.events[i].start.ticks(), std::int64_t(i) * 200);
    }
}

} // namespace
} // namespace rankstep::testing
