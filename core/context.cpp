// SPDX-License-Identifier: MIT
// Engine: context parallelism (docs/simulation.md, "Context parallelism"). A context group splits
// each sequence into chunks, one a rank; a layer's attention on a chunk needs the keys and values
// of every chunk, which travel around the group's ring, and a chunk's weight gradient is summed
// over the group before an update.
#include "engine.h"
#include "layout.h"
#include "sentences.h"

namespace rankstep::core {
int Engine::contextChunk(int rank) const
{
    return RankLayout(ranks(), config().layout).coords(rank).context;
}

void Engine::makeContextChunk(int rank, Object &activation) const
{
    const int degree = config().layout.context;
    if (degree <= 1)
        return;
    activation.context = true;
    activation.shards = IndexSet{contextChunk(rank)};
    activation.total = degree;
}

// A chunk computes 1/C of its layer: its own queries against every chunk's keys and values.
SimTime Engine::chunkTime(SimTime perBatch, const Object &activation) const
{
    const std::int64_t work = perBatch.ticks() * std::int64_t(activation.batches.size());
    if (!activation.isContextChunk())
        return SimTime::fromTicks(work);
    return SimTime::fromTicks(work * std::int64_t(activation.shards.size()) /
                              std::int64_t(activation.total));
}

Result<Object> Engine::keysValues(CallSite at, int layer, const Object &activation,
                                  const Object &weight)
{
    if (auto s = admit(at, "keys_values"); !s)
        return s.error();
    const CallName op{"keys_values", layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, say(sentence::kArgumentMustBe,
                                  {op.str(), sentence::kSecond, sentence::kAnActivation,
                                   aKindPhrase(activation.kind)}));
    if (auto s = checkWhole(at, op, activation); !s)
        return s.error();
    if (!activation.isContextChunk())
        return checkError(at, say(sentence::kKvWholeSequence, {op.str()}));
    if (activation.layer != layer)
        return checkError(at, say(sentence::kActivationOfOtherLayer,
                                  {op.str(), std::to_string(activation.layer), "keys_values",
                                   std::to_string(layer), std::to_string(layer)}));
    if (weight.kind != ObjectKind::Weight)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kThird, sentence::kAWeight, aKindPhrase(weight.kind)}));
    if (weight.layer != layer)
        return checkError(at, say(sentence::kWeightOfOtherLayer,
                                  {op.str(), std::to_string(weight.layer), "keys_values",
                                   std::to_string(layer), std::to_string(layer)}));
    if (weight.slice)
        return checkError(at, say(sentence::kContextSlice, {op.str()}));
    if (!weight.isComplete())
        return checkError(
            at,
            say(sentence::kWeightIncomplete,
                {op.str(),
                 say(sentence::kShardsOf, {formatSet(weight.shards), std::to_string(weight.total)}),
                 "keys_values"}));
    // The projection is the first matrix of the layer's forward: its time is the forward's.
    Object kv = activation;
    kv.kind = ObjectKind::KeysValues;
    return kv;
}

// forward and backward on a chunk: every chunk's keys and values of this layer and these batches,
// each once. On a whole sequence no keys and values may be given.
Status Engine::checkKeysValues(CallSite at, const CallName &op, int layer, const Object &activation,
                               const Object &weight, const std::vector<Object> *kv) const
{
    const bool given = kv && !kv->empty();
    if (!activation.isContextChunk())
        return given ? checkError(at, say(sentence::kKvWholeSequence, {op.str()})) : okStatus();
    if (weight.slice)
        return checkError(at, say(sentence::kContextSlice, {op.str()}));
    if (!given)
        return checkError(
            at, say(sentence::kKvNone, {op.str(), std::to_string(layer), kindWords(activation.kind),
                                        std::to_string(at.rank), formatSet(activation.shards)}));
    IndexSet held;
    for (const Object &piece : *kv) {
        if (piece.kind != ObjectKind::KeysValues)
            return checkError(at,
                              say(sentence::kKvNotKeysValues, {op.str(), aKindPhrase(piece.kind)}));
        if (piece.layer != layer)
            return checkError(at, say(sentence::kKvOtherLayer,
                                      {op.str(), formatSet(piece.shards),
                                       std::to_string(piece.layer), std::to_string(layer)}));
        if (piece.batches != activation.batches || piece.total != activation.total)
            return checkError(at, say(sentence::kKvOtherBatches,
                                      {op.str(), formatSet(piece.shards),
                                       describeSet(piece.batches, "batch", "batches"),
                                       describeSet(activation.batches, "batch", "batches")}));
        if (const IndexSet twice = held & piece.shards; !twice.empty())
            return checkError(at, say(sentence::kKvTwice, {op.str(), formatSet(twice)}));
        held |= piece.shards;
    }
    if (!held.isPrefix(activation.total))
        return checkError(
            at, say(sentence::kKvMissing,
                    {op.str(), std::to_string(layer), std::to_string(at.rank), formatSet(held),
                     formatSet(IndexSet::range(0, activation.total))}));
    return okStatus();
}

// An all-reduce (or reduce-scatter) of chunks' weight gradients sums the sequence when its group
// holds each member's whole context group; then the sum is whole.
Status Engine::checkContextSum(const Collective &collective, Object &total) const
{
    const std::vector<int> &members = m_groups[std::size_t(collective.groupId)];
    const CallName call{collective.op, collective.layer};
    const IndexSet inGroup = IndexSet::fromVector(members);
    const RankLayout layout(ranks(), config().layout);
    for (std::size_t i = 0; i < members.size(); ++i) {
        const Arrival &arrival = collective.arrivals[i];
        const Object &value = std::get<Object>(arrival.value);
        if (value.context != total.context)
            return Error{ErrorKind::Check, members[i], arrival.line,
                         say(sentence::kContextMixed, {call.str()})};
        const IndexSet lacking =
            IndexSet::fromVector(layout.group(members[i], Axis::Context)).minus(inGroup);
        if (!lacking.empty())
            return Error{
                ErrorKind::Check, members[i], arrival.line,
                say(sentence::kContextWrongGroup, {call.str(), std::to_string(members[i]),
                                                   describeSet(lacking, "rank", "ranks")})};
    }
    total.context = false;
    return okStatus();
}

} // namespace rankstep::core
