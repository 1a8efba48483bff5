// SPDX-License-Identifier: MIT
#pragma once

#include "indexset.h"

#include <cstdint>
#include <string>

namespace rankstep::core {

// KeysValues last, so that every older trace keeps its numbers (docs/simulation.md, "Context
// parallelism").
enum class ObjectKind : std::uint8_t {
    Weight,
    OptState,
    Activation,
    ActivationGrad,
    WeightGrad,
    KeysValues
};
inline constexpr int kObjectKindCount = int(ObjectKind::KeysValues) + 1;

// A puzzle object. Which fields matter depends on the kind:
// Weight, OptState: layer, step, shards of total.
// Activation, ActivationGrad: layer, batches.
// WeightGrad: layer, batches, shards of total.
// `layers` and `totalBatches` mirror the notebook's constructors and only feed repr().
// Tensor and sequence parallelism (docs/simulation.md, "Tensor and sequence parallelism"):
// - `slice`: a Weight, OptState or WeightGrad whose shards of total are a tensor-parallel slice,
//   which forward and backward use as it is (a ZeRO shard must be all-gathered first).
// - `partial`: an Activation or ActivationGrad that is one rank's term of a sum over the tensor
//   group (full size); only a collective over that group (of `total` ranks) may take it.
// - An Activation or ActivationGrad with total > 1 and not partial is a sequence shard: it holds
//   the shards of total of every batch's sequence (memory |shards| / total).
// - `block`: an Activation or ActivationGrad of a tensor-parallel layer between its attention
//   and its MLP block is at block 1 (else 0); a sliced WeightGrad covers the blocks of the mask
//   `block` (1 attention, 2 MLP, 3 both; 0 for every other one).
// Context parallelism (docs/simulation.md, "Context parallelism"):
// - `context` on an Activation, ActivationGrad or KeysValues: it holds the sequence chunks
//   `shards` of `total` (the context group's size; memory |shards| / total); on a WeightGrad: one
//   rank's term of a sum over its context group, which update refuses until it is summed.
// - KeysValues: layer, batches, the chunks whose keys and values it holds; a layer's attention on
//   a chunk needs every chunk's.
struct Object {
    // The ints side by side, then the sets (one word each): 40 bytes (a long run records millions).
    // The tensor-parallel bits and the expert sit in the padding after `kind`.
    ObjectKind kind = ObjectKind::Weight;
    bool slice : 1 = false;
    bool partial : 1 = false;
    unsigned block : 2 = 0;
    bool context : 1 = false;
    // Weight, OptState, WeightGrad of a mixture-of-experts layer: which expert's (-1: a dense
    // layer's). Beside the kind, where it costs no byte (docs/simulation.md, "Expert parallelism").
    std::int16_t expert = -1;
    int layer = 0;
    int layers = 1;
    int step = 0;
    int totalBatches = 1;
    int total = 1;
    IndexSet batches;
    IndexSet shards;

