// SPDX-License-Identifier: MIT
// A real run's report as a trace the views show (core/io/realtrace.h): the ranks' items merged by
// wall-clock time with each rank's order kept, links joining the calls that met, slices that
// partition the order, and a clear message for a damaged file.
#include "core/io/realtrace.h"

#include "core/replay/cursor.h"
#include "core/replay/position.h"
#include "core/replay/replayer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::io {
namespace {

std::string report(const std::string &rank1Events, const std::string &rank1Changes = "[]")
{
    return R"({"format": "rankstep-trace", "version": 1, "clock": "seconds", "memory": "bytes",
 "config": {"ranks": 2, "layers": 2, "batches": 2, "hidden": 16, "length": 4, "seed": 0},
 "result": {"status": "ok", "correct": true, "weights_match": true, "max_abs_diff": 0,
            "wall_seconds": 5.5, "first_wrong_layer": null, "layers": []},
 "ranks": [{"rank": 0, "events": [
    {"op": "forward", "layer": 0, "start": 0.5, "duration": 0.25, "memory": 100, "line": 3,
     "batches": [0], "shards": [], "shard_total": 1},
    {"op": "allreduce", "layer": 0, "start": 1.0, "duration": 2.0, "memory": 300, "line": 4,
     "batches": [0], "shards": [0], "shard_total": 1, "group": [0, 1], "bytes": 2048},
    {"op": "pass_to", "layer": 0, "start": 3.0, "duration": 0.001, "memory": 300, "line": 5,
     "peer": 1, "bytes": 99}],
   "changes": [
    {"map": "activations", "key": [1, 0], "op": "set", "line": 3, "events": 1,
     "time": 0.75, "memory_after": 200,
     "object": {"kind": "Activation", "layer": 1, "step": 0, "batches": [0], "shards": [],
                "total": 1}},
    {"map": "activations", "key": [1, 0], "op": "delete", "object": null, "line": 6,
     "events": 3, "time": 3.5, "memory_after": 100}],
   "final_weights": [{"layer": 0, "object": {"kind": "Weight", "layer": 0, "step": 1,
                      "batches": [], "shards": [0], "total": 1}}]},
  {"rank": 1, "events": )" +
           rank1Events + R"(, "changes": )" + rank1Changes + R"(}]}
)";
}

const char *kRank1 = R"([
    {"op": "allreduce", "layer": 0, "start": 0.2, "duration": 2.8, "memory": 0, "line": 4,
     "group": [1, 0]},
    {"op": "receive", "layer": 0, "start": 3.0, "duration": 0.5, "memory": 0, "line": 7,
     "peer": 0}])";

TEST(RealTrace, MergesTheRanksByTimeAndKeepsEachRanksOrder)
{
    const auto trace = realTraceFromJson(report(kRank1));
    ASSERT_TRUE(trace) << trace.error().message;
    ASSERT_EQ(trace->events.size(), 5U);
    // By start: rank 1's allreduce (0.2 s), rank 0's forward (0.5), its allreduce (1.0), then at
    // 3.0 both: rank 0 first.
    EXPECT_EQ(trace->events[0].rank, 1);
    EXPECT_EQ(trace->events[1].op, core::OpKind::Forward);
    EXPECT_EQ(trace->events[2].op, core::OpKind::AllReduce);
    EXPECT_EQ(trace->events[3].op, core::OpKind::PassTo);
    EXPECT_EQ(trace->events[4].op, core::OpKind::Receive);
    // Seconds as microsecond ticks: what the views print as a step is a millisecond.
    EXPECT_EQ(trace->events[1].start, core::SimTime::fromTicks(500000));
    EXPECT_EQ(trace->events[1].duration, core::SimTime::fromTicks(250000));
    EXPECT_EQ(trace->events[1].batches, core::IndexSet({0}));
    // The change at 0.75 s came after rank 0's forward and rank 1's allreduce; the delete after
    // everything that started by 3.5 s.
    ASSERT_EQ(trace->changes.size(), 2U);
    EXPECT_EQ(trace->changes[0].eventCount, 2U);
    EXPECT_EQ(trace->changes[0].memoryAfter, 200);
    ASSERT_TRUE(trace->changes[0].isSet());
    EXPECT_EQ(trace->changes.object(trace->changes[0])->kind, core::ObjectKind::Activation);
    EXPECT_FALSE(trace->changes[1].isSet());
    EXPECT_EQ(trace->changes[1].eventCount, 5U);
    EXPECT_EQ(trace->figures.endTime, core::SimTime::fromTicks(3500000));
    EXPECT_EQ(trace->figures.maxMemory, 300);
    EXPECT_TRUE(trace->correct());
    EXPECT_EQ(trace->finalWeights[0].at(0).step, 1);
}

