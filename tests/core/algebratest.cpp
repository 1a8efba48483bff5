// SPDX-License-Identifier: MIT
// `+`, combine and shard (docs/simulation.md, "Objects"), and the double-count warnings.
#include "testsupport.h"

#include "core/algebra.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::IndexSet;
using core::ObjectKind;

using AddChecks = EngineTest;

TEST_F(AddChecks, RejectGradientsOfDifferentLayers)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) { return m_engine.add(at, weightGrad(0, {0}), weightGrad(1, {1})); }, 61,
        "+ needs weight gradients of the same layer, but got layers 0 and 1"));
}

TEST_F(AddChecks, RejectGradientsOfDifferentShards)
{
    EXPECT_TRUE(rejects(
        [&](CallSite at) {
            return m_engine.add(at, weightGrad(0, {0}, {0}, 2), weightGrad(0, {1}, {1}, 2));
        },
        62, "+ needs weight gradients of the same shards, but got shards {0} of 2 and {1} of 2"));
}

TEST_F(AddChecks, CoverTheUnionOfBatchesWithoutAWarningWhenTheyAreDisjoint)
{
    auto sum = m_engine.add(CallSite{kRank, 63}, weightGrad(2, {0, 3}), weightGrad(2, {1}));
    ASSERT_TRUE(sum) << sum.error().message;
    EXPECT_EQ(sum->batches, (IndexSet{0, 1, 3}));
    EXPECT_EQ(sum->layer, 2);
    EXPECT_TRUE(m_engine.trace().warnings.empty());
}

TEST_F(AddChecks, WarnWhenABatchIsCountedTwice)
{
    auto sum = m_engine.add(CallSite{kRank, 64}, weightGrad(0, {0, 1}), weightGrad(0, {1, 2}));
    ASSERT_TRUE(sum) << sum.error().message;
    EXPECT_EQ(sum->batches, (IndexSet{0, 1, 2}));
    ASSERT_EQ(m_engine.trace().warnings.size(), 1U);
    const core::Warning &warning = m_engine.trace().warnings[0];
    EXPECT_EQ(warning.rank, kRank);
    EXPECT_EQ(warning.line, 64);
    EXPECT_EQ(warning.message,
              "Layer 0: both gradients already cover batch 1, so the sum counts it twice.");
}

TEST(Combine, RejectsObjectsOfDifferentLayers)
{
    auto joined = core::combine(weight(0, {0}, 2), weight(1, {1}, 2));
    ASSERT_FALSE(joined);
    // Pure algebra: the caller adds rank and line.
    EXPECT_TRUE(isCheckError(joined.error(), -1, 0,
                             "combine needs weights of the same layer, but got layers 0 and 1"));
}

TEST(Combine, JoinsShardsIntoACompleteObject)
{
    auto joined = core::combine(optState(3, {0, 2}, 3), optState(3, {1}, 3));
    ASSERT_TRUE(joined) << joined.error().message;
    EXPECT_EQ(joined->shards, (IndexSet{0, 1, 2}));
    EXPECT_TRUE(joined->isComplete());
    EXPECT_FALSE(optState(3, {0, 2}, 3).isComplete());
}

// A collective joins its members' values in place: the same result as a new object, and a value
// that does not fit leaves what was joined so far as it was.
TEST(JoinInPlace, GivesWhatANewObjectGivesAndAnErrorChangesNothing)
{
    core::Object joined = weight(2, {0}, 4);
    ASSERT_TRUE(core::combineInto(joined, weight(2, {1}, 4)));
    ASSERT_TRUE(core::combineInto(joined, weight(2, {3}, 4)));
    EXPECT_EQ(joined, *core::combine(*core::combine(weight(2, {0}, 4), weight(2, {1}, 4)),
                                     weight(2, {3}, 4)));
    EXPECT_EQ(joined.shards, (IndexSet{0, 1, 3}));
    const core::Object before = joined;
    EXPECT_FALSE(core::combineInto(joined, weight(2, {2}, 3)));
    EXPECT_FALSE(core::combineInto(joined, weight(1, {2}, 4)));
    EXPECT_EQ(joined, before);

    core::Object sum = weightGrad(1, {0, 1});
    IndexSet overlap;
    ASSERT_TRUE(core::addGradientsInto(sum, weightGrad(1, {1, 2}), &overlap));
    EXPECT_EQ(sum, *core::addGradients(weightGrad(1, {0, 1}), weightGrad(1, {1, 2})));
    EXPECT_EQ(sum.batches, (IndexSet{0, 1, 2}));
    EXPECT_EQ(overlap, (IndexSet{1}));
    const core::Object sumBefore = sum;
    EXPECT_FALSE(core::addGradientsInto(sum, weightGrad(2, {3})));
    EXPECT_EQ(sum, sumBefore);
}

