// SPDX-License-Identifier: MIT
// alltoall (docs/simulation.md, "Expert parallelism"): each member's pieces reach their members,
// joined; what cannot be sent gets a sentence.
#include "testsupport.h"

#include "core/costmodel.h"

#include <gtest/gtest.h>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::Engine;
using core::IndexSet;
using core::Object;
using core::OpKind;
using Pieces = std::vector<std::optional<Object>>;

Object resultOf(Engine &engine, int rank)
{
    core::Payload payload = engine.takeResult(rank);
    EXPECT_TRUE(std::holds_alternative<Object>(payload)) << "rank " << rank << " got no object";
    return std::holds_alternative<Object>(payload) ? std::get<Object>(payload) : Object{};
}

// Rank r holds batches 2r and 2r + 1 and sends batch 2r + j to rank j (j = 0, 1): what an expert
// layer of two experts does with two tokens per rank.
Pieces tokensOf(int rank, int ranks)
{
    Pieces pieces;
    for (int to = 0; to < ranks; ++to)
        pieces.push_back(activation(0, {2 * rank + to}));
    return pieces;
}

TEST(AllToAll, EachRankGetsWhatEveryRankSentIt)
{
    Engine engine(makeConfig(2, 1, 4));
    ASSERT_TRUE(engine.alltoall(CallSite{0, 10}, tokensOf(0, 2), 0));
    EXPECT_FALSE(engine.resultReady(0));
    ASSERT_TRUE(engine.alltoall(CallSite{1, 11}, tokensOf(1, 2), 0));
    EXPECT_EQ(resultOf(engine, 0), activation(0, {0, 2}));
    EXPECT_EQ(resultOf(engine, 1), activation(0, {1, 3}));
    const auto &events = engine.trace().events;
    ASSERT_EQ(events.size(), 2u);
    for (const core::Event &event : events) {
        EXPECT_EQ(event.op, OpKind::AllToAll);
        EXPECT_EQ(event.duration.toString(), "0.3"); // the notebook's collective constant
        EXPECT_EQ(event.link, events.front().link);
    }
    EXPECT_EQ(events[1].batches, IndexSet({2, 3})); // what rank 1 sent
}

TEST(AllToAll, RunsOverAGroupInTheOrderOfItsRanks)
{
    Engine engine(makeConfig(4, 1, 8));
    // Ranks 1 and 3 exchange; the second piece of each goes to rank 3.
    ASSERT_TRUE(
        engine.alltoall(CallSite{3, 1}, {activation(0, {6}), activation(0, {7})}, 0, {3, 1}));
    ASSERT_TRUE(engine.alltoall(CallSite{1, 1}, {std::nullopt, activation(0, {2, 3})}, 0, {1, 3}));
    EXPECT_EQ(resultOf(engine, 1), activation(0, {6}));
    EXPECT_EQ(resultOf(engine, 3), activation(0, {2, 3, 7}));
}

TEST(AllToAll, ARankSentNothingGetsAnActivationWithoutBatches)
{
    Engine engine(makeConfig(2, 1, 4));
    ASSERT_TRUE(engine.alltoall(CallSite{0, 1}, {activation(0, {0}), std::nullopt}, 0));
    ASSERT_TRUE(engine.alltoall(CallSite{1, 1}, {activation(0, {1}), std::nullopt}, 0));
    EXPECT_EQ(resultOf(engine, 0), activation(0, {0, 1}));
    EXPECT_TRUE(resultOf(engine, 1).batches.empty());
}

TEST(AllToAll, RefusesAPieceCountOtherThanTheGroupsSize)
{
    Engine engine(makeConfig(3, 1, 4));
    auto status = engine.alltoall(CallSite{1, 7}, {activation(0, {0})}, 0);
    ASSERT_FALSE(status);
    EXPECT_TRUE(
        isCheckError(status.error(), 1, 7,
                     "alltoall(layer 0): give one piece (or None) for each of the 3 ranks "
                     "of the group {0, 1, 2}, in the order of their ranks, but 1 were given"))
        << status.error().message;
}