TEST(RealTrace, JoinsTheCallsThatMet)
{
    const auto trace = realTraceFromJson(report(kRank1));
    ASSERT_TRUE(trace) << trace.error().message;
    // Both allreduces of layer 0 in group {0, 1} (written in either order) are one collective;
    // the pass_to and the receive one message; the two links differ.
    EXPECT_GE(trace->events[0].link, 0);
    EXPECT_EQ(trace->events[0].link, trace->events[2].link);
    EXPECT_GE(trace->events[3].link, 0);
    EXPECT_EQ(trace->events[3].link, trace->events[4].link);
    EXPECT_NE(trace->events[0].link, trace->events[3].link);
    EXPECT_EQ(trace->events[1].link, -1);
}

TEST(RealTrace, SlicesPartitionTheOrderAndTheReplayHoldsWhatWasSet)
{
    const auto trace = realTraceFromJson(report(kRank1));
    ASSERT_TRUE(trace) << trace.error().message;
    std::uint32_t events = 0, changes = 0;
    for (const core::Slice &slice : trace->slices) {
        EXPECT_EQ(slice.eventBegin, events);
        EXPECT_EQ(slice.changeBegin, changes);
        events = slice.eventEnd;
        changes = slice.changeEnd;
        for (std::uint32_t e = slice.eventBegin; e < slice.eventEnd; ++e)
            EXPECT_EQ(trace->events[e].rank, slice.rank);
    }
    EXPECT_EQ(events, trace->events.size());
    EXPECT_EQ(changes, trace->changes.size());
    EXPECT_EQ(trace->slices.back().end, core::SliceEnd::Finished);

    // Rank 0 holds its activation between the forward and the delete, as the state view shows.
    const replay::StopPoints stops(*trace);
    replay::Replayer replayer(stops);
    EXPECT_EQ(replayer.memoryAt(replay::Cursor(stops, stops.afterChange(0)), 0), 200);
    EXPECT_EQ(replayer.memoryAt(replay::Cursor(stops, stops.last()), 0), 100);
}

// A tensor-parallel run's objects keep their marks: a partial sum stays partial (not a sequence
// shard of the same total), a slice a slice, an expert's weight its expert's.
TEST(RealTrace, ObjectsKeepTheirSliceTheirPartialSumAndTheirExpert)
{
    const char *changes = R"([
    {"map": "activations", "key": [0, 1], "op": "set", "line": 4, "events": 0, "time": 0.1,
     "memory_after": 64, "object": {"kind": "Activation", "layer": 0, "step": 0, "batches": [0],
     "shards": [1], "total": 2, "partial": true, "block": 1}},
    {"map": "weights", "key": 1, "op": "set", "line": 5, "events": 0, "time": 0.2,
     "memory_after": 96, "object": {"kind": "Weight", "layer": 1, "step": 0, "batches": [],
     "shards": [1], "total": 2, "slice": true}},
    {"map": "weights", "key": 0, "op": "set", "line": 6, "events": 0, "time": 0.3,
     "memory_after": 128, "object": {"kind": "Weight", "layer": 0, "step": 0, "batches": [],
     "shards": [0], "total": 1, "expert": 1}}])";
    const auto trace = realTraceFromJson(report("[]", changes));
    ASSERT_TRUE(trace) << trace.error().message;
    std::vector<const core::Object *> objects;
    for (std::size_t c = 0; c < trace->changes.size(); ++c)
        if (trace->changes[c].isSet() && trace->changes[c].rank == 1)
            objects.push_back(trace->changes.object(trace->changes[c]));
    ASSERT_EQ(objects.size(), 3U);
    EXPECT_TRUE(objects[0]->partial);
    EXPECT_FALSE(objects[0]->isSequenceShard());
    EXPECT_EQ(objects[0]->block, 1U);
    EXPECT_TRUE(objects[1]->slice);
    EXPECT_FALSE(objects[1]->partial);
    EXPECT_EQ(objects[2]->expert, 1);
    EXPECT_EQ(objects[1]->expert, -1);
}

