// SPDX-License-Identifier: MIT
// The experts of a mixture-of-experts layer (docs/simulation.md, "Expert parallelism"): the
// router, who may load which expert, and which tokens an expert's weight computes on.
#include "testsupport.h"

#include "core/router.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::Engine;
using core::IndexSet;
using core::Object;

// Two ranks, two experts (one each), two layers, four batches.
core::RunConfig expertConfig(int skew = 0)
{
    core::RunConfig config = makeConfig(2, 2, 4);
    config.layout.expert = 2;
    config.cost.routerSkew = skew;
    return config;
}

TEST(Router, AnEvenRouterTakesTurnsAndASkewFavoursExpertZero)
{
    EXPECT_EQ(core::batchesOfExpert(0, 2, 0, 6), IndexSet({0, 2, 4}));
    EXPECT_EQ(core::batchesOfExpert(1, 2, 0, 6), IndexSet({1, 3, 5}));
    // Skew 2: of every 4 batches, the first 3 go to expert 0.
    EXPECT_EQ(core::batchesOfExpert(0, 2, 2, 8), IndexSet({0, 1, 2, 4, 5, 6}));
    EXPECT_EQ(core::batchesOfExpert(1, 2, 2, 8), IndexSet({3, 7}));
    EXPECT_EQ(core::expertOf(5, 3, 0), 2);
}

TEST(Experts, ARankLoadsOnlyTheExpertItHolds)
{
    Engine engine(expertConfig());
    auto own = engine.loadWeights(CallSite{1, 3}, 1, 0, 1, false, 1);
    ASSERT_TRUE(own);
    EXPECT_EQ(own->first.expert, 1);
    EXPECT_EQ(own->second.expert, 1);
    EXPECT_EQ(core::describe(own->first), "Weight(layer=1, step=0, shards={0}, total=1, expert=1)");
    auto other = engine.loadWeights(CallSite{1, 4}, 1, 0, 1, false, 0);
    ASSERT_FALSE(other);
    EXPECT_TRUE(isCheckError(other.error(), 1, 4,
                             "load_weights(layer 1): rank 1 holds expert 1 of each expert layer "
                             "(its expert coordinate), not expert 0"))
        << other.error().message;
    auto none = engine.loadWeights(CallSite{0, 5}, 1, 0, 1, false, 2);
    ASSERT_FALSE(none);
    EXPECT_TRUE(isCheckError(none.error(), 0, 5, "there is no expert 2; the experts are {0, 1}"))
        << none.error().message;
}

TEST(Experts, ARunWithoutExpertsHasNone)
{
    Engine engine(makeConfig(2, 2, 4));
    auto loaded = engine.loadWeights(CallSite{0, 2}, 1, 0, 1, false, 0);
    ASSERT_FALSE(loaded);
    EXPECT_TRUE(isCheckError(loaded.error(), 0, 2, "this run has no experts"))
        << loaded.error().message;
}

TEST(Experts, AnExpertComputesOnlyTheTokensTheRouterSendsIt)
{
    Engine engine(expertConfig());
    const Object expert0 = engine.loadWeights(CallSite{0, 1}, 1, 0, 1, false, 0)->first;
    EXPECT_TRUE(engine.forward(CallSite{0, 2}, 1, activation(1, {0, 2}), expert0));
    auto strangers = engine.forward(CallSite{0, 3}, 1, activation(1, {0, 1, 3}), expert0);
    ASSERT_FALSE(strangers);
    EXPECT_TRUE(isCheckError(strangers.error(), 0, 3,
                             "forward(layer 1): the router sends batches 1 and 3 to expert 1, but "
                             "this weight is expert 0's: send each token to the rank of its "
                             "expert with an alltoall over model.group(\"expert\") first"))
        << strangers.error().message;
    auto backward =
        engine.backward(CallSite{0, 4}, 1, activation(1, {1}), activationGrad(1, {1}), expert0);
    ASSERT_FALSE(backward);
    EXPECT_TRUE(isCheckError(backward.error(), 0, 4, "the router sends batch 1 to expert 1"))
        << backward.error().message;
}

TEST(Experts, AnExpertsUpdateNeedsEveryTokenTheRouterSendsIt)
{
    Engine engine(expertConfig());
    const auto [weight, opt] = *engine.loadWeights(CallSite{0, 1}, 1, 0, 1, false, 0);
    auto grads =
        engine.backward(CallSite{0, 2}, 1, activation(1, {0}), activationGrad(1, {0}), weight);
    ASSERT_TRUE(grads);
    EXPECT_EQ(grads->first.expert, 0);
    auto partial = engine.update(CallSite{0, 3}, 1, grads->first, weight, opt);
    ASSERT_FALSE(partial);
    EXPECT_TRUE(isCheckError(partial.error(), 0, 3,
                             "update(layer 1): the weight gradient covers batches {0}, but expert "
                             "0's update needs every batch the router sends it, {0, 2} (missing: "
                             "batch 2)"))
        << partial.error().message;
    auto whole = engine.backward(CallSite{0, 4}, 1, activation(1, {0, 2}),
                                 activationGrad(1, {0, 2}), weight);
    ASSERT_TRUE(whole);
    EXPECT_TRUE(engine.update(CallSite{0, 5}, 1, whole->first, weight, opt));
    // A dense gradient for the expert's weight is another layer's gradient.
    auto dense = engine.update(CallSite{0, 6}, 1, weightGrad(1, {0, 1, 2, 3}), weight, opt);
    ASSERT_FALSE(dense);
    EXPECT_TRUE(isCheckError(dense.error(), 0, 6,
                             "the weight is expert 0's, but the weight "
                             "gradient is not"))
        << dense.error().message;
}

