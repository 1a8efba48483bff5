// SPDX-License-Identifier: MIT
// Words for the explanations: objects, groups of objects of one kind, index sets as ranges.
#pragma once

#include "core/sentences.h"
#include "memoryexplain.h"

#include <string>
#include <vector>

namespace rankstep::explain {

// A time as the explanations say it: the puzzle's steps bare ("19.9"); a run under a real-scale
// cost model, whose ticks are microseconds (docs/cost-models.md), in milliseconds with their unit
// ("670.153 ms"), as its timeline's axis reads.
std::string timeText(bool milliseconds, core::SimTime time,
                     const core::Phrasebook &words = core::english());
// The same for a time of `trace`.
std::string timeText(const core::Trace &trace, core::SimTime time,
                     const core::Phrasebook &words = core::english());

// "0-3", "0, 2, 5-7"
std::string formatRanges(const core::IndexSet &set);

// The objects of one kind at a moment.
struct ObjectGroup {
    core::ObjectKind kind = core::ObjectKind::Weight;
    int count = 0;
    std::int64_t bytes = 0;
    core::IndexSet layers, batches, shards;
    int total = 1;              // of the shards (1: whole objects)
    bool inputGradient = false; // holds the gradient of the model's input (layer -1)
};
// Largest group first.
std::vector<ObjectGroup> groupByKind(const std::vector<LiveObject> &objects);
// "activations of layers 2-3 for batches 0-3 (4 objects, 2097152 B)"
std::string describeGroup(const ObjectGroup &group,
                          const core::Phrasebook &words = core::english());
// "the activation of layer 1 for batch 0 (131072 B)"
std::string describeObject(const LiveObject &object,
                           const core::Phrasebook &words = core::english());
// What keeps an object from being used yet, in words; "" for a whole one. An unfinished attention
// (core/attention.h) of a context group of `contextSize` chunks: "layer 0's attention output for
// batch 0, chunk 1: 3 of 4 chunks seen" (the state view's chip "a1 c1 3/4"); a tensor partial:
// "a partial sum: needs the all-reduce of its tensor group"; a chunk's weight gradient, which
// its context group sums: the same of its context group.
std::string describeUnfinished(const core::Object &object, int contextSize,
                               const core::Phrasebook &words = core::english());
// Whether describeUnfinished names something: an unfinished attention or a partial sum.
bool isUnfinished(const core::Object &object);
// The unfinished ones among `objects`, the first `most` of them each named with what it lacks, and
// how many more: "layer 0's attention output ...: 3 of 4 chunks seen, the activation of layer 1
// for batch 0 (a partial sum: ...) and 2 more"; "" when every object is whole.
std::string describeUnfinishedHeld(const std::vector<LiveObject> &objects, int contextSize,
                                   const core::Phrasebook &words = core::english(),
                                   std::size_t most = 3);
// When the object left its dictionary: "t 9.1", or "the end of the run".
std::string describeRemoval(const core::Trace &trace, int rank, const LiveObject &object,
                            const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