// A context run's objects keep their chunks: a chunk of the sequence is no sequence shard, its
// keys and values are read (a report holding them was refused: "unknown value"), and a chunk's
// part of a weight gradient stays a part.
TEST(RealTrace, ObjectsKeepTheirChunksOfTheSequenceAndTheirKeysAndValues)
{
    const char *changes = R"([
    {"map": "activations", "key": [0, 1], "op": "set", "line": 4, "events": 0, "time": 0.1,
     "memory_after": 64, "object": {"kind": "KeysValues", "layer": 0, "step": 0, "batches": [0],
     "shards": [1], "total": 2, "context": true}},
    {"map": "activations", "key": 1, "op": "set", "line": 5, "events": 0, "time": 0.2,
     "memory_after": 96, "object": {"kind": "Activation", "layer": 1, "step": 0, "batches": [0],
     "shards": [1], "total": 2, "context": true}},
    {"map": "grad_weights", "key": 0, "op": "set", "line": 6, "events": 0, "time": 0.3,
     "memory_after": 128, "object": {"kind": "WeightGrad", "layer": 0, "step": 0, "batches": [0],
     "shards": [0], "total": 1, "context": true}}])";
    const auto trace = realTraceFromJson(report("[]", changes));
    ASSERT_TRUE(trace) << trace.error().message;
    std::vector<const core::Object *> objects;
    for (std::size_t c = 0; c < trace->changes.size(); ++c)
        if (trace->changes[c].isSet() && trace->changes[c].rank == 1)
            objects.push_back(trace->changes.object(trace->changes[c]));
    ASSERT_EQ(objects.size(), 3U);
    EXPECT_EQ(objects[0]->kind, core::ObjectKind::KeysValues);
    EXPECT_TRUE(objects[0]->context);
    EXPECT_TRUE(objects[1]->isContextChunk());
    EXPECT_FALSE(objects[1]->isSequenceShard());
    EXPECT_TRUE(objects[2]->context);
}

// The report of a run with a layout says it as a simulated trace does (config.layout), so that the
// app knows the context groups of what it opened; a layout the ranks do not fill is named.
TEST(RealTrace, TheLayoutOfTheRunIsRead)
{
    std::string text = report(kRank1);
    const std::string seed = R"("seed": 0})";
    const std::size_t at = text.find(seed);
    ASSERT_NE(at, std::string::npos);
    text.replace(
        at, seed.size(),
        R"("seed": 0, "layout": {"tensor": 1, "context": 2, "pipeline": 1, "expert": 1}})");
    const auto trace = realTraceFromJson(text);
    ASSERT_TRUE(trace) << trace.error().message;
    EXPECT_EQ(trace->config.layout.context, 2);
    const std::size_t two = text.find(R"("context": 2)");
    text.replace(two, 12, R"("context": 3)");
    const auto wrong = realTraceFromJson(text);
    ASSERT_FALSE(wrong);
    EXPECT_NE(wrong.error().message.find("config.layout"), std::string::npos)
        << wrong.error().message;
}

TEST(RealTrace, ARankWhoseClockGoesBackKeepsItsOrder)
{
    // The change is stamped before the event it follows: it still comes after it.
    const auto trace = realTraceFromJson(report(
        R"([{"op": "forward", "layer": 0, "start": 2.0, "duration": 0.1, "memory": 0,
             "line": 3}])",
        R"([{"map": "weights", "key": 0, "op": "delete", "object": null, "line": 4,
             "events": 1, "time": 1.0, "memory_after": 0}])"));
    ASSERT_TRUE(trace) << trace.error().message;
    const replay::StopPoints stops(*trace);
    const auto &mine = stops.rankEvents(1);
    ASSERT_EQ(mine.size(), 1U);
    ASSERT_EQ(stops.rankChanges(1).size(), 1U);
    EXPECT_GT(trace->changes[stops.rankChanges(1)[0]].eventCount, mine[0]);
}

TEST(RealTrace, ADamagedReportIsNamed)
{
    const struct {
        std::string events, changes, names;
    } cases[] = {
        {R"([{"op": "forward", "layer": 0, "start": -1, "duration": 0, "memory": 0, "line": 1}])",
         "[]", "ranks[1].events[0].start"},
        {R"([{"op": "jump", "layer": 0, "start": 1, "duration": 0, "memory": 0, "line": 1}])", "[]",
         "ranks[1].events[0].op"},
        {R"([{"op": "receive", "layer": 0, "start": 1, "duration": 0, "memory": 0, "line": 1}])",
         "[]", "ranks[1].events[0]"},
        {"[]",
         R"([{"map": "weights", "key": 0, "op": "delete", "object": null, "line": 4,
              "events": 3, "time": 1.0, "memory_after": 0}])",
         "ranks[1].changes[0].events"},
        {"[]",
         R"([{"map": "weights", "key": 0, "op": "set", "line": 4, "events": 0, "time": 1.0,
              "memory_after": 0, "object": {"kind": "Weight", "layer": 9, "step": 0,
              "batches": [], "shards": [], "total": 1}}])",
         "ranks[1].changes[0].object.layer"},
    };
    for (const auto &c : cases) {
        const auto trace = realTraceFromJson(report(c.events, c.changes));
        ASSERT_FALSE(trace) << c.names;
        EXPECT_NE(trace.error().message.find(c.names), std::string::npos) << trace.error().message;
    }
    EXPECT_FALSE(realTraceFromJson("{}"));
    EXPECT_FALSE(realTraceFromJson("not json"));
}

} // namespace
} // namespace rankstep::io
