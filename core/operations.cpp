// SPDX-License-Identifier: MIT
// Engine: the per-rank operations of docs/simulation.md (load_weights, get_activation, forward,
// backward and its two halves, loss, update, fake_grad, set_final_weight), each with every check.
#include "attention.h"
#include "engine.h"
#include "sentences.h"

#include <algorithm>
#include <string_view>

namespace rankstep::core {
namespace {

std::string article(ObjectKind kind)
{
    return aKindPhrase(kind);
}

std::string shardsText(const Object &object)
{
    return say(sentence::kShardsOf, {formatSet(object.shards), std::to_string(object.total)});
}

// A weight shard where the whole weight is needed: in a run with tensor groups the learner most
// likely meant a slice (load_weights without split="tensor"), so the sentence says how to load one.
const char *incompleteWeightSentence(const RunConfig &run)
{
    return run.layout.tensor > 1 ? sentence::kWeightIncompleteNotSlice
                                 : sentence::kWeightIncomplete;
}

// "layer 3's input", "layer 3 after its attention block": where an activation of a
// tensor-parallel layer stands.
std::string placeText(int layer, int block)
{
    return say(block == 0 ? sentence::kAtLayerInput : sentence::kAfterAttention,
               {std::to_string(layer)});
}

// A block of a tensor-parallel layer on a slice of `total` costs its share of the layer's time.
SimTime blockTime(SimTime perBatch, std::size_t batches, int total)
{
    return SimTime::fromTicks(perBatch.ticks() * std::int64_t(batches) / (2 * std::int64_t(total)));
}

} // namespace

template <typename SoFar>
Result<Engine::ChunksSeen> Engine::chunksSeen(CallSite at, const CallName &op, int layer,
                                              const Object &activation, const Object &weight,
                                              const std::vector<Object> *kv, bool continued,
                                              const SoFar &soFar) const
{
    if (!activation.context && !kv && !continued) [[likely]]
        return ChunksSeen{};
    Result<IndexSet> seen = soFar();
    if (!seen)
        return seen.error();
    Result<IndexSet> after = checkKeysValues(at, op, layer, activation, weight, kv, *seen);
    if (!after)
        return after.error();
    return ChunksSeen{std::move(*seen), std::move(*after)};
}

Status Engine::checkWhole(CallSite at, const CallName &op, const Object &object) const
{
    if (isUnfinishedAttention(object))
        return checkAttended(at, op, object);
    if (object.partial)
        return checkError(
            at, say(sentence::kPartialUsed, {op.str(), std::to_string(object.layer),
                                             kindWords(object.kind), std::to_string(at.rank)}));
    if (object.isSequenceShard())
        return checkError(at, say(sentence::kSequenceShardUsed,
                                  {op.str(), std::to_string(object.layer), kindWords(object.kind),
                                   std::to_string(at.rank), shardsText(object)}));
    return okStatus();
}

// A gradient at a layer's output runs its MLP block backward, which took the activation after
// the attention block; a gradient after the attention block runs the attention block, which
// took the layer's input.
Status Engine::checkBlock(CallSite at, const CallName &op, int layer, const Object &activation,
                          const Object &grad) const
{
    const int needed = grad.block == 0 ? 1 : 0;
    if (activation.layer == layer && activation.block == needed && grad.layer == layer)
        return okStatus();
    const std::string gradPlace =
        grad.block == 0 ? say(sentence::kAtLayerInput, {std::to_string(grad.layer + 1)})
                        : placeText(grad.layer, 1);
    return checkError(
        at, say(sentence::kBackwardBlock, {op.str(), gradPlace, placeText(layer, needed),
                                           placeText(activation.layer, activation.block)}));
}

Result<std::pair<Object, Object>> Engine::loadWeights(CallSite at, int layer, int shardIndex,
                                                      int total, bool slice, int expert)
{
    if (auto s = admit(at, "load_weights"); !s)
        return s.error();
    const CallName op{"load_weights", layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (total < 1 || shardIndex < 0 || shardIndex >= total)
        return checkError(at, say(sentence::kShardNotExist,
                                  {op.str(), std::to_string(shardIndex), std::to_string(total)}));
    if (expert != -1)
        if (auto s = checkExpertLoad(at, op, expert); !s)
            return s.error();
    Object weight;
    weight.kind = ObjectKind::Weight;
    weight.layer = layer;
    weight.layers = config().layers;
    weight.shards = IndexSet{shardIndex};
    weight.total = total;
    weight.slice = slice;
    weight.expert = std::int16_t(expert);
    Object opt = weight;
    opt.kind = ObjectKind::OptState;
    return std::make_pair(std::move(weight), std::move(opt));
}

Result<Object> Engine::getActivation(CallSite at, const IndexSet &batches)
{
    if (auto s = admit(at, "get_activation"); !s)
        return s.error();
    if (auto s = checkBatches(at, "get_activation", batches); !s)
        return s.error();
    Object activation;
    activation.kind = ObjectKind::Activation;
    activation.layer = 0;
    activation.layers = config().layers;
    activation.batches = batches;
    activation.totalBatches = config().batches;
    makeContextChunk(at.rank, activation); // a context group's rank holds its chunk only
    return activation;
}

Result<Object> Engine::forward(CallSite at, int layer, const Object &activation,
                               const Object &weight, const std::vector<Object> *kv,
                               const Object *soFar)
{
    if (auto s = admit(at, "forward"); !s)
        return s.error();
    const CallName op{OpKind::Forward, layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, say(sentence::kArgumentMustBe,
                                  {op.str(), sentence::kSecond, sentence::kAnActivation,
                                   article(activation.kind)}));
    if (auto s = checkWhole(at, op, activation); !s)
        return s.error();
    if (weight.kind != ObjectKind::Weight)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kThird, sentence::kAWeight, article(weight.kind)}));
    if (weight.layer != layer)
        return checkError(at, say(sentence::kWeightOfOtherLayer,
                                  {op.str(), std::to_string(weight.layer), "forward",
                                   std::to_string(layer), std::to_string(layer)}));
    if (!weight.slice && !weight.isComplete())
        return checkError(
            at, say(incompleteWeightSentence(config()), {op.str(), shardsText(weight), "forward"}));
    if (activation.layer != layer)
        return checkError(at, say(sentence::kActivationOfOtherLayer,
                                  {op.str(), std::to_string(activation.layer), "forward",
                                   std::to_string(layer), std::to_string(layer)}));
    if (auto s = checkExpertTokens(at, op, weight, activation.batches); !s)
        return s.error();
    if (weight.expert < 0 && !m_ranks[std::size_t(at.rank)].tokensAway.empty())
        if (auto s = checkTokensHome(at, op, activation.batches); !s)
            return s.error();
    // Context parallelism: the chunks an unfinished attention continued here had seen, and all
    // it has seen after this call.
    Result<ChunksSeen> chunks =
        chunksSeen(at, op, layer, activation, weight, kv, soFar != nullptr,
                   [&] { return forwardSoFar(at, op, layer, activation, soFar); });
    if (!chunks)
        return chunks.error();
    const IndexSet &before = chunks->before;
    const IndexSet &held = chunks->after;
    // A slice runs one block: its column-parallel then its row-parallel matrix, which leaves
    // every rank one term of the block's output.
    const bool slice = weight.slice;
    Event &event = recordEvent(
        at, OpKind::Forward, layer,
        slice
            ? blockTime(config().cost.forwardPerBatch, activation.batches.size(), weight.total)
            : attentionTime(config().cost.forwardPerBatch, activation, before.size(), held.size()));
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    Object out = activation;
    if (!slice) {
        out.layer = layer + 1;
        out.block = 0;
        if (activation.isContextChunk())
            markAttended(out, held, activation.total);
        return out;
    }
    out.partial = true;
    out.shards = weight.shards; // the slice the term comes from
    out.total = weight.total;
    out.layer = activation.block == 0 ? layer : layer + 1;
    out.block = activation.block == 0 ? 1 : 0;
    return out;
}

