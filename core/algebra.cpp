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
    a.shards |= b.shards;
    if (a.kind == ObjectKind::WeightGrad)
        a.batches |= b.batches;
    return okStatus();
}

Result<Object> combine(const Object &a, const Object &b)
{
    Object joined = a;
    if (Status s = combineInto(joined, b); !s)
        return s.error();
    return joined;
}

Result<Object> shard(const Object &x, int index, int total)
{
    if (!hasShards(x.kind))
        return checkError(say(sentence::kShardKinds, {aKindPhrase(x.kind)}));
    if (total < 1 || index < 0 || index >= total)
        return checkError(
            say(sentence::kShardOfNotExist, {std::to_string(index), std::to_string(total)}));
    if (!x.isComplete())
        return checkError(say(sentence::kShardNeedsComplete, {kindWords(x.kind), shardsOf(x)}));
    Object piece = x;
    piece.shards = IndexSet{index};
    piece.total = total;
    return piece;
}

} // namespace rankstep::core
