// SPDX-License-Identifier: MIT
// Engine: the per-rank operations of docs/simulation.md (load_weights, get_activation, forward,
// backward and its two halves, loss, update, fake_grad, set_final_weight), each with every check.
#include "engine.h"
#include "sentences.h"

#include <algorithm>

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

} // namespace

Result<std::pair<Object, Object>> Engine::loadWeights(CallSite at, int layer, int shardIndex,
                                                      int total, int expert)
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
    return activation;
}

Result<Object> Engine::forward(CallSite at, int layer, const Object &activation,
                               const Object &weight)
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
    if (weight.kind != ObjectKind::Weight)
        return checkError(
            at, say(sentence::kArgumentMustBe,
                    {op.str(), sentence::kThird, sentence::kAWeight, article(weight.kind)}));
    if (weight.layer != layer)
        return checkError(at, say(sentence::kWeightOfOtherLayer,
                                  {op.str(), std::to_string(weight.layer), "forward",
                                   std::to_string(layer), std::to_string(layer)}));
    if (!weight.isComplete())
        return checkError(
            at, say(sentence::kWeightIncomplete, {op.str(), shardsText(weight), "forward"}));
    if (activation.layer != layer)
        return checkError(at, say(sentence::kActivationOfOtherLayer,
                                  {op.str(), std::to_string(activation.layer), "forward",
                                   std::to_string(layer), std::to_string(layer)}));
    if (auto s = checkExpertTokens(at, op, weight, activation.batches); !s)
        return s.error();
    Event &event = recordEvent(at, OpKind::Forward, layer,
                               config().cost.forwardPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    Object out = activation;
    out.layer = layer + 1;
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
    if (weight) {
        if (weight->kind != ObjectKind::Weight)
            return checkError(
                at, say(sentence::kArgumentMustBe,
                        {op.str(), sentence::kFourth, sentence::kAWeight, article(weight->kind)}));
        if (weight->layer != layer)
            return checkError(at, say(sentence::kWeightOfOtherLayer,
                                      {op.str(), std::to_string(weight->layer), call,
                                       std::to_string(layer), std::to_string(layer)}));
        if (!weight->isComplete())
            return checkError(
                at, say(sentence::kWeightIncomplete, {op.str(), shardsText(*weight), call}));
        if (auto s = checkExpertTokens(at, op, *weight, activation.batches); !s)
            return s.error();
    }
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

Result<std::pair<Object, Object>> Engine::backward(CallSite at, int layer, const Object &activation,
                                                   const Object &grad, const Object &weight)
{
    if (auto s = admit(at, "backward"); !s)
        return s.error();
    const CallName op{OpKind::Backward, layer};
    if (auto s = checkBackward(at, op, "backward", layer, activation, grad, &weight); !s)
        return s.error();
    Event &event = recordEvent(at, OpKind::Backward, layer,
                               config().cost.backwardPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    Object gradOut = grad;
    gradOut.layer = layer - 1;
    Object weightGrad = weightGradOf(layer, activation);
    weightGrad.expert = weight.expert; // an expert's weight has an expert's gradient
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
    Event &event = recordEvent(at, OpKind::BackwardInput, layer,
                               config().cost.backwardInputPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    Object gradOut = grad;
    gradOut.layer = layer - 1;
    return gradOut;
}

Result<Object> Engine::backwardWeight(CallSite at, int layer, const Object &activation,
                                      const Object &grad)
{
    if (auto s = admit(at, "backward_weight"); !s)
        return s.error();
    const CallName op{OpKind::BackwardWeight, layer};
    if (auto s = checkBackward(at, op, "backward_weight", layer, activation, grad, nullptr); !s)
        return s.error();
    Event &event = recordEvent(at, OpKind::BackwardWeight, layer,
                               config().cost.backwardWeightPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = IndexSet{0};
    event.shardTotal = 1;
    return weightGradOf(layer, activation);
}

Result<Object> Engine::loss(CallSite at, const Object &activation)
{
    if (auto s = admit(at, "loss"); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, say(sentence::kOnlyArgumentMustBe,
                                  {"loss", sentence::kAnActivation, article(activation.kind)}));
    if (activation.layer != config().layers)
        return checkError(at, say(sentence::kLossNeedsOutput, {std::to_string(activation.layer),
                                                               std::to_string(config().layers)}));
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