// The checks of backward and of its two halves (docs/simulation.md): `weight` is null for
// backward_weight, which computes the weight's gradient from the activation and the output
// gradient alone.
Status Engine::checkBackward(CallSite at, const CallName &op, const char *call, int layer,
                             const Object &activation, const Object &grad,
                             const Object *weight) const
{
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, say(sentence::kArgumentMustBe,
                                  {op.str(), sentence::kSecond, sentence::kAnActivation,
                                   article(activation.kind)}));
    if (grad.kind != ObjectKind::ActivationGrad)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kThird, sentence::kAnActivationGrad, article(grad.kind)}));
    for (const Object *whole : {&activation, &grad})
        if (auto s = checkWhole(at, op, *whole); !s)
            return s.error();
    if (std::string_view(call) != "backward" &&
        (activation.isContextChunk() || grad.isContextChunk()))
        return checkError(at, say(sentence::kContextSplitBackward, {op.str()}));
    if (weight) {
        if (weight->kind != ObjectKind::Weight)
            return checkError(
                at, say(sentence::kArgumentMustBe,
                        {op.str(), sentence::kFourth, sentence::kAWeight, article(weight->kind)}));
        if (weight->layer != layer)
            return checkError(at, say(sentence::kWeightOfOtherLayer,
                                      {op.str(), std::to_string(weight->layer), call,
                                       std::to_string(layer), std::to_string(layer)}));
        if (!weight->slice && !weight->isComplete())
            return checkError(
                at, say(incompleteWeightSentence(config()), {op.str(), shardsText(*weight), call}));
        if (auto s = checkExpertTokens(at, op, *weight, activation.batches); !s)
            return s.error();
        if (weight->expert < 0 && !m_ranks[std::size_t(at.rank)].tokensAway.empty())
            for (const IndexSet *batches : {&activation.batches, &grad.batches})
                if (auto s = checkTokensHome(at, op, *batches); !s)
                    return s.error();
        if (weight->slice)
            return activation.batches == grad.batches
                       ? checkBlock(at, op, layer, activation, grad)
                       : checkError(
                             at, say(sentence::kBackwardBatches,
                                     {op.str(), describeSet(activation.batches, "batch", "batches"),
                                      describeSet(grad.batches, "batch", "batches")}));
    }
    if (activation.block != 0 || grad.block != 0)
        return checkBlock(at, op, layer, activation, grad);
    if (activation.layer != layer)
        return checkError(
            at, say(sentence::kBackwardActivationLayer,
                    {op.str(), std::to_string(activation.layer), std::to_string(layer), call}));
    if (grad.layer != layer)
        return checkError(at, say(sentence::kBackwardGradLayer,
                                  {op.str(), std::to_string(grad.layer), std::to_string(layer),
                                   layer == config().layers - 1 ? std::string(sentence::kTheLoss)
                                                                : say(sentence::kBackwardAtLayer,
                                                                      {std::to_string(layer + 1)}),
                                   call}));
    if (activation.batches != grad.batches)
        return checkError(at, say(sentence::kBackwardBatches,
                                  {op.str(), describeSet(activation.batches, "batch", "batches"),
                                   describeSet(grad.batches, "batch", "batches")}));
    return okStatus();
}

