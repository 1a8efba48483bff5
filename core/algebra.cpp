// SPDX-License-Identifier: MIT
#include "algebra.h"

#include "sentences.h"

namespace rankstep::core {
namespace {

Error checkError(std::string message)
{
    return Error{ErrorKind::Check, -1, 0, std::move(message)};
}

std::string shardsOf(const Object &object)
{
    return say(sentence::kShardsOf, {formatSet(object.shards), std::to_string(object.total)});
}

} // namespace

Status addGradientsInto(Object &a, const Object &b, IndexSet *overlap)
{
    if (a.kind != ObjectKind::WeightGrad || b.kind != ObjectKind::WeightGrad)
        return checkError(
            say(sentence::kAddsWeightGrads, {aKindPhrase(a.kind), aKindPhrase(b.kind)}));
    if (a.layer != b.layer)
        return checkError(
            say(sentence::kAddSameLayer, {std::to_string(a.layer), std::to_string(b.layer)}));
    if (a.shards != b.shards || a.total != b.total)
        return checkError(
            say(sentence::kAddSameShards, {formatSet(a.shards), std::to_string(a.total),
                                           formatSet(b.shards), std::to_string(b.total)}));
    if (a.slice != b.slice)
        return checkError(say(sentence::kSliceMixed, {"add", describe(a), describe(b)}));
    if (a.context != b.context)
        return checkError(say(sentence::kContextMixed, {"add"}));
    // The gradients of a slice's two blocks add up to the slice's: no batch counted twice.
    if (a.slice && (a.block & b.block) == 0) {
        if (overlap)
            *overlap = IndexSet{};
        a.block = (a.block | b.block) & 3U;
        a.batches |= b.batches;
        return okStatus();
    }
    if (overlap)
        *overlap = a.batches & b.batches;
    a.batches |= b.batches;
    return okStatus();
}

Result<Object> addGradients(const Object &a, const Object &b, IndexSet *overlap)
{
    Object sum = a;
    if (Status s = addGradientsInto(sum, b, overlap); !s)
        return s.error();
    return sum;
}

Status combineInto(Object &a, const Object &b)
{
    if (!hasShards(a.kind))
        return checkError(say(sentence::kCombineKinds, {aKindPhrase(a.kind)}));
    if (a.kind != b.kind)
        return checkError(
            say(sentence::kCombineOneKind, {aKindPhrase(a.kind), aKindPhrase(b.kind)}));
    if (a.layer != b.layer)
        return checkError(
            say(sentence::kCombineSameLayer,
                {kindsPhrase(a.kind), std::to_string(a.layer), std::to_string(b.layer)}));
    if (a.total != b.total)
        return checkError(
            say(sentence::kCombineSameSplit, {std::to_string(a.total), std::to_string(b.total)}));
    // The result claims every shard at one step and of one set of batches: a shard of another
    // step (not updated) or of other batches (whose gradient it does not hold) would be claimed
    // as what it is not, an update or a sum no rank made.
    if (a.kind != ObjectKind::WeightGrad && a.step != b.step)
        return checkError(
            say(sentence::kCombineSameStep,
                {kindsPhrase(a.kind), std::to_string(a.step), std::to_string(b.step)}));
    if (a.kind == ObjectKind::WeightGrad && a.batches != b.batches)
        return checkError(
            say(sentence::kCombineSameBatches, {formatSet(a.batches), formatSet(b.batches)}));
    if (a.slice != b.slice || a.expert != b.expert || a.context != b.context ||
        a.block != b.block || a.partial != b.partial)
        return checkError(say(sentence::kCombineSameParts, {describe(a), describe(b)}));
    a.shards |= b.shards;
    return okStatus();
}

Result<Object> combine(const Object &a, const Object &b)
{
    Object joined = a;
    if (Status s = combineInto(joined, b); !s)
        return s.error();
    return joined;
}

Status sumPartialInto(Object &a, const Object &b, bool overTensorGroup)
{
    if (a.kind != b.kind || a.layer != b.layer || a.block != b.block || a.batches != b.batches ||
        a.total != b.total || a.partial != b.partial)
        return checkError(
            say(sentence::kPartialsDiffer, {describe(b), describe(a), kindWords(a.kind)}));
    // Each member's term comes from its own slice: a group that holds one slice twice (the
    // data-parallel group, say) does not sum the layer's output.
    if (!(a.shards & b.shards).empty())
        return checkError(say(overTensorGroup ? sentence::kPartialsSameSliceTensorGroup
                                              : sentence::kPartialsSameSlice,
                              {shardsOf(b)}));
    a.shards |= b.shards;
    return okStatus();
}

Status gatherSequenceInto(Object &a, const Object &b)
{
    if (a.kind != b.kind || a.layer != b.layer || a.block != b.block || a.batches != b.batches ||
        a.total != b.total || !b.isSequenceShard())
        return checkError(
            say(sentence::kPartialsDiffer, {describe(b), describe(a), kindWords(a.kind)}));
    a.shards |= b.shards;
    return okStatus();
}

Result<Object> shard(const Object &x, int index, int total)
{
    // An activation (gradient) whole on every rank of a tensor group: each keeps its part of the
    // sequence, no communication needed (sequence parallelism).
    const bool sequence = hasBatches(x.kind) && !hasShards(x.kind) && !x.partial && x.total <= 1;
    if (!hasShards(x.kind) && !sequence)
        return checkError(say(sentence::kShardKinds, {aKindPhrase(x.kind)}));
    if (total < 1 || index < 0 || index >= total)
        return checkError(
            say(sentence::kShardOfNotExist, {std::to_string(index), std::to_string(total)}));
    if (!x.isComplete())
        return checkError(say(sentence::kShardNeedsComplete, {kindWords(x.kind), shardsOf(x)}));
    Object piece = x;
    piece.shards = sequence && total == 1 ? IndexSet{} : IndexSet{index};
    piece.total = total;
    return piece;
}

} // namespace rankstep::core
