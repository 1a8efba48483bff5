// SPDX-License-Identifier: MIT
#include "algebra.h"

namespace rankstep::core {
namespace {

Error checkError(std::string message)
{
    return Error{ErrorKind::Check, -1, 0, std::move(message)};
}

} // namespace

Status addGradientsInto(Object &a, const Object &b, IndexSet *overlap)
{
    if (a.kind != ObjectKind::WeightGrad || b.kind != ObjectKind::WeightGrad)
        return checkError(std::string("+ adds weight gradients, but got a ") + kindWords(a.kind) +
                          " and a " + kindWords(b.kind));
    if (a.layer != b.layer)
        return checkError("+ needs weight gradients of the same layer, but got layers " +
                          std::to_string(a.layer) + " and " + std::to_string(b.layer));
    if (a.shards != b.shards || a.total != b.total)
        return checkError("+ needs weight gradients of the same shards, but got shards " +
                          formatSet(a.shards) + " of " + std::to_string(a.total) + " and " +
                          formatSet(b.shards) + " of " + std::to_string(b.total));
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
        return checkError(std::string("combine joins shards of weights, optimizer states or "
                                      "weight gradients, not of a ") +
                          kindWords(a.kind));
    if (a.kind != b.kind)
        return checkError(std::string("combine needs two objects of one kind, but got a ") +
                          kindWords(a.kind) + " and a " + kindWords(b.kind));
    if (a.layer != b.layer)
        return checkError(std::string("combine needs ") + kindWords(a.kind) +
                          "s of the same layer, but got layers " + std::to_string(a.layer) +
                          " and " + std::to_string(b.layer));
    if (a.total != b.total)
        return checkError("combine needs shards of the same split, but got shards of " +
                          std::to_string(a.total) + " and of " + std::to_string(b.total));
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
        return checkError(std::string("only weights, optimizer states and weight gradients can be "
                                      "sharded, not a ") +
                          kindWords(x.kind));
    if (total < 1 || index < 0 || index >= total)
        return checkError("shard " + std::to_string(index) + " of " + std::to_string(total) +
                          " does not exist: shards run from 0 to total - 1");
    if (!x.isComplete())
        return checkError(std::string("shard needs a complete ") + kindWords(x.kind) +
                          ", but this one holds only shards " + formatSet(x.shards) + " of " +
                          std::to_string(x.total));
    Object piece = x;
    piece.shards = IndexSet{index};
    piece.total = total;
    return piece;
}

} // namespace rankstep::core