Object Engine::weightGradOf(int layer, const Object &activation) const
{
    Object weightGrad;
    weightGrad.kind = ObjectKind::WeightGrad;
    weightGrad.layer = layer;
    weightGrad.layers = config().layers;
    weightGrad.batches = activation.batches;
    weightGrad.totalBatches = config().batches;
    weightGrad.shards = IndexSet{0};
    weightGrad.total = 1;
    return weightGrad;
}

// The gradient a block's backward on a slice leaves: one term of the sum over the tensor group,
// before the block (after the attention block for the MLP's, the layer's input for attention's).
Object Engine::blockGradOf(const Object &grad, const Object &weight) const
{
    Object out = grad;
    out.partial = true;
    out.shards = weight.shards; // the slice the term comes from
    out.total = weight.total;
    out.layer = grad.block == 0 ? grad.layer : grad.layer - 1;
    out.block = grad.block == 0 ? 1 : 0;
    return out;
}

// The gradient of the slice's one block: the MLP's (mask 2) from a gradient at the layer's output,
// the attention's (mask 1) from one after the attention block.
Object Engine::sliceGradOf(int layer, const Object &activation, const Object &weight) const
{
    Object out = weightGradOf(layer, activation);
    out.slice = true;
    out.shards = weight.shards;
    out.total = weight.total;
    out.block = activation.block == 1 ? 2 : 1;
    return out;
}

