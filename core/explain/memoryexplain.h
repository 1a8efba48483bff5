// SPDX-License-Identifier: MIT
// What fills a rank's memory, from a finished (or failed, or hung) run's trace: memory by kind
// over time, the objects alive at a moment, the peak in one sentence, and the distance to a
// target in the same words. docs/explain.md describes the figures; docs/simulation.md what
// counts as memory (the five dictionaries of a rank).
#pragma once

#include "core/sentences.h"
#include "core/trace.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rankstep::explain {

// Bytes by object kind, indexed by core::ObjectKind (weight, optimizer state, activation,
// activation gradient, weight gradient, keys and values).
struct KindBytes {
    std::array<std::int64_t, core::kObjectKindCount> bytes{};
    std::int64_t &of(core::ObjectKind kind) { return bytes[std::size_t(kind)]; }
    std::int64_t of(core::ObjectKind kind) const { return bytes[std::size_t(kind)]; }
    std::int64_t total() const;
    bool operator==(const KindBytes &) const = default;
};
// "weight", "opt_state", "activation", "activation_grad", "weight_grad", "keys_values" (the JSON's
// keys).
const char *kindKey(core::ObjectKind kind);

// One entry of one of a rank's five dictionaries.
struct LiveObject {
    core::MapKind map = core::MapKind::Weights;
    core::Key key;
    core::Object object;
    std::int64_t bytes = 0;
    int line = 0;           // the learner's line that stored it
    core::SimTime since;    // the rank's clock when it was stored
    std::size_t change = 0; // the storage change that stored it
};

// A rank's memory at one moment: what its dictionaries hold.
struct MemoryMoment {
    int rank = 0;
    core::SimTime time;
    std::int64_t bytes = 0;
    KindBytes byKind;
    std::vector<LiveObject> objects; // largest first, then in the order they were stored
    int contextSize = 1;             // the run's context degree: chunks an attention needs
    bool milliseconds = false;       // its run's ticks are microseconds: `time` is said in ms
};

// The rank's clock at each storage change (the end of its last event before the change).
std::vector<core::SimTime> changeTimes(const core::Trace &trace);
// changeTimes(trace)[change] alone, without a time for every change (at 16,384 ranks 165 MB):
// back from the change to its rank's last event.
core::SimTime changeTime(const core::Trace &trace, std::size_t change);

// The memory an event counts: its rank's dictionaries when the call was made
// (docs/simulation.md). Its bytes equal the event's memory.
MemoryMoment memoryAtEvent(const core::Trace &trace, std::size_t event);
// The run's maximum memory (the figures' rank and time); a run without events has none.
std::optional<MemoryMoment> peakMemory(const core::Trace &trace);
// What `rank` holds at `time`: every change of the rank made by then.
MemoryMoment memoryAt(const core::Trace &trace, int rank, core::SimTime time);

// Memory by kind over time for one rank: a step function, one sample per change (and one at 0).
struct KindSample {
    core::SimTime time;
    KindBytes byKind;
};
std::vector<KindSample> memoryByKind(const core::Trace &trace, int rank);

// "Peak 4194304 B on rank 1 at t 30.4: activations of layers 2-3 for batches 0-3
// (2097152 B), ..." (each kind's layers, batches and shards, largest kind first), then what of it
// is unfinished: " Unfinished: layer 0's attention output for batch 0, chunk 1: 3 of 4 chunks
// seen." (describeUnfinishedHeld, core/explain/describe.h).
// `what` is sentence::kPeak or kMemory (core/explain/explainsentences.h); every part is said
// through `words`.
std::string describeMoment(const MemoryMoment &moment, const char *what = "Peak",
                           const core::Phrasebook &words = core::english());
// "131072 B over the target of ...: the activation of layer 1 for batch 0 (131072 B) kept
// from t 7.2 to t 9.1, ..." (the fewest objects alive at the moment that cover the excess:
// activations and gradients before weights and optimizer states, largest first; each with how
// long it was kept); "" when the moment is within the target.
std::string describeOverTarget(const core::Trace &trace, const MemoryMoment &moment,
                               std::int64_t target,
                               const core::Phrasebook &words = core::english());

// "The peak fits the device's memory of 80000000000 B (80 GB) with 1200000000 B (1.2 GB) to
// spare." or "The peak is ... over the device's memory of ...: it does not fit." (a peak equal to
// the device's memory fits, with 0 B to spare); "" when the run's cost model names no device's
// memory (core::CostModel::deviceMemory).
std::string describeDeviceFit(const core::Trace &trace, std::int64_t peakBytes,
                              const core::Phrasebook &words = core::english());

} // namespace rankstep::explain