TEST(Experts, ASkewedRouterLoadsExpertZerosRankLonger)
{
    Engine engine(expertConfig(2)); // batches 0, 1, 2 to expert 0, batch 3 to expert 1
    const Object expert0 = engine.loadWeights(CallSite{0, 1}, 1, 0, 1, false, 0)->first;
    const Object expert1 = engine.loadWeights(CallSite{1, 1}, 1, 0, 1, false, 1)->first;
    ASSERT_TRUE(engine.forward(CallSite{0, 2}, 1, activation(1, {0, 1, 2}), expert0));
    ASSERT_TRUE(engine.forward(CallSite{1, 2}, 1, activation(1, {3}), expert1));
    EXPECT_EQ(engine.clock(0), core::SimTime::steps(3));
    EXPECT_EQ(engine.clock(1), core::SimTime::steps(1));
}

// Rank r holds batches 2r and 2r + 1 of `layer`; each sends batch b to the rank of expert b % 2
// (the dispatch), or, from the expert's rank, back to rank b / 2 (the combine): the all-to-all of
// layer 1, its tokens at `layer`.
void exchange(Engine &engine, int layer, bool home)
{
    for (int rank = 0; rank < 2; ++rank) {
        std::vector<std::optional<Object>> pieces;
        for (int to = 0; to < 2; ++to)
            pieces.push_back(activation(layer, {home ? 2 * to + rank : 2 * rank + to}));
        ASSERT_TRUE(engine.alltoall(CallSite{rank, 10 + layer}, std::move(pieces), 1));
    }
    for (int rank = 0; rank < 2; ++rank)
        engine.takeResult(rank);
}

TEST(Experts, TheLossAndADenseLayerNeedTheTokensAnExpertHoldsCombinedHomeFirst)
{
    Engine engine(expertConfig());
    exchange(engine, 1, false); // rank 0 now holds batches 0 and 2, rank 1 batches 1 and 3
    // An expert computes on them where they are.
    const Object expert0 = engine.loadWeights(CallSite{0, 1}, 1, 0, 1, false, 0)->first;
    ASSERT_TRUE(engine.forward(CallSite{0, 2}, 1, activation(1, {0, 2}), expert0));
    // The loss and a dense layer do not: batch 2 lives on rank 1, batch 1 on rank 0.
    auto loss = engine.loss(CallSite{0, 3}, activation(2, {0, 2}));
    ASSERT_FALSE(loss);
    EXPECT_TRUE(isCheckError(loss.error(), 0, 3,
                             "loss needs the tokens of batch 2 back on rank 1: they are still with "
                             "expert 0 on rank 0; combine them with alltoall first"))
        << loss.error().message;
    auto dense = engine.forward(CallSite{1, 4}, 0, activation(0, {1, 3}), weight(0));
    ASSERT_FALSE(dense);
    EXPECT_TRUE(isCheckError(dense.error(), 1, 4,
                             "forward(layer 0) needs the tokens of batch 1 back on rank 0: they "
                             "are still with expert 1 on rank 1"))
        << dense.error().message;
    auto backward =
        engine.backward(CallSite{1, 5}, 0, activation(0, {1}), activationGrad(0, {1}), weight(0));
    ASSERT_FALSE(backward);
    EXPECT_TRUE(
        isCheckError(backward.error(), 1, 5, "backward(layer 0) needs the tokens of batch 1"))
        << backward.error().message;
    // Tokens that never left are at home.
    EXPECT_TRUE(engine.loss(CallSite{0, 6}, activation(2, {0})));
    // The combine brings them home: the loss takes them there.
    exchange(engine, 2, true);
    EXPECT_TRUE(engine.loss(CallSite{0, 7}, activation(2, {0, 1})));
    EXPECT_TRUE(engine.loss(CallSite{1, 7}, activation(2, {2, 3})));
}

TEST(Experts, ARunWithoutExpertsComputesWhereAnAllToAllLeftTheTokens)
{
    Engine engine(makeConfig(2, 2, 4));
    exchange(engine, 2, false);
    EXPECT_TRUE(engine.loss(CallSite{0, 3}, activation(2, {0, 2})));
}

} // namespace
} // namespace rankstep::testing