TEST(AllToAll, RefusesWeightsAndMixedPieces)
{
    Engine engine(makeConfig(2, 2, 4));
    auto weights = engine.alltoall(CallSite{0, 3}, {weight(0), std::nullopt}, 0);
    ASSERT_FALSE(weights);
    EXPECT_TRUE(isCheckError(weights.error(), 0, 3,
                             "alltoall sends activations or activation gradients, not weights"))
        << weights.error().message;
    auto mixed = engine.alltoall(CallSite{0, 4}, {activation(0, {0}), activationGrad(0, {1})}, 0);
    ASSERT_FALSE(mixed);
    EXPECT_TRUE(isCheckError(mixed.error(), 0, 4, "must be of one kind and layer"))
        << mixed.error().message;
}

TEST(AllToAll, RefusesATokenSentToTwoRanks)
{
    Engine engine(makeConfig(2, 1, 4));
    auto status = engine.alltoall(CallSite{0, 5}, {activation(0, {0, 1}), activation(0, {1})}, 0);
    ASSERT_FALSE(status);
    EXPECT_TRUE(isCheckError(status.error(), 0, 5, "batch 1 would go to more than one rank"))
        << status.error().message;
}

TEST(AllToAll, FailsTheRunWhenTwoRanksSendOneTokenToTheSameRank)
{
    Engine engine(makeConfig(2, 1, 4));
    ASSERT_TRUE(engine.alltoall(CallSite{0, 5}, {activation(0, {1}), std::nullopt}, 0));
    EXPECT_FALSE(engine.alltoall(CallSite{1, 6}, {activation(0, {1}), std::nullopt}, 0));
    ASSERT_TRUE(engine.fatalError());
    EXPECT_NE(engine.fatalError()->message.find("batch 1 would come to rank 0 from more than one "
                                                "rank"),
              std::string::npos)
        << engine.fatalError()->message;
}

// A rank that makes an all-to-all twice (or skips one) meets the others at another one.
TEST(AllToAll, MembersThatSendDifferentKindsAreAtDifferentAllToAlls)
{
    Engine engine(makeConfig(2, 2, 4));
    ASSERT_TRUE(engine.alltoall(CallSite{0, 31}, {activation(2, {0}), activation(2, {2})}, 1));
    EXPECT_FALSE(
        engine.alltoall(CallSite{1, 36}, {activationGrad(1, {1}), activationGrad(1, {3})}, 1));
    ASSERT_TRUE(engine.fatalError());
    EXPECT_NE(engine.fatalError()->message.find(
                  "alltoall(layer 1): rank 0 sends activations of layer 2 here (line 31), but "
                  "rank 1 sends activation gradients of layer 1 (line 36): they are at different "
                  "all-to-alls"),
              std::string::npos)
        << engine.fatalError()->message;
}

TEST(AllToAll, UnderANetworkCostsWhatTheBusiestRankSendsTheOthers)
{
    core::RunConfig config = makeConfig(2, 1, 4);
    config.cost.network = core::Network{8, 1e9, 1e9, 0};
    config.cost.sizes.activationBytes = 1'000'000; // one batch: 1 ms at 1 GB/s
    Engine engine(config);
    // Rank 0 keeps one token and sends one; rank 1 sends three and keeps none.
    ASSERT_TRUE(engine.alltoall(CallSite{0, 1}, {activation(0, {0}), activation(0, {1})}, 0));
    ASSERT_TRUE(engine.alltoall(CallSite{1, 1}, {activation(0, {2, 3, 4}), std::nullopt}, 0));
    EXPECT_EQ(engine.trace().events.front().duration,
              core::collectiveDuration(config.cost, OpKind::AllToAll, 3'000'000, 2, false));
    EXPECT_EQ(core::collectiveDuration(config.cost, OpKind::AllToAll, 3'000'000, 2, false),
              core::SimTime::fromTicks(3000)); // 3 ms in microsecond ticks
}

} // namespace
} // namespace rankstep::testing
