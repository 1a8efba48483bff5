// SPDX-License-Identifier: MIT
// What fills memory, against the published figures (docs/simulation.md) of the reference puzzles.
#include "core/explain/describe.h"
#include "core/explain/explainjson.h"
#include "core/explain/memoryexplain.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <set>

namespace rankstep::explain {
namespace {

using testing::referencePuzzles;
using testing::runProgram;

core::Trace referenceRun(const std::string &name)
{
    return testing::runReference(name);
}

std::int64_t sumOfObjects(const MemoryMoment &moment)
{
    std::int64_t sum = 0;
    for (const LiveObject &object : moment.objects)
        sum += object.bytes;
    return sum;
}

// The rebuilt dictionaries weigh what the engine counted, at every event of every puzzle.
TEST(MemoryExplain, TheObjectsAtEveryEventWeighTheEventsMemory)
{
    for (const auto &puzzle : referencePuzzles()) {
        const core::Trace trace = referenceRun(puzzle.name);
        for (std::size_t i = 0; i < trace.events.size(); i += 7) {
            const MemoryMoment moment = memoryAtEvent(trace, i);
            ASSERT_EQ(moment.bytes, trace.events[i].memory) << puzzle.name << " event " << i;
            ASSERT_EQ(moment.byKind.total(), moment.bytes);
            ASSERT_EQ(sumOfObjects(moment), moment.bytes);
        }
    }
}

// A cost model that names its device's memory: explain says after the peak whether it fits and
// by how much, in its text and its JSON; without one it says nothing of a device.
TEST(MemoryExplain, SaysWhetherThePeakFitsTheDevicesMemoryAndByHowMuch)
{
    core::Trace trace = referenceRun("gpipe"); // its peak: 4194304 B
    EXPECT_EQ(describeDeviceFit(trace, 4194304), "");
    EXPECT_EQ(explainText(trace, {}).find("device"), std::string::npos);
    EXPECT_EQ(explainJson(trace, {}).find("\"device\""), std::string::npos);

    trace.config.cost.deviceMemory = 5'000'000;
    const std::string fits =
        "The peak fits the device's memory of 5000000 B (5 MB) with 805696 B (805.7 kB) to spare.";
    EXPECT_EQ(describeDeviceFit(trace, 4194304), fits);
    const std::string text = explainText(trace, {});
    EXPECT_NE(text.find(describeMoment(*peakMemory(trace)) + "\n" + fits + "\n"), std::string::npos)
        << text;
    EXPECT_NE(explainJson(trace, {}).find("\"device\": {\"memory\": 5000000, \"fits\": true, "
                                          "\"margin\": 805696, \"sentence\": \"" +
                                          fits + "\"}"),
              std::string::npos)
        << explainJson(trace, {});

    trace.config.cost.deviceMemory = 4'000'000;
    const std::string over =
        "The peak is 194304 B (194.3 kB) over the device's memory of 4000000 "
        "B (4 MB): it does not fit.";
    EXPECT_EQ(describeDeviceFit(trace, 4194304), over);
    EXPECT_NE(explainText(trace, {}).find(over), std::string::npos);
    EXPECT_NE(explainJson(trace, {}).find("\"fits\": false, \"margin\": -194304"),
              std::string::npos);
    // Exactly the device's memory fits, with nothing to spare.
    trace.config.cost.deviceMemory = 4194304;
    EXPECT_EQ(describeDeviceFit(trace, 4194304),
              "The peak fits the device's memory of 4194304 B (4.19 MB) with 0 B to spare.");
}

TEST(MemoryExplain, GpipesPeakIsRankOnesObjectsAtThirtyPointFourByKind)
{
    const core::Trace trace = referenceRun("gpipe");
    const auto peak = peakMemory(trace);
    ASSERT_TRUE(peak);
    EXPECT_EQ(peak->bytes, 4194304);
    EXPECT_EQ(peak->rank, 1);
    EXPECT_EQ(peak->time.toString(), "30.4");
    EXPECT_EQ(peak->byKind.total(), 4194304);
    // The reference GPipe keeps one weight gradient per micro-batch until all four are summed.
    EXPECT_EQ(peak->byKind.of(core::ObjectKind::WeightGrad), 2097152);
    const std::string sentence = describeMoment(*peak);
    EXPECT_EQ(sentence.rfind("Peak 4194304 B on rank 1 at t 30.4: ", 0), 0U) << sentence;
    EXPECT_NE(
        sentence.find(": weight gradients of layers 2-3 for batches 0-3 (8 objects, 2097152 B), "),
        std::string::npos)
        << sentence;
}

TEST(MemoryExplain, TheExcessOverATargetIsCoveredByTheObjectsNamed)
{
    const core::Trace trace = referenceRun("gpipe");
    const auto peak = peakMemory(trace);
    ASSERT_TRUE(peak);
    EXPECT_EQ(describeOverTarget(trace, *peak, 4194304), "");
    const std::string over = describeOverTarget(trace, *peak, 4194304 - 131072);
    EXPECT_EQ(over.rfind("131072 B over the target of 4063232 B: the ", 0), 0U) << over;
    EXPECT_NE(over.find(" kept from t "), std::string::npos) << over;
}

// A step function: its value at the peak time is at least the peak (more may be stored right
// after the call, at the same clock), and every sample adds up.
TEST(MemoryExplain, MemoryByKindStepsThroughEveryChangeOfTheRank)
{
    const core::Trace trace = referenceRun("gpipe");
    const auto samples = memoryByKind(trace, 1);
    ASSERT_GT(samples.size(), 2U);
    EXPECT_EQ(samples.front().time, core::SimTime());
    std::int64_t highest = 0;
    for (std::size_t i = 1; i < samples.size(); ++i) {
        EXPECT_LT(samples[i - 1].time, samples[i].time);
        highest = std::max(highest, samples[i].byKind.total());
    }
    EXPECT_GE(highest, 4194304);
    const MemoryMoment end = memoryAt(trace, 1, trace.figures.endTime);
    EXPECT_EQ(end.byKind, samples.back().byKind);
}

// One change's time, and each rank's clock as its changes are met (memoryByKind, memoryAt), are
// the times of every change: on every puzzle, at every change, and for every rank the objects at
// the end hold the times of the changes that stored them.
TEST(MemoryExplain, OneChangesTimeIsItsTimeAmongEveryChanges)
{
    for (const auto &puzzle : referencePuzzles()) {
        SCOPED_TRACE(puzzle.name);
        const core::Trace trace = referenceRun(puzzle.name);
        const std::vector<core::SimTime> times = changeTimes(trace);
        for (std::size_t i = 0; i < trace.changes.size(); ++i)
            ASSERT_EQ(changeTime(trace, i), times[i]) << "change " << i;
        for (int rank = 0; rank < trace.config.ranks; ++rank) {
            const MemoryMoment end = memoryAt(trace, rank, trace.figures.endTime);
            for (const LiveObject &object : end.objects)
                ASSERT_EQ(object.since, times[object.change]) << "rank " << rank;
            // The chart's steps are at the rank's change times.
            std::set<core::SimTime> at{core::SimTime()};
            for (std::size_t i = 0; i < trace.changes.size(); ++i)
                if (trace.changes[i].rank == rank)
                    at.insert(times[i]);
            std::set<core::SimTime> stepped;
            for (const KindSample &sample : memoryByKind(trace, rank))
                stepped.insert(sample.time);
            EXPECT_EQ(stepped, at) << "rank " << rank;
        }
    }
}

TEST(Describe, IndexSetsReadAsRanges)
{
    EXPECT_EQ(formatRanges(core::IndexSet{0, 1, 2, 3}), "0-3");
    EXPECT_EQ(formatRanges(core::IndexSet{0, 2, 5, 6, 7}), "0, 2, 5-7");
    EXPECT_EQ(formatRanges(core::IndexSet{4}), "4");
    EXPECT_EQ(formatRanges(core::IndexSet{}), "");
}

// The first layer's backward gives the gradient of the model's input, an activation gradient of
// "layer -1": the DDP peak's description once read "activation gradient of layers  for batch 0".
TEST(Describe, TheInputsGradientIsNamedAsSuch)
{
    LiveObject input;
    input.object.kind = core::ObjectKind::ActivationGrad;
    input.object.layer = -1;
    input.object.batches = core::IndexSet{0};
    input.bytes = 131072;
    const std::vector<ObjectGroup> alone = groupByKind({input});
    ASSERT_EQ(alone.size(), 1U);
    EXPECT_EQ(describeGroup(alone[0]),
              "activation gradient of the model's input for batch 0 (1 object, 131072 B)");
    LiveObject second = input;
    second.object.layer = 1;
    const std::vector<ObjectGroup> both = groupByKind({input, second});
    EXPECT_EQ(describeGroup(both[0]),
              "activation gradients of layer 1 and of the model's input "
              "for batch 0 (2 objects, 262144 B)");
}

// What is held but not usable yet says what it lacks, as the state view's chips mark it ("a1 c0
// 3/4", a partial's half veil): an unfinished attention (docs/simulation.md, "Overlapped ring
// attention") by its layer, batches, chunk and the chunks it has seen of the context group's; a
// tensor partial and a chunk's weight gradient by the group that must sum them. Whole objects
// say nothing.
TEST(Describe, WhatIsNotUsableYetSaysWhatItLacks)
{
    core::Object output; // forward of layer 0 on chunk 0, with chunks 0, 1 and 3 seen
    output.kind = core::ObjectKind::Activation;
    output.layer = 1;
    output.batches = core::IndexSet{0};
    output.shards = core::IndexSet{0};
    output.total = 4;
    output.context = true;
    output.step = 0b1011;
    EXPECT_EQ(describeUnfinished(output, 4),
              "layer 0's attention output for batch 0, chunk 0: 3 of 4 chunks seen");
    core::Object gradIn = output; // backward of layer 1 on chunk 2, chunks 1 and 2 seen
    gradIn.kind = core::ObjectKind::ActivationGrad;
    gradIn.layer = 0;
    gradIn.batches = core::IndexSet{0, 1};
    gradIn.shards = core::IndexSet{2};
    gradIn.step = 0b0110;
    EXPECT_EQ(describeUnfinished(gradIn, 4),
              "layer 1's attention input gradient for batches 0-1, chunk 2: 2 of 4 chunks seen");
    core::Object weightGrad = gradIn; // its pair: a weight gradient knows no chunk count
    weightGrad.kind = core::ObjectKind::WeightGrad;
    weightGrad.layer = 1;
    weightGrad.shards = core::IndexSet{0};
    weightGrad.total = 1;
    EXPECT_EQ(describeUnfinished(weightGrad, 4),
              "layer 1's attention weight gradient for batches 0-1: 2 of 4 chunks seen");
    weightGrad.step = 0; // finished, still one chunk's term of the sequence's sum
    EXPECT_EQ(describeUnfinished(weightGrad, 4),
              "a partial sum: needs the all-reduce of its context group");
    core::Object partial; // a tensor-parallel block's output on rank 0's slice
    partial.kind = core::ObjectKind::Activation;
    partial.layer = 1;
    partial.block = 1;
    partial.partial = true;
    partial.batches = core::IndexSet{0};
    partial.shards = core::IndexSet{0};
    partial.total = 2;
    EXPECT_EQ(describeUnfinished(partial, 1),
              "a partial sum: needs the all-reduce of its tensor group");
    output.step = 0; // every chunk seen
    EXPECT_EQ(describeUnfinished(output, 4), "");

    // After what the rank holds, in explain's memory block and the Why tab's sentence.
    MemoryMoment moment;
    moment.rank = 1;
    moment.time = core::SimTime::fromTicks(300);
    moment.contextSize = 4;
    output.step = 0b1011;
    for (const core::Object &object : {output, partial, output}) {
        moment.objects.push_back({core::MapKind::Activations, {}, object, 100, 1, {}, 0});
        moment.bytes += 100;
        moment.byKind.of(object.kind) += 100;
    }
    moment.objects.back().object.step = 0; // the third is whole
    EXPECT_EQ(describeMoment(moment, "Memory"),
              "Memory 300 B on rank 1 at t 0.3: activations of layer 1 for batch 0 (3 objects, "
              "300 B). Unfinished: layer 0's attention output for batch 0, chunk 0: 3 of 4 chunks "
              "seen, the activation of layer 1 for batch 0 (a partial sum: needs the all-reduce "
              "of its tensor group).");
    EXPECT_EQ(describeUnfinishedHeld(moment.objects, 4, core::english(), 1),
              "layer 0's attention output for batch 0, chunk 0: 3 of 4 chunks seen and 1 more");
    moment.objects.resize(1);
    moment.objects[0].object.step = 0;
    EXPECT_EQ(describeUnfinishedHeld(moment.objects, 4), "");
}

} // namespace
} // namespace rankstep::explain
