// SPDX-License-Identifier: MIT
// The checks of update, load_weights, get_activation and del (docs/simulation.md).
#include "referencepuzzles.h"
#include "testsupport.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::IndexSet;
using core::MapKind;
using core::Model;
using core::Object;
using core::RankTask;

const IndexSet kAllBatches = IndexSet::range(0, 4);

using UpdateChecks = EngineTest;

TEST_F(UpdateChecks, RejectAWeightGradientOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 1, weightGrad(0, kAllBatches), weight(1), optState(1));
        },
        41,
        "update(layer 1): the weight gradient belongs to layer 0, but this update is for layer 1"));
}

TEST_F(UpdateChecks, RejectAWeightOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 1, weightGrad(1, kAllBatches), weight(2), optState(1));
        },
        42, "update(layer 1): the weight belongs to layer 2, but this update is for layer 1"));
}

TEST_F(UpdateChecks, RejectAnOptimizerStateOfAnotherLayer)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 1, weightGrad(1, kAllBatches), weight(1), optState(0));
        },
        43,
        "update(layer 1): the optimizer state belongs to layer 0, but this update is for layer 1"));
}

// The walk-through's learner: rank 1 holds gradients for batches 2 and 3 only.
int g_updateLine = 0;

RankTask updateWithBatchesTwoAndThreeOnRankOne(Model &m)
{
    auto [w, o] = m.loadWeights(0);
    const Object grad = m.fakeGrad(0, m.rank == 1 ? IndexSet{2, 3} : IndexSet::range(0, 4));
    g_updateLine = __LINE__ + 1;
    auto [w1, o1] = m.update(0, grad, w, o);
    m.setFinalWeight(0, w1);
    co_return;
}

TEST(UpdateCheck, NamesTheMissingBatchesWithRankAndLine)
{
    const core::Trace trace =
        runProgram(makeConfig(2, 1, 4), updateWithBatchesTwoAndThreeOnRankOne);
    ASSERT_EQ(trace.status, core::RunStatus::Error);
    ASSERT_TRUE(trace.error);
    EXPECT_EQ(trace.error->kind, core::ErrorKind::Check);
    EXPECT_EQ(trace.error->rank, 1);
    EXPECT_EQ(trace.error->line, g_updateLine);
    EXPECT_EQ(trace.error->message,
              "update(layer 0): the weight gradient covers batches {2, 3}, but an update needs "
              "all batches {0, 1, 2, 3} (batches 0 and 1 are missing; allreduce it first)");
    // Rank 0 updated; rank 1's update was refused before its event.
    ASSERT_EQ(trace.events.size(), 1U);
    EXPECT_EQ(trace.events[0].rank, 0);
}

TEST_F(UpdateChecks, RejectAGradientMissingOneBatch)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, {0, 1, 3}), weight(0), optState(0));
        },
        44,
        "update(layer 0): the weight gradient covers batches {0, 1, 3}, but an update needs all "
        "batches {0, 1, 2, 3} (batch 2 is missing; allreduce it first)"));
}

TEST(UpdateCheck, TellsALoneRankToAddItsBatchesInsteadOfAnAllreduce)
{
    // One rank has no one to allreduce with: its missing batches' gradients are its own to add.
    core::Engine engine(makeConfig(1, 1, 2));
    auto updated = engine.update(CallSite{0, 9}, 0, weightGrad(0, {1}), weight(0), optState(0));
    ASSERT_FALSE(updated);
    EXPECT_EQ(updated.error().message,
              "update(layer 0): the weight gradient covers batches {1}, but an update needs all "
              "batches {0, 1} (batch 0 is missing; add the gradients of the missing batches "
              "first)");
}

TEST_F(UpdateChecks, RejectAShardedGradientThatMissesTheWeightsShard)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, kAllBatches, {1}, 4), weight(0, {2}, 4),
                                   optState(0, {2}, 4));
        },
        45,
        "update(layer 0): the weight holds shards {2} of 4, but the weight gradient covers only "
        "shards {1} of 4; every shard you update needs its gradient"));
}

TEST_F(UpdateChecks, RejectAShardedGradientThatMissesTheOptimizerStatesShard)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, kAllBatches, {1}, 4), weight(0, {1}, 4),
                                   optState(0, {1, 2}, 4));
        },
        46,
        "update(layer 0): the optimizer state holds shards {1, 2} of 4, but the weight "
        "gradient covers only shards {1} of 4"));
}