Result<std::pair<Object, Object>> Engine::backward(CallSite at, int layer, const Object &activation,
                                                   const Object &grad, const Object &weight,
                                                   const std::vector<Object> *kv,
                                                   const std::pair<Object, Object> *soFar)
{
    if (auto s = admit(at, "backward"); !s)
        return s.error();
    const CallName op{OpKind::Backward, layer};
    if (auto s = checkBackward(at, op, "backward", layer, activation, grad, &weight); !s)
        return s.error();
    Result<ChunksSeen> chunks =
        chunksSeen(at, op, layer, activation, weight, kv, soFar != nullptr,
                   [&] { return backwardSoFar(at, op, layer, activation, grad, soFar); });
    if (!chunks)
        return chunks.error();
    const IndexSet &before = chunks->before; // as forward's
    const IndexSet &held = chunks->after;
    Event &event = recordEvent(
        at, OpKind::Backward, layer,
        weight.slice
            ? blockTime(config().cost.backwardPerBatch, activation.batches.size(), weight.total)
            : attentionTime(config().cost.backwardPerBatch, activation, before.size(),
                            held.size()));
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    if (weight.slice)
        return std::make_pair(sliceGradOf(layer, activation, weight), blockGradOf(grad, weight));
    Object gradOut = grad;
    gradOut.layer = layer - 1;
    Object weightGrad = weightGradOf(layer, activation);
    weightGrad.expert = weight.expert; // an expert's weight has an expert's gradient
    // A chunk's gradient is its part of the sequence's: a term of a sum over the context group.
    weightGrad.context = activation.isContextChunk();
    if (weightGrad.context) {
        markAttended(weightGrad, held, activation.total);
        markAttended(gradOut, held, activation.total);
    }
    return std::make_pair(std::move(weightGrad), std::move(gradOut));
}

