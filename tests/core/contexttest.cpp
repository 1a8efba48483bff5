// SPDX-License-Identifier: MIT
// Context parallelism (docs/simulation.md, "Context parallelism"): a rank's chunk of the
// sequence, the keys and values a chunk's attention needs from every chunk, and the sum of the
// chunks' weight gradients over the context group.
#include "testsupport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::Engine;
using core::IndexSet;
using core::Object;
using core::ObjectKind;

// Four ranks: context 2 x data 2 (ranks 0 and 1 one context group, 2 and 3 the other), two
// layers, two batches.
core::RunConfig contextConfig()
{
    core::RunConfig config = makeConfig(4, 2, 2);
    config.layout.context = 2;
    return config;
}

Object chunk(Engine &engine, int rank, IndexSet batches)
{
    return *engine.getActivation(CallSite{rank, 1}, batches);
}

TEST(Context, ARankGetsItsChunkOfTheSequenceAtItsShareOfTheMemory)
{
    Engine engine(contextConfig());
    const Object a = chunk(engine, 3, {1});
    EXPECT_TRUE(a.isContextChunk());
    EXPECT_EQ(a.shards, IndexSet({1})); // rank 3 is chunk 1 of its group
    EXPECT_EQ(a.total, 2);
    EXPECT_EQ(core::describe(a), "Activation(layer=0, batches={1}, chunks={1}, context=2)");
    EXPECT_EQ(core::memoryOf(a, {}), 512 * 256 / 2);
    const Object kv = *engine.keysValues(CallSite{3, 2}, 0, a, weight(0));
    EXPECT_EQ(kv.kind, ObjectKind::KeysValues);
    EXPECT_EQ(core::memoryOf(kv, {}), 512 * 256); // a key and a value of the chunk's tokens
    // Without --context the activation is whole, as before.
    Engine plain(makeConfig(4, 2, 2));
    EXPECT_FALSE(chunk(plain, 3, {1}).context);
}

TEST(Context, AForwardNeedsTheKeysAndValuesOfEveryChunk)
{
    Engine engine(contextConfig());
    const Object mine = chunk(engine, 1, {0});
    const Object own = *engine.keysValues(CallSite{1, 2}, 0, mine, weight(0));
    auto none = engine.forward(CallSite{1, 3}, 0, mine, weight(0));
    ASSERT_FALSE(none);
    EXPECT_TRUE(isCheckError(none.error(), 1, 3,
                             "forward(layer 0): layer 0's activation on rank 1 is chunk {1} of the "
                             "sequence: its attention needs every chunk's keys and values"))
        << none.error().message;
    // With some chunks only, the attention is unfinished: its output is refused where it is used
    // (core/ringattentiontest.cpp has the rest).
    const std::vector<Object> half{own};
    auto unfinished = engine.forward(CallSite{1, 4}, 0, mine, weight(0), &half);
    ASSERT_TRUE(unfinished) << unfinished.error().message;
    auto missing = engine.forward(CallSite{1, 4}, 1, *unfinished, weight(1));
    ASSERT_FALSE(missing);
    EXPECT_TRUE(isCheckError(missing.error(), 1, 4,
                             "forward(layer 1): layer 0's attention on rank 1 has the keys and "
                             "values of chunks {1} only and lacks chunks {0}: pass them around "
                             "the context group"))
        << missing.error().message;
    const Object other = *engine.keysValues(CallSite{0, 2}, 0, chunk(engine, 0, {0}), weight(0));
    const std::vector<Object> all{own, other};
    auto done = engine.forward(CallSite{1, 5}, 0, mine, weight(0), &all);
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_EQ(done->layer, 1);
    EXPECT_TRUE(done->isContextChunk());
    // A chunk's forward is its share of the layer's: half a step for one batch of two chunks.
    EXPECT_EQ(engine.trace().events.back().duration.toString(), "0.5");
}

