// SPDX-License-Identifier: MIT
// Ring attention overlapped with the passes (docs/simulation.md, "Overlapped ring attention"): a
// chunk's forward and backward continued chunk by chunk (so_far), each call priced by its share,
// an unfinished output refused wherever else it is used, and pass_to_start / receive_start on the
// communication stream.
#include "testsupport.h"

#include "core/attention.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rankstep::testing {
namespace {

using core::CallSite;
using core::Engine;
using core::IndexSet;
using core::Object;
using core::ObjectKind;
using core::OpKind;

// One context group of `chunks` ranks, two layers, two batches.
core::RunConfig ringConfig(int chunks)
{
    core::RunConfig config = makeConfig(chunks, 2, 2);
    config.layout.context = chunks;
    return config;
}

Object chunkOf(Engine &engine, int rank)
{
    return *engine.getActivation(CallSite{rank, 1}, IndexSet::range(0, 2));
}

// Every rank's keys and values at layer 0, by chunk.
std::vector<Object> everyKv(Engine &engine, int layer = 0)
{
    std::vector<Object> kv;
    for (int rank = 0; rank < engine.ranks(); ++rank) {
        Object a = chunkOf(engine, rank);
        a.layer = layer;
        kv.push_back(*engine.keysValues(CallSite{rank, 2}, layer, a, weight(layer)));
    }
    return kv;
}

std::string messageOf(const core::Status &status)
{
    return status ? std::string("no error") : status.error().message;
}

template <typename T>
std::string messageOf(const core::Result<T> &result)
{
    return result ? std::string("no error") : result.error().message;
}

TEST(RingAttention, AForwardContinuedChunkByChunkCostsItsShareEachTimeAndEndsAsTheWhole)
{
    Engine engine(ringConfig(4));
    const Object mine = chunkOf(engine, 1);
    const std::vector<Object> kv = everyKv(engine);
    std::optional<Object> out;
    for (int chunk : {1, 0, 3, 2}) { // as the ring brings them to rank 1
        const std::vector<Object> one{kv[std::size_t(chunk)]};
        auto next = engine.forward(CallSite{1, 3}, 0, mine, weight(0), &one, out ? &*out : nullptr);
        ASSERT_TRUE(next) << next.error().message;
        // A quarter of the chunk's forward: 2 batches x 1 / 4 chunks / 4 chunks' keys and values.
        EXPECT_EQ(engine.trace().events.back().duration.toString(), "0.125");
        out = *next;
    }
    EXPECT_EQ(engine.clock(1).toString(), "0.5");
    EXPECT_FALSE(core::isUnfinishedAttention(*out));
    // What the all-at-once form gives, at the all-at-once price.
    Engine whole(ringConfig(4));
    const std::vector<Object> all = everyKv(whole);
    auto once = whole.forward(CallSite{1, 3}, 0, chunkOf(whole, 1), weight(0), &all);
    ASSERT_TRUE(once) << once.error().message;
    EXPECT_EQ(*out, *once);
    EXPECT_EQ(whole.clock(1).toString(), "0.5");
}

TEST(RingAttention, SharesThatDoNotDivideEvenlyStillAddUpToTheWholePrice)
{
    core::RunConfig config = ringConfig(3);
    config.batches = 1;
    Engine engine(config);
    const Object mine = *engine.getActivation(CallSite{0, 1}, {0});
    std::vector<Object> kv;
    for (int rank = 0; rank < 3; ++rank)
        kv.push_back(*engine.keysValues(CallSite{rank, 2}, 0,
                                        *engine.getActivation(CallSite{rank, 1}, {0}), weight(0)));
    std::optional<Object> out;
    core::SimTime sum;
    for (const Object &piece : kv) {
        const std::vector<Object> one{piece};
        out = *engine.forward(CallSite{0, 3}, 0, mine, weight(0), &one, out ? &*out : nullptr);
        sum = sum + engine.trace().events.back().duration;
    }
    Engine whole(config);
    auto once = whole.forward(CallSite{0, 3}, 0, mine, weight(0), &kv);
    ASSERT_TRUE(once) << once.error().message;
    EXPECT_EQ(sum, whole.trace().events.back().duration);
    EXPECT_EQ(sum, engine.clock(0));
}

TEST(RingAttention, AnUnfinishedOutputSaysWhatItHasAndLacksWhereverItIsUsed)
{
    Engine engine(ringConfig(4));
    const Object mine = chunkOf(engine, 1);
    const std::vector<Object> kv = everyKv(engine);
    const std::vector<Object> two{kv[1], kv[0]};
    auto half = engine.forward(CallSite{1, 3}, 0, mine, weight(0), &two);
    ASSERT_TRUE(half) << half.error().message;
    EXPECT_TRUE(core::isUnfinishedAttention(*half));
    EXPECT_EQ(core::attendedChunks(*half), IndexSet({0, 1}));
    EXPECT_EQ(core::describe(*half),
              "Activation(layer=1, batches={0, 1}, chunks={1}, context=4, attended={0, 1})");
    const std::string says =
        "layer 0's attention on rank 1 has the keys and values of chunks "
        "{0, 1} only and lacks chunks {2, 3}: pass them around the context "
        "group, model.group(\"context\"), and continue it with "
        "forward(..., kv=[...], so_far=...)";
    const EngineSnapshot before = snapshot(engine);
    auto next = engine.forward(CallSite{1, 4}, 1, *half, weight(1));
    EXPECT_EQ(messageOf(next), "forward(layer 1): " + says);
    auto loss = engine.loss(CallSite{1, 5}, *half);
    EXPECT_EQ(messageOf(loss), "loss: " + says);
    auto kvOfIt = engine.keysValues(CallSite{1, 6}, 1, *half, weight(1));
    EXPECT_EQ(messageOf(kvOfIt), "keys_values(layer 1): " + says);
    EXPECT_EQ(messageOf(engine.passTo(CallSite{1, 7}, 2, *half)), "pass_to: " + says);
    EXPECT_EQ(messageOf(engine.passToStart(CallSite{1, 8}, 2, *half)), "pass_to_start: " + says);
    EXPECT_EQ(messageOf(engine.allgather(CallSite{1, 9}, *half, 1, {0, 1, 2, 3})),
              "allgather(layer 1): " + says);
    EXPECT_EQ(snapshot(engine), before); // nothing happened
}

TEST(RingAttention, AnUnfinishedBackwardIsContinuedAsAPairAndItsGradientIsNotUpdated)
{
    Engine engine(ringConfig(2));
    const Object mine = chunkOf(engine, 0);
    Object grad = mine;
    grad.kind = ObjectKind::ActivationGrad;
    grad.layer = 0;
    const std::vector<Object> kv = everyKv(engine);
    const std::vector<Object> first{kv[0]};
    auto half = engine.backward(CallSite{0, 3}, 0, mine, grad, weight(0), &first);
    ASSERT_TRUE(half) << half.error().message;
    EXPECT_EQ(engine.trace().events.back().duration.toString(), "0.5"); // 2 x 2 / 2 / 2
    EXPECT_TRUE(core::isUnfinishedAttention(half->first));
    EXPECT_TRUE(core::isUnfinishedAttention(half->second));
    const std::string lacks =
        "layer 0's attention on rank 0 has the keys and values of chunks "
        "{0} only and lacks chunks {1}: pass them around the context group, "
        "model.group(\"context\"), and continue it with backward(..., "
        "kv=[...], so_far=...)";
    EXPECT_EQ(messageOf(engine.update(CallSite{0, 4}, 0, half->first, weight(0), optState(0))),
              "update(layer 0): " + lacks);
    EXPECT_EQ(messageOf(engine.allreduce(CallSite{0, 5}, half->first, 0, {0, 1})),
              "allreduce(layer 0): " + lacks);
    EXPECT_EQ(messageOf(engine.add(CallSite{0, 6}, half->first, half->first)),
              "add(layer 0): " + lacks);
    const std::vector<Object> second{kv[1]};
    auto done = engine.backward(CallSite{0, 7}, 0, mine, grad, weight(0), &second, &*half);
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_EQ(engine.clock(0).toString(), "1");
    EXPECT_FALSE(core::isUnfinishedAttention(done->first));
    EXPECT_TRUE(done->first.context); // still this chunk's part of the sum
    EXPECT_FALSE(core::isUnfinishedAttention(done->second));
    EXPECT_EQ(done->second.layer, -1);
}

TEST(RingAttention, SoFarMustBeAnUnfinishedOutputOfThisLayerAndChunk)
{
    Engine engine(ringConfig(2));
    const Object mine = chunkOf(engine, 0);
    const std::vector<Object> kv = everyKv(engine);
    const std::vector<Object> first{kv[0]};
    const std::vector<Object> second{kv[1]};
    const Object half = *engine.forward(CallSite{0, 3}, 0, mine, weight(0), &first);
    // The same chunk again, in kv and in so_far.
    EXPECT_EQ(messageOf(engine.forward(CallSite{0, 4}, 0, mine, weight(0), &first, &half)),
              "forward(layer 0): the keys and values of chunk {0} are given twice");
    // Keys and values of another layer.
    const std::vector<Object> other = everyKv(engine, 1);
    const std::vector<Object> otherOne{other[1]};
    EXPECT_EQ(messageOf(engine.forward(CallSite{0, 5}, 0, mine, weight(0), &otherOne, &half)),
              "forward(layer 0): the keys and values of chunk {1} are of layer 1, not of layer 0");
    // A finished output, and one of another chunk, are not what so_far continues.
    const Object whole = *engine.forward(CallSite{0, 6}, 0, mine, weight(0), &kv);
    EXPECT_EQ(messageOf(engine.forward(CallSite{0, 7}, 0, mine, weight(0), &second, &whole)),
              "forward(layer 0): so_far must be what an unfinished forward of layer 0 on this "
              "chunk gave (one that lacks some chunks' keys and values), not Activation(layer=1, "
              "batches={0, 1}, chunks={0}, context=2)");
    const Object theirs =
        *engine.forward(CallSite{1, 8}, 0, chunkOf(engine, 1), weight(0), &second);
    EXPECT_NE(messageOf(engine.forward(CallSite{0, 9}, 0, mine, weight(0), &second, &theirs))
                  .find("so_far must be what an unfinished forward of layer 0 on this chunk gave"),
              std::string::npos);
    // Nothing to continue with: the sentence of a chunk without keys and values.
    EXPECT_NE(messageOf(engine.forward(CallSite{0, 10}, 0, mine, weight(0), nullptr, &half))
                  .find("its attention needs every chunk's keys and values"),
              std::string::npos);
    // On a whole sequence there is no attention to continue.
    Engine plain(makeConfig(2, 2, 2));
    const Object wholeSequence = *plain.getActivation(CallSite{0, 1}, {0});
    EXPECT_NE(messageOf(plain.forward(CallSite{0, 2}, 0, wholeSequence, weight(0), nullptr, &half))
                  .find("the activation holds the whole sequence"),
              std::string::npos);
}

TEST(RingAttention, MoreChunksThanAnUnfinishedOutputKeepsTakeEveryChunkAtOnce)
{
    Engine engine(ringConfig(32));
    const Object mine = chunkOf(engine, 5);
    const std::vector<Object> kv = everyKv(engine);
    const std::vector<Object> one{kv[5]};
    EXPECT_EQ(messageOf(engine.forward(CallSite{5, 3}, 0, mine, weight(0), &one)),
              "forward(layer 0): an attention over 32 chunks takes every chunk's keys and values "
              "in one call: one continued with so_far spans at most 31 chunks");
    EXPECT_TRUE(engine.forward(CallSite{5, 4}, 0, mine, weight(0), &kv));
}

TEST(RingMessages, AStartedPassRunsOnTheStreamWhileTheRankComputes)
{
    Engine engine(makeConfig(2, 2, 2));
    const auto sent = engine.passToStart(CallSite{0, 5}, 1, activation(1, {0}));
    ASSERT_TRUE(sent) << sent.error().message;
    EXPECT_EQ(engine.clock(0).toString(), "0"); // the rank goes on at once
    const auto again = engine.passToStart(CallSite{0, 6}, 1, activation(1, {1}));
    ASSERT_TRUE(again);
    ASSERT_EQ(engine.trace().overlapped.size(), 2U);
    const core::Event &first = engine.trace().overlapped[0];
    EXPECT_EQ(first.op, OpKind::PassTo);
    EXPECT_EQ(first.start.toString(), "0");
    EXPECT_EQ(first.duration.toString(), "0.2");
    EXPECT_EQ(first.peer, 1);
    EXPECT_EQ(engine.trace().overlapped[1].start.toString(), "0.2"); // one at a time on the stream
    ASSERT_TRUE(engine.forward(CallSite{0, 7}, 0, activation(0, {0, 1}), weight(0)));
    ASSERT_TRUE(engine.awaitCollective(CallSite{0, 8}, *sent));
    ASSERT_TRUE(engine.resultReady(0));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(engine.takeResult(0)));
    EXPECT_EQ(engine.clock(0).toString(), "2"); // the passes ended under the forward
    // The receiver takes both on its stream, one after the other, from when they arrive.
    ASSERT_TRUE(engine.forward(CallSite{1, 9}, 0, activation(0, {0}), weight(0))); // clock 1
    const auto got = engine.receiveStart(CallSite{1, 10}, 0);
    const auto gotToo = engine.receiveStart(CallSite{1, 11}, 0);
    ASSERT_TRUE(got && gotToo);
    EXPECT_EQ(engine.trace().overlapped[2].op, OpKind::Receive);
    EXPECT_EQ(engine.trace().overlapped[2].start.toString(), "1"); // posted at 1, there at 0.2
    EXPECT_EQ(engine.trace().overlapped[3].start.toString(), "1.2");
    EXPECT_EQ(engine.trace().overlapped[2].link, engine.trace().overlapped[0].link);
    ASSERT_TRUE(engine.awaitCollective(CallSite{1, 12}, *gotToo));
    EXPECT_EQ(std::get<Object>(engine.takeResult(1)), activation(1, {1}));
    EXPECT_EQ(engine.clock(1).toString(), "1.4");
    EXPECT_TRUE(engine.trace().events.back().op == OpKind::Forward); // no blocking event
    // Each handle once.
    ASSERT_TRUE(engine.awaitCollective(CallSite{1, 13}, *got));
    EXPECT_EQ(std::get<Object>(engine.takeResult(1)), activation(1, {0}));
    EXPECT_NE(messageOf(engine.awaitCollective(CallSite{1, 14}, *got))
                  .find("this handle was already awaited"),
              std::string::npos);
}