Result<Object> Engine::backwardInput(CallSite at, int layer, const Object &activation,
                                     const Object &grad, const Object &weight)
{
    if (auto s = admit(at, "backward_input"); !s)
        return s.error();
    const CallName op{OpKind::BackwardInput, layer};
    if (auto s = checkBackward(at, op, "backward_input", layer, activation, grad, &weight); !s)
        return s.error();
    Event &event =
        recordEvent(at, OpKind::BackwardInput, layer,
                    weight.slice ? blockTime(config().cost.backwardInputPerBatch,
                                             activation.batches.size(), weight.total)
                                 : config().cost.backwardInputPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    if (weight.slice)
        return blockGradOf(grad, weight);
    Object gradOut = grad;
    gradOut.layer = layer - 1;
    return gradOut;
}

Result<Object> Engine::backwardWeight(CallSite at, int layer, const Object &activation,
                                      const Object &grad, const Object *weight)
{
    if (auto s = admit(at, "backward_weight"); !s)
        return s.error();
    const CallName op{OpKind::BackwardWeight, layer};
    if (auto s = checkBackward(at, op, "backward_weight", layer, activation, grad, weight); !s)
        return s.error();
    const bool slice = weight && weight->slice;
    Event &event =
        recordEvent(at, OpKind::BackwardWeight, layer,
                    slice ? blockTime(config().cost.backwardWeightPerBatch,
                                      activation.batches.size(), weight->total)
                          : config().cost.backwardWeightPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = slice ? weight->shards : IndexSet{0};
    event.shardTotal = slice ? weight->total : 1;
    if (slice)
        return sliceGradOf(layer, activation, *weight);
    Object weightGrad = weightGradOf(layer, activation);
    if (weight) // an expert's weight has an expert's gradient, as backward's
        weightGrad.expert = weight->expert;
    return weightGrad;
}

Result<Object> Engine::loss(CallSite at, const Object &activation)
{
    if (auto s = admit(at, "loss"); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, say(sentence::kOnlyArgumentMustBe,
                                  {"loss", sentence::kAnActivation, article(activation.kind)}));
    if (auto s = checkWhole(at, CallName{"loss", -1}, activation); !s)
        return s.error();
    if (activation.layer != config().layers)
        return checkError(at, say(sentence::kLossNeedsOutput, {std::to_string(activation.layer),
                                                               std::to_string(config().layers)}));
    if (!m_ranks[std::size_t(at.rank)].tokensAway.empty())
        if (auto s = checkTokensHome(at, CallName{"loss", -1}, activation.batches); !s)
            return s.error();
    Event &event = recordEvent(at, OpKind::Loss, config().layers - 1, config().cost.loss);
    event.batches = activation.batches;
    Object grad = activation;
    grad.kind = ObjectKind::ActivationGrad;
    grad.layer = config().layers - 1;
    return grad;
}

Result<std::pair<Object, Object>> Engine::update(CallSite at, int layer, const Object &weightGrad,
                                                 const Object &weight, const Object &optState)
{
    if (auto s = admit(at, "update"); !s)
        return s.error();
    const CallName op{OpKind::Update, layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (weightGrad.kind != ObjectKind::WeightGrad)
        return checkError(
            at, say(sentence::kArgumentMustBe, {op.str(), sentence::kSecond, sentence::kAWeightGrad,
                                                article(weightGrad.kind)}));
    if (weight.kind != ObjectKind::Weight)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kThird, sentence::kAWeight, article(weight.kind)}));
    if (optState.kind != ObjectKind::OptState)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kFourth, sentence::kAnOptState, article(optState.kind)}));
    for (const Object *object : {&weightGrad, &weight, &optState})
        if (object->layer != layer)
            return checkError(at, say(sentence::kUpdateOtherLayer,
                                      {op.str(), kindWords(object->kind),
                                       std::to_string(object->layer), std::to_string(layer)}));
    if (auto s = checkExpertUpdate(at, op, weightGrad, weight); !s)
        return s.error();
    if (auto s = checkAttended(at, op, weightGrad); !s)
        return s.error();
    if (weightGrad.context)
        return checkError(at, say(sentence::kUpdateContextPartial, {op.str()}));
    const IndexSet all = IndexSet::range(0, config().batches);
    if (weight.expert < 0 && !all.isSubsetOf(weightGrad.batches)) {
        // Say what to do, as forward's "allgather it first" does: the other ranks hold the
        // missing batches' gradients, or (one rank) backward made them and they were not added;
        // after an allreduce that still misses some, the ranks trained on the same batches.
        const IndexSet missing = all.minus(weightGrad.batches);
        const char *hint = ranks() == 1                        ? sentence::kAddBatchesFirst
                           : summedAcrossRanks(at.rank, layer) ? sentence::kRanksCoverEveryBatch
                                                               : sentence::kAllreduceFirst;
        return checkError(at, say(missing.size() == 1 ? sentence::kUpdateMissesBatch
                                                      : sentence::kUpdateMissesBatches,
                                  {op.str(), formatSet(weightGrad.batches), formatSet(all),
                                   describeSet(missing, "batch", "batches"), hint}));
    }
    if (weightGrad.slice && weightGrad.block != kBothBlocks)
        return checkError(at, say(sentence::kUpdateOneBlock,
                                  {op.str(), weightGrad.block == 1 ? sentence::kAttentionBlock
                                                                   : sentence::kMlpBlock}));
    if (weightGrad.slice != weight.slice)
        return checkError(
            at, say(sentence::kSliceMixed, {op.str(), describe(weightGrad), describe(weight)}));
    if (!weightGrad.isComplete()) {
        for (const Object *object : {&weight, &optState})
            if (object->total != weightGrad.total || !object->shards.isSubsetOf(weightGrad.shards))
                return checkError(at, say(sentence::kUpdateShardWithoutGrad,
                                          {op.str(), kindWords(object->kind), shardsText(*object),
                                           shardsText(weightGrad)}));
    }
    // The optimizer state updates the very values of the weight it is given: both the same
    // shards (a whole weight with a shard of the state would come out whole from a shard's
    // state; docs/simulation.md, "update").
    if (weight.total != optState.total || weight.shards != optState.shards) {
        const auto holds = [](const Object &object) {
            return object.total == 1 && object.isComplete()
                       ? std::string(sentence::kIsWhole)
                       : say(sentence::kHolds, {shardsText(object)});
        };
        return checkError(at,
                          say(sentence::kUpdateShards, {op.str(), holds(weight), holds(optState)}));
    }
    if (weight.step != optState.step)
        return checkError(at, say(sentence::kUpdateSteps, {op.str(), std::to_string(weight.step),
                                                           std::to_string(optState.step)}));
    // At real scale a shard's update costs its share of the layer's (Adam is memory-bound); the
    // notebook charges any update the same.
    const CostModel &cost = config().cost;
    const SimTime updateTime =
        cost.realScale() && weight.total > 1
            ? SimTime::fromTicks(cost.update.ticks() * std::int64_t(weight.shards.size()) /
                                 weight.total)
            : cost.update;
    Event &event = recordEvent(at, OpKind::Update, layer, updateTime);
    event.batches = weightGrad.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    Object newWeight = weight;
    newWeight.step += 1;
    Object newOpt = optState;
    newOpt.step += 1;
    return std::make_pair(std::move(newWeight), std::move(newOpt));
}