TEST(Shard, RejectsAnObjectThatIsNotComplete)
{
    auto piece = core::shard(weight(0, {0}, 2), 0, 4);
    ASSERT_FALSE(piece);
    EXPECT_TRUE(isCheckError(piece.error(), -1, 0,
                             "shard needs a complete weight, but this one holds only shards {0} "
                             "of 2"));
}

TEST(Shard, CutsOneShardOfACompleteObject)
{
    auto piece = core::shard(weightGrad(1, {0, 1}), 3, 4);
    ASSERT_TRUE(piece) << piece.error().message;
    EXPECT_EQ(piece->kind, ObjectKind::WeightGrad);
    EXPECT_EQ(piece->shards, (IndexSet{3}));
    EXPECT_EQ(piece->total, 4);
    EXPECT_EQ(piece->batches, (IndexSet{0, 1}));
    EXPECT_FALSE(core::shard(weight(0), 4, 4));
}

TEST(AllreduceWarning, SaysHowManyRanksHoldTheBatchItCountsMoreThanOnce)
{
    // Every rank trained on batch 0: the sum counts it four times, not "twice".
    core::Engine engine(makeConfig(4, 1, 4));
    for (int r = 0; r < 4; ++r)
        ASSERT_TRUE(engine.allreduce(CallSite{r, 30}, weightGrad(0, {0}), 0));
    ASSERT_EQ(engine.trace().warnings.size(), 1U);
    EXPECT_EQ(engine.trace().warnings[0].message,
              "allreduce(layer 0): ranks 0-3 each hold a gradient for batch 0, so the sum counts "
              "it 4 times.");
    // The update then misses batches 1-3 although the gradient was allreduced: "allreduce it
    // first" would be wrong, the ranks' batches are.
    const core::Payload sum = engine.takeResult(0);
    ASSERT_TRUE(std::holds_alternative<core::Object>(sum));
    auto updated =
        engine.update(CallSite{0, 31}, 0, std::get<core::Object>(sum), weight(0), optState(0));
    ASSERT_FALSE(updated);
    EXPECT_EQ(updated.error().message,
              "update(layer 0): the weight gradient covers batches {0}, but an update needs all "
              "batches {0, 1, 2, 3} (batches 1-3 are missing; the ranks' own batches must "
              "together cover every batch)");
}

TEST(AllreduceWarning, NamesTheBatchTwoRanksHold)
{
    // Ranks 0 and 1 both hold the gradient of batch 1; rank 2 holds batch 2.
    core::Engine engine(makeConfig(3, 1, 3));
    const IndexSet held[] = {{1}, {1}, {2}};
    for (int r = 0; r < 3; ++r) {
        ASSERT_TRUE(engine.allreduce(CallSite{r, 70 + r}, weightGrad(0, held[r]), 0));
    }
    ASSERT_FALSE(engine.fatalError());
    ASSERT_EQ(engine.trace().warnings.size(), 1U);
    const core::Warning &warning = engine.trace().warnings[0];
    EXPECT_EQ(warning.rank, 0);
    EXPECT_EQ(warning.line, 70);
    EXPECT_EQ(warning.message,
              "allreduce(layer 0): ranks 0 and 1 each hold a gradient for batch 1, so the sum "
              "counts it 2 times.");
    const core::Payload sum = engine.takeResult(2);
    ASSERT_TRUE(std::holds_alternative<core::Object>(sum));
    EXPECT_EQ(std::get<core::Object>(sum).batches, (IndexSet{1, 2}));
}

TEST(AllreduceWarning, StaysSilentWhenEveryRankHoldsItsOwnBatch)
{
    core::Engine engine(makeConfig(3, 1, 3));
    for (int r = 0; r < 3; ++r) {
        ASSERT_TRUE(engine.allreduce(CallSite{r, 1}, weightGrad(0, {r}), 0));
    }
    EXPECT_TRUE(engine.trace().warnings.empty());
}

} // namespace
} // namespace rankstep::testing