TEST(RingMessages, AReceiveStartedBeforeItsMessageWakesTheRankThatAwaitsIt)
{
    Engine engine(makeConfig(2, 2, 2));
    const auto coming = engine.receiveStart(CallSite{1, 3}, 0);
    ASSERT_TRUE(coming);
    EXPECT_TRUE(engine.trace().overlapped.empty());
    ASSERT_TRUE(engine.awaitCollective(CallSite{1, 4}, *coming));
    EXPECT_FALSE(engine.resultReady(1)); // it waits for rank 0
    ASSERT_TRUE(engine.forward(CallSite{0, 5}, 0, activation(0, {0}), weight(0))); // clock 1
    ASSERT_TRUE(engine.passTo(CallSite{0, 6}, 1, activation(1, {0})));             // at 1.2
    ASSERT_TRUE(engine.resultReady(1));
    const core::Event &received = engine.trace().overlapped.back();
    EXPECT_EQ(received.op, OpKind::Receive);
    EXPECT_EQ(received.start.toString(), "1.2");
    EXPECT_EQ(received.line, 3); // the line of receive_start
    EXPECT_EQ(engine.clock(1).toString(), "1.4");
    EXPECT_EQ(std::get<Object>(engine.takeResult(1)), activation(1, {0}));
}

} // namespace
} // namespace rankstep::testing