// Whether `rank` summed a gradient of `layer` with the other ranks since its last update of it
// (only asked on the way to an error, so a scan of the events is cheap enough).
bool Engine::summedAcrossRanks(int rank, int layer) const
{
    bool summed = false;
    for (std::size_t i = 0; i < m_trace.events.size(); ++i) {
        const Event &event = m_trace.events[i];
        if (event.rank != rank || event.layer != layer)
            continue;
        if (event.op == OpKind::AllReduce || event.op == OpKind::ScatterReduce)
            summed = true;
        else if (event.op == OpKind::Update)
            summed = false;
    }
    return summed;
}

Result<Object> Engine::fakeGrad(CallSite at, int layer, const IndexSet &batches)
{
    if (auto s = admit(at, "fake_grad"); !s)
        return s.error();
    const CallName op{"fake_grad", layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (auto s = checkBatches(at, op, batches); !s)
        return s.error();
    Object grad;
    grad.kind = ObjectKind::WeightGrad;
    grad.layer = layer;
    grad.layers = config().layers;
    grad.batches = batches;
    grad.totalBatches = config().batches;
    grad.shards = IndexSet{0};
    grad.total = 1;
    return grad;
}

Status Engine::setFinalWeight(CallSite at, int layer, const Object &weight)
{
    if (auto s = admit(at, "set_final_weight"); !s)
        return s.error();
    const CallName op{"set_final_weight", layer};
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (weight.kind != ObjectKind::Weight)
        return checkError(at, say(sentence::kFinalMustBeWeight, {op.str(), article(weight.kind)}));
    if (weight.layer != layer)
        return checkError(
            at, say(sentence::kFinalOtherLayer, {op.str(), std::to_string(weight.layer)}));
    WeightsByLayer &finals = m_trace.finalWeights[std::size_t(at.rank)];
    if (finals.empty()) // a rank sets its layers' one after another: their places at once
        finals.reserve(std::size_t(std::min(config().layers, 64)));
    finals[layer] = weight;
    return okStatus();
}

} // namespace rankstep::core
