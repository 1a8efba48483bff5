// SPDX-License-Identifier: MIT
// Engine: context parallelism (docs/simulation.md, "Context parallelism"). A context group splits
// each sequence into chunks, one a rank; a layer's attention on a chunk needs the keys and values
// of every chunk, which travel around the group's ring, and a chunk's weight gradient is summed
// over the group before an update.
#include "attention.h"
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

// forward and backward on a chunk: keys and values of this layer and these batches, each chunk
// once, counting those an unfinished attention continued here has seen (`before`). Gives every
// chunk seen after the call. On a whole sequence no keys and values may be given.
Result<IndexSet> Engine::checkKeysValues(CallSite at, const CallName &op, int layer,
                                         const Object &activation, const Object &weight,
                                         const std::vector<Object> *kv,
                                         const IndexSet &before) const
{
    const bool given = kv && !kv->empty();
    if (!activation.isContextChunk()) {
        if (given)
            return checkError(at, say(sentence::kKvWholeSequence, {op.str()}));
        return IndexSet{};
    }
    if (weight.slice)
        return checkError(at, say(sentence::kContextSlice, {op.str()}));
    if (!given)
        return checkError(
            at, say(sentence::kKvNone, {op.str(), std::to_string(layer), kindWords(activation.kind),
                                        std::to_string(at.rank), formatSet(activation.shards)}));
    IndexSet held = before;
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
    // An unfinished attention keeps its chunks as bits (core/objects.h).
    if (!held.isPrefix(activation.total) && activation.total > kMostAttendedChunks)
        return checkError(
            at, say(sentence::kAttentionTooManyChunks, {op.str(), std::to_string(activation.total),
                                                        std::to_string(kMostAttendedChunks)}));
    return held;
}

namespace {

// The chunks an unfinished attention has seen, as its `step` (core/objects.h); 0 when they are
// every chunk of `total`.
int attendedMask(const IndexSet &held, int total)
{
    if (held.isPrefix(total))
        return 0;
    std::uint32_t mask = 0;
    for (int chunk : held.toVector())
        mask |= std::uint32_t(1) << chunk;
    return int(mask);
}

// The layer whose attention left an unfinished output: a forward's output is at layer + 1, a
// backward's input gradient at layer - 1, its weight gradient at the layer itself.
int attentionLayer(const Object &object)
{
    switch (object.kind) {
        case ObjectKind::Activation:
            return object.layer - 1;
        case ObjectKind::ActivationGrad:
            return object.layer + 1;
        default:
            return object.layer;
    }
}

bool continues(const Object &soFar, ObjectKind kind, int layer, const IndexSet &batches)
{
    return soFar.kind == kind && isUnfinishedAttention(soFar) && soFar.layer == layer &&
           soFar.batches == batches;
}

} // namespace

// A forward continued with so_far: what an unfinished forward of this layer and chunk gave.
Result<IndexSet> Engine::forwardSoFar(CallSite at, const CallName &op, int layer,
                                      const Object &activation, const Object *soFar) const
{
    if (!soFar)
        return IndexSet{};
    if (!activation.isContextChunk())
        return checkError(at, say(sentence::kKvWholeSequence, {op.str()}));
    if (!continues(*soFar, ObjectKind::Activation, layer + 1, activation.batches) ||
        soFar->shards != activation.shards || soFar->total != activation.total)
        return checkError(at, say(sentence::kSoFarNotUnfinished,
                                  {op.str(), "forward", std::to_string(layer), describe(*soFar)}));
    return attendedChunks(*soFar);
}

// A backward continued with so_far: the (weight gradient, input gradient) an unfinished backward
// of this layer and chunk gave.
Result<IndexSet> Engine::backwardSoFar(CallSite at, const CallName &op, int layer,
                                       const Object &activation, const Object &grad,
                                       const std::pair<Object, Object> *soFar) const
{
    if (!soFar)
        return IndexSet{};
    if (!activation.isContextChunk())
        return checkError(at, say(sentence::kKvWholeSequence, {op.str()}));
    const auto &[weightGrad, gradIn] = *soFar;
    if (!continues(weightGrad, ObjectKind::WeightGrad, layer, activation.batches) ||
        !continues(gradIn, ObjectKind::ActivationGrad, layer - 1, grad.batches) ||
        gradIn.shards != grad.shards || gradIn.total != grad.total ||
        gradIn.step != weightGrad.step) {
        std::string given = "(";
        given.append(describe(weightGrad)).append(", ").append(describe(gradIn)).append(")");
        return checkError(at, say(sentence::kSoFarNotUnfinished,
                                  {op.str(), "backward", std::to_string(layer), given}));
    }
    return attendedChunks(gradIn);
}

// The chunks' keys and values seen so far, on a forward's or backward's output.
void Engine::markAttended(Object &out, const IndexSet &held, int total)
{
    out.step = attendedMask(held, total);
}

// A chunk's attention on `before` then `after` chunks' keys and values costs the difference of
// their shares of the chunk's whole time: the calls of one attention add up to it exactly.
SimTime Engine::attentionTime(SimTime perBatch, const Object &activation, int before,
                              int after) const
{
    if (!activation.isContextChunk())
        return chunkTime(perBatch, activation);
    const std::int64_t work = perBatch.ticks() * std::int64_t(activation.batches.size()) *
                              std::int64_t(activation.shards.size());
    const std::int64_t square = std::int64_t(activation.total) * std::int64_t(activation.total);
    return SimTime::fromTicks(work * after / square - work * before / square);
}

// An unfinished attention's output is refused wherever it is used but to continue it.
Status Engine::checkAttended(CallSite at, const CallName &use, const Object &object) const
{
    if (!isUnfinishedAttention(object))
        return okStatus();
    const IndexSet seen = attendedChunks(object);
    return checkError(at, say(sentence::kKvMissing,
                              {use.str(), std::to_string(attentionLayer(object)),
                               std::to_string(at.rank), formatSet(seen),
                               formatSet(IndexSet::range(0, config().layout.context).minus(seen)),
                               object.kind == ObjectKind::Activation ? "forward" : "backward"}));
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