TEST(Context, KeysAndValuesFromAnotherGroupOrTwiceAreRefused)
{
    Engine engine(contextConfig());
    const Object mine = chunk(engine, 0, {0});
    const Object own = *engine.keysValues(CallSite{0, 2}, 0, mine, weight(0));
    // Rank 3 holds chunk 1 of the other data-parallel batch: it came across the group's edge.
    const Object stranger = *engine.keysValues(CallSite{3, 2}, 0, chunk(engine, 3, {1}), weight(0));
    const std::vector<Object> crossed{own, stranger};
    auto wrong = engine.forward(CallSite{0, 3}, 0, mine, weight(0), &crossed);
    ASSERT_FALSE(wrong);
    EXPECT_TRUE(isCheckError(wrong.error(), 0, 3,
                             "the keys and values of chunk {1} are of batch 1, but the activation "
                             "is of batch 0: they come from another context group"))
        << wrong.error().message;
    const std::vector<Object> twice{own, own};
    auto repeated = engine.forward(CallSite{0, 4}, 0, mine, weight(0), &twice);
    ASSERT_FALSE(repeated);
    EXPECT_TRUE(isCheckError(repeated.error(), 0, 4,
                             "forward(layer 0): the keys and values of chunk {0} are given twice"))
        << repeated.error().message;
    // Keys and values mean nothing to a whole sequence.
    Engine plain(makeConfig(4, 2, 2));
    auto whole = plain.keysValues(CallSite{0, 5}, 0, chunk(plain, 0, {0}), weight(0));
    ASSERT_FALSE(whole);
    EXPECT_TRUE(isCheckError(whole.error(), 0, 5, "the activation holds the whole sequence"))
        << whole.error().message;
}

TEST(Context, AChunksGradientIsSummedOverItsContextGroupBeforeTheUpdate)
{
    Engine engine(contextConfig());
    std::vector<Object> grads;
    for (int rank = 0; rank < 2; ++rank) {
        const Object a = chunk(engine, rank, {0});
        Object grad = a;
        grad.kind = ObjectKind::ActivationGrad;
        std::vector<Object> kv;
        for (int other = 0; other < 2; ++other)
            kv.push_back(
                *engine.keysValues(CallSite{other, 2}, 0, chunk(engine, other, {0}), weight(0)));
        auto backward = engine.backward(CallSite{rank, 3}, 0, a, grad, weight(0), &kv);
        ASSERT_TRUE(backward) << backward.error().message;
        EXPECT_TRUE(backward->first.context);
        EXPECT_TRUE(backward->second.isContextChunk());
        grads.push_back(backward->first);
    }
    auto early = engine.update(CallSite{0, 4}, 0, grads[0], weight(0), optState(0));
    ASSERT_FALSE(early);
    EXPECT_TRUE(isCheckError(early.error(), 0, 4,
                             "update(layer 0): the weight gradient is this rank's part of the "
                             "sequence only: all-reduce it over the context group"))
        << early.error().message;
    ASSERT_TRUE(engine.allreduce(CallSite{0, 5}, grads[0], 0, {0, 1}));
    ASSERT_TRUE(engine.allreduce(CallSite{1, 5}, grads[1], 0, {0, 1}));
    ASSERT_TRUE(engine.resultReady(0));
    const Object summed = std::get<Object>(engine.takeResult(0));
    EXPECT_FALSE(summed.context);
    EXPECT_EQ(summed.batches, IndexSet({0})); // both chunks of batch 0, counted once
    EXPECT_TRUE(engine.trace().warnings.empty());
}

TEST(Context, AGroupWithoutTheWholeContextGroupCannotSumTheChunks)
{
    Engine engine(contextConfig());
    Object part = weightGrad(0, {0});
    part.context = true;
    // Ranks 0 and 2 are a data-parallel group: each lacks the other chunk of its sequence.
    ASSERT_TRUE(engine.allreduce(CallSite{0, 7}, part, 0, {0, 2}));
    Object other = weightGrad(0, {1});
    other.context = true;
    const core::Status last = engine.allreduce(CallSite{2, 7}, other, 0, {0, 2});
    const std::string message = !last                 ? last.error().message
                                : engine.fatalError() ? engine.fatalError()->message
                                                      : std::string();
    EXPECT_NE(message.find(
                  "allreduce(layer 0): rank 0's weight gradient is its part of the sequence only, "
                  "but the group lacks rank 1 of its context group"),
              std::string::npos)
        << message;
}

} // namespace
} // namespace rankstep::testing