TEST_F(UpdateChecks, RejectAShardedGradientOfAnotherSplit)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, kAllBatches, {0}, 2), weight(0, {0}, 4),
                                   optState(0, {0}, 4));
        },
        47,
        "the weight holds shards {0} of 4, but the weight gradient covers only shards {0} of 2"));
}

TEST_F(UpdateChecks, RejectAWeightAndOptimizerStateAtDifferentSteps)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, kAllBatches), weight(0, {0}, 1, 1),
                                   optState(0));
        },
        48,
        "update(layer 0): the weight is at step 1 but the optimizer state at step 0; they must be "
        "at the same step"));
}

// A whole weight updated with a shard of its optimizer state came out whole and at step 1: a
// ZeRO-1 program could skip sharding the weight and gathering it back (found writing the lesson).
TEST_F(UpdateChecks, RejectAWeightAndOptimizerStateOfOtherShards)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.update(at, 0, weightGrad(0, kAllBatches), weight(0),
                                   optState(0, {1}, 4));
        },
        51,
        "update(layer 0): the weight is whole but the optimizer state holds shards {1} of 4; an "
        "update needs the same shards of both"));
}

TEST_F(UpdateChecks, AcceptAFullGradientForAShardedWeight)
{
    // Weight-sharded data parallel: the allreduced gradient is full, the weight one shard.
    auto out = m_engine.update(CallSite{kRank, 49}, 0, weightGrad(0, kAllBatches),
                               weight(0, {3}, 4), optState(0, {3}, 4));
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out->first, weight(0, {3}, 4, 1));
    EXPECT_EQ(out->second, optState(0, {3}, 4, 1));
}

TEST_F(UpdateChecks, AcceptAShardedGradientForTheSameShardAndTakeHalfAStep)
{
    const core::SimTime clock = m_engine.clock(kRank);
    auto out = m_engine.update(CallSite{kRank, 50}, 0, weightGrad(0, kAllBatches, {1}, 4),
                               weight(0, {1}, 4), optState(0, {1}, 4));
    ASSERT_TRUE(out) << out.error().message;
    EXPECT_EQ(out->first.step, 1);
    EXPECT_EQ(out->second.step, 1);
    const core::Event &event = m_engine.trace().events.back();
    EXPECT_EQ(event.op, core::OpKind::Update);
    EXPECT_EQ(event.start, clock);
    EXPECT_EQ(event.duration.toString(), "0.5");
    EXPECT_EQ(m_engine.clock(kRank).toString(), "1.5");
}

using StorageChecks = EngineTest;

TEST_F(StorageChecks, LoadWeightsRejectsAShardOutsideTheSplit)
{
    EXPECT_TRUE(rejects([&](CallSite at) { return m_engine.loadWeights(at, 0, 4, 4); }, 51,
                        "load_weights(layer 0): shard 4 of 4 does not exist"));
    EXPECT_TRUE(rejects([&](CallSite at) { return m_engine.loadWeights(at, 0, -1, 4); }, 52,
                        "shard -1 of 4 does not exist"));
}

TEST_F(StorageChecks, LoadWeightsRejectsALayerTheModelDoesNotHave)
{
    EXPECT_TRUE(
        rejects([&](CallSite at) { return m_engine.loadWeights(at, 3); }, 53,
                "load_weights(layer 3): layer 3 does not exist; this model has layers 0-2"));
}

TEST_F(StorageChecks, GetActivationRejectsBatchesTheRunDoesNotHave)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.getActivation(at, {1, 4, 5});
        },
        54, "get_activation: batches 4 and 5 do not exist; this run has batches 0-3"));
    // One batch: "does not exist" (a sweep over batches shows this line in many rows).
    EXPECT_TRUE(rejects([&](CallSite at) { return m_engine.getActivation(at, {7}); }, 54,
                        "get_activation: batch 7 does not exist; this run has batches 0-3"));
}

TEST_F(StorageChecks, DelRejectsAKeyThatIsNotThere)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.erase(at, MapKind::Activations, core::Key(0, 1)); }, 55,
        "del activations[(0, 1)]: there is no such key in activations"));
    // Rank 2 holds weights[0] (an int key); the tuple (0,) is another key.
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.erase(at, MapKind::Weights, core::Key::ofTuple({0})); },
        56, "del weights[(0,)]: there is no such key in weights"));
}

} // namespace
} // namespace rankstep::testing