    bool isComplete() const;      // holds every shard (always true for activations)
    bool isSequenceShard() const; // an activation (gradient) holding a part of the sequence
    bool isContextChunk() const;  // an activation (gradient) of a context group's sequence chunk
    bool operator==(const Object &other) const = default;
};
static_assert(sizeof(Object) <= 40, "a long run records millions of objects");

// Inline, as isComplete() and memoryOf() below: each operation asks them a few times.
inline bool hasShards(ObjectKind kind)
{
    return kind == ObjectKind::Weight || kind == ObjectKind::OptState ||
           kind == ObjectKind::WeightGrad;
}
inline bool hasBatches(ObjectKind kind)
{
    return kind == ObjectKind::Activation || kind == ObjectKind::ActivationGrad ||
           kind == ObjectKind::WeightGrad || kind == ObjectKind::KeysValues;
}
inline bool Object::isComplete() const
{
    return !hasShards(kind) || shards.isPrefix(total);
}
inline bool Object::isSequenceShard() const
{
    return !hasShards(kind) && !partial && !context && total > 1;
}
inline bool Object::isContextChunk() const
{
    return context && (kind == ObjectKind::Activation || kind == ObjectKind::ActivationGrad);
}
// The two blocks of a tensor-parallel layer (attention, then MLP) as a WeightGrad's mask.
inline constexpr std::uint8_t kBothBlocks = 3;
// The notebook's class name: "Weight", "OptState", "Activation", "ActivationGrad", "WeightGrad".
const char *kindName(ObjectKind kind);
// Plain words for messages: "weight", "optimizer state", "activation", ...
const char *kindWords(ObjectKind kind);
// Like the notebook's dataclass repr: "WeightGrad(layer=0, batches={2, 3}, shards={0}, total=1)".
std::string describe(const Object &object);

// Byte sizes of the simulated model (docs/simulation.md: HIDDEN = 512, LENGTH = 256). A
// real-scale cost model (docs/cost-models.md) gives each kind's bytes for one whole layer (and
// an activation's for one batch) instead; 0 keeps the notebook's rule.
struct Sizes {
    std::int64_t hidden = 512;
    std::int64_t length = 256;
    std::int64_t weightBytes = 0;     // a whole layer's weights
    std::int64_t gradientBytes = 0;   // a whole layer's weight gradient
    std::int64_t optimizerBytes = 0;  // a whole layer's optimizer state
    std::int64_t activationBytes = 0; // one batch's activation (and activation gradient)
    // Korthikanti et al. (2022) at real scale: the part of activationBytes that tensor
    // parallelism divides (0: none), and the run's tensor degree (set by the engine and the
    // trace readers where that part is not 0).
    std::int64_t activationTensorBytes = 0;
    int tensor = 1;
    bool operator==(const Sizes &) const = default;
};

// A tensor-parallel layer keeps its activations at its two blocks' inputs, half the layer's each
// (Korthikanti et al., 2022, Table 2): whole, the part tensor parallelism divides over `tensor`
// ranks and the rest; a sequence shard, its share of all of it.
inline std::int64_t keptActivationBytes(const Object &object, const Sizes &sizes)
{
    const std::int64_t batches = std::int64_t(object.batches.size());
    const std::int64_t divided = sizes.activationTensorBytes;
    if (object.isSequenceShard() ||
        (object.context && object.total > 1)) // a trace's total may be 0
        return (object.kind == ObjectKind::KeysValues ? 2 : 1) * batches * sizes.activationBytes *
               std::int64_t(object.shards.size()) / (2 * std::int64_t(object.total));
    return batches * (sizes.activationBytes - divided + divided / sizes.tensor) / 2;
}

// Below this, 2 * numerator + total and 2 * total of memoryOf() fit in 32 bits.
inline constexpr std::int64_t kMostDividedIn32Bits = (std::int64_t(1) << 30) - 1;

// Weight-like objects: hidden^2 (or the kind's bytes) * |shards| / total, rounded to the nearest
// unit when total does not divide it; a sliced WeightGrad of one block half that. Activation-like:
// |batches| * hidden * length (or |batches| * activationBytes), a sequence shard's or a context
// chunk's |shards| / total of it (a partial one is full size); keys and values twice that.
inline std::int64_t memoryOf(const Object &object, const Sizes &sizes)
{
    if (hasBatches(object.kind) && object.kind != ObjectKind::WeightGrad) {
        if (sizes.activationTensorBytes > 0 && sizes.tensor > 1)
            return keptActivationBytes(object, sizes);
        // Keys and values: two tensors of an activation's size each (multi-head attention).
        const std::int64_t whole =
            (object.kind == ObjectKind::KeysValues ? 2 : 1) * std::int64_t(object.batches.size()) *
            (sizes.activationBytes > 0 ? sizes.activationBytes : sizes.hidden * sizes.length);
        if (object.partial || object.total <= 1)
            return whole;
        return (2 * whole * std::int64_t(object.shards.size()) + object.total) /
               (2 * std::int64_t(object.total));
    }
    const std::int64_t kindBytes = object.kind == ObjectKind::Weight     ? sizes.weightBytes
                                   : object.kind == ObjectKind::OptState ? sizes.optimizerBytes
                                                                         : sizes.gradientBytes;
    const std::int64_t whole = kindBytes > 0 ? kindBytes : sizes.hidden * sizes.hidden;
    const bool oneBlock = object.slice && object.block != 0 && object.block != kBothBlocks;
    const std::int64_t numerator = whole * std::int64_t(object.shards.size());
    const std::int64_t total = (object.total > 0 ? object.total : 1) * (oneBlock ? 2 : 1);
    // The same quotient without a 64-bit division where it can do without: perf put a third of
    // Storage::set's samples on it, the engine's hottest path. A whole object (total 1) needs none;
    // the notebook's sizes fit a 32-bit one.
    if (numerator >= 0 && total == 1)
        return numerator;
    if (numerator >= 0 && numerator <= kMostDividedIn32Bits && total <= kMostDividedIn32Bits)
        return std::uint32_t(2 * numerator + total) / std::uint32_t(2 * total);
    return (2 * numerator + total) / (2 * total);
}

} // namespace rankstep::core
