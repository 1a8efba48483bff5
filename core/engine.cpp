// SPDX-License-Identifier: MIT
// Engine: the per-rank operations of REFERENCE.md and storage bookkeeping.
#include "engine.h"

#include "algebra.h"

namespace rankstep::core {
namespace {

std::string article(ObjectKind kind)
{
    return kind == ObjectKind::Activation || kind == ObjectKind::ActivationGrad
            || kind == ObjectKind::OptState
        ? std::string("an ") + kindWords(kind)
        : std::string("a ") + kindWords(kind);
}

std::string shardsText(const Object &object)
{
    return "shards " + formatSet(object.shards) + " of " + std::to_string(object.total);
}

} // namespace

std::string describeCall(OpKind op, int layer)
{
    std::string text = opName(op);
    return layer >= 0 ? text + "(layer " + std::to_string(layer) + ")" : text;
}

Engine::Engine(RunConfig config, RunLimits limits) : m_limits(limits)
{
    m_trace.config = config;
    const int count = config.ranks > 0 ? config.ranks : 0;
    m_ranks.resize(std::size_t(count));
    for (RankState &rank : m_ranks)
        rank.storage = Storage(config.cost.sizes);
    m_trace.finalWeights.resize(std::size_t(count));
    std::vector<int> everyone;
    for (int r = 0; r < count; ++r)
        everyone.push_back(r);
    m_groupIds[everyone] = 0;
    m_groups.push_back(std::move(everyone));
}

Error Engine::checkError(CallSite at, std::string message) const
{
    return Error{ErrorKind::Check, at.rank, at.line, std::move(message)};
}

// Every operation passes here first: a stopped or failed run accepts nothing more.
Status Engine::admit(CallSite at, const char *operation)
{
    if (m_fatal)
        return *m_fatal;
    if (at.rank < 0 || at.rank >= ranks())
        return Error{ErrorKind::Usage, at.rank, at.line,
                     std::string(operation) + ": rank " + std::to_string(at.rank)
                         + " does not exist in a run of " + std::to_string(ranks()) + " ranks"};
    m_ranks[std::size_t(at.rank)].lastLine = at.line;
    if (m_stopRequested.load(std::memory_order_acquire)) {
        fail(Error{ErrorKind::Stopped, at.rank, at.line,
                   "The run was stopped " + m_stopReason + " while rank " + std::to_string(at.rank)
                       + " was at line " + std::to_string(at.line) + "."});
        return *m_fatal;
    }
    if (m_limits.maxOperations > 0 && ++m_operations > m_limits.maxOperations) {
        fail(Error{ErrorKind::Stopped, at.rank, at.line,
                   "The run was stopped after " + std::to_string(m_limits.maxOperations)
                       + " operations (the operation budget) while rank "
                       + std::to_string(at.rank) + " was at line " + std::to_string(at.line)
                       + ". Is a loop running forever?"});
        return *m_fatal;
    }
    return okStatus();
}

Status Engine::checkLayer(CallSite at, const std::string &op, int layer) const
{
    if (layer >= 0 && layer < config().layers)
        return okStatus();
    return checkError(at, op + ": layer " + std::to_string(layer) + " does not exist; this model has "
                              + describeSet(IndexSet::range(0, config().layers), "layer", "layers"));
}

Status Engine::checkBatches(CallSite at, const std::string &op, const IndexSet &batches) const
{
    const IndexSet valid = IndexSet::range(0, config().batches);
    if (batches.isSubsetOf(valid))
        return okStatus();
    return checkError(at, op + ": " + describeSet(batches.minus(valid), "batch", "batches")
                              + " do not exist; this run has "
                              + describeSet(valid, "batch", "batches"));
}

Event Engine::makeEvent(CallSite at, OpKind op, int layer, SimTime duration) const
{
    Event event;
    event.rank = at.rank;
    event.op = op;
    event.layer = layer;
    event.start = m_ranks[std::size_t(at.rank)].clock;
    event.duration = duration;
    event.memory = m_ranks[std::size_t(at.rank)].storage.memory();
    event.line = at.line;
    return event;
}

void Engine::record(Event event)
{
    m_ranks[std::size_t(event.rank)].clock = event.start + event.duration;
    m_trace.events.push_back(std::move(event));
}

Result<std::pair<Object, Object>> Engine::loadWeights(CallSite at, int layer, int shardIndex,
                                                      int total)
{
    if (auto s = admit(at, "load_weights"); !s)
        return s.error();
    const std::string op = "load_weights(layer " + std::to_string(layer) + ")";
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (total < 1 || shardIndex < 0 || shardIndex >= total)
        return checkError(at, op + ": shard " + std::to_string(shardIndex) + " of "
                                  + std::to_string(total)
                                  + " does not exist; shards run from 0 to total - 1");
    Object weight;
    weight.kind = ObjectKind::Weight;
    weight.layer = layer;
    weight.layers = config().layers;
    weight.shards = IndexSet{shardIndex};
    weight.total = total;
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
    const std::string op = describeCall(OpKind::Forward, layer);
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, op + ": the second argument must be an activation, but it is "
                                  + article(activation.kind));
    if (weight.kind != ObjectKind::Weight)
        return checkError(at, op + ": the third argument must be a weight, but it is "
                                  + article(weight.kind));
    if (weight.layer != layer)
        return checkError(at, op + ": the weight belongs to layer " + std::to_string(weight.layer)
                                  + ", but forward at layer " + std::to_string(layer)
                                  + " needs the weight of layer " + std::to_string(layer));
    if (!weight.isComplete())
        return checkError(at, op + ": the weight holds only " + shardsText(weight)
                                  + "; forward needs the complete weight (allgather it first)");
    if (activation.layer != layer)
        return checkError(at, op + ": the activation is at layer " + std::to_string(activation.layer)
                                  + ", but forward at layer " + std::to_string(layer)
                                  + " needs the activation at layer " + std::to_string(layer));
    Event event = makeEvent(at, OpKind::Forward, layer,
                            config().cost.forwardPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    record(std::move(event));
    Object out = activation;
    out.layer = layer + 1;
    return out;
}

Result<std::pair<Object, Object>> Engine::backward(CallSite at, int layer, const Object &activation,
                                                   const Object &grad, const Object &weight)
{
    if (auto s = admit(at, "backward"); !s)
        return s.error();
    const std::string op = describeCall(OpKind::Backward, layer);
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, op + ": the second argument must be an activation, but it is "
                                  + article(activation.kind));
    if (grad.kind != ObjectKind::ActivationGrad)
        return checkError(at, op + ": the third argument must be an activation gradient, but it is "
                                  + article(grad.kind));
    if (weight.kind != ObjectKind::Weight)
        return checkError(at, op + ": the fourth argument must be a weight, but it is "
                                  + article(weight.kind));
    if (weight.layer != layer)
        return checkError(at, op + ": the weight belongs to layer " + std::to_string(weight.layer)
                                  + ", but backward at layer " + std::to_string(layer)
                                  + " needs the weight of layer " + std::to_string(layer));
    if (!weight.isComplete())
        return checkError(at, op + ": the weight holds only " + shardsText(weight)
                                  + "; backward needs the complete weight (allgather it first)");
    if (activation.layer != layer)
        return checkError(at, op + ": the activation is at layer " + std::to_string(activation.layer)
                                  + ", but backward at layer " + std::to_string(layer)
                                  + " needs the activation at layer " + std::to_string(layer)
                                  + " (the one forward at layer " + std::to_string(layer)
                                  + " consumed)");
    if (grad.layer != layer)
        return checkError(at, op + ": the activation gradient is for layer "
                                  + std::to_string(grad.layer) + ", but backward at layer "
                                  + std::to_string(layer) + " needs the gradient for layer "
                                  + std::to_string(layer) + " (what "
                                  + (layer == config().layers - 1
                                         ? std::string("the loss")
                                         : "backward at layer " + std::to_string(layer + 1))
                                  + " returned)");
    if (activation.batches != grad.batches)
        return checkError(at, op + ": the activation covers "
                                  + describeSet(activation.batches, "batch", "batches")
                                  + " but the activation gradient covers "
                                  + describeSet(grad.batches, "batch", "batches")
                                  + "; both must cover the same batches");
    Event event = makeEvent(at, OpKind::Backward, layer,
                            config().cost.backwardPerBatch * activation.batches.size());
    event.batches = activation.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    record(std::move(event));
    Object weightGrad;
    weightGrad.kind = ObjectKind::WeightGrad;
    weightGrad.layer = layer;
    weightGrad.layers = config().layers;
    weightGrad.batches = activation.batches;
    weightGrad.totalBatches = config().batches;
    weightGrad.shards = IndexSet{0};
    weightGrad.total = 1;
    Object gradOut = grad;
    gradOut.layer = layer - 1;
    return std::make_pair(std::move(weightGrad), std::move(gradOut));
}

Result<Object> Engine::loss(CallSite at, const Object &activation)
{
    if (auto s = admit(at, "loss"); !s)
        return s.error();
    if (activation.kind != ObjectKind::Activation)
        return checkError(at, "loss: the argument must be an activation, but it is "
                                  + article(activation.kind));
    if (activation.layer != config().layers)
        return checkError(at, "loss: the activation is at layer " + std::to_string(activation.layer)
                                  + ", but the loss needs the model's output (the activation at layer "
                                  + std::to_string(config().layers) + ", after the last forward)");
    Event event = makeEvent(at, OpKind::Loss, config().layers - 1, config().cost.loss);
    event.batches = activation.batches;
    record(std::move(event));
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
    const std::string op = describeCall(OpKind::Update, layer);
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (weightGrad.kind != ObjectKind::WeightGrad)
        return checkError(at, op + ": the second argument must be a weight gradient, but it is "
                                  + article(weightGrad.kind));
    if (weight.kind != ObjectKind::Weight)
        return checkError(at, op + ": the third argument must be a weight, but it is "
                                  + article(weight.kind));
    if (optState.kind != ObjectKind::OptState)
        return checkError(at, op + ": the fourth argument must be an optimizer state, but it is "
                                  + article(optState.kind));
    for (const Object *object : {&weightGrad, &weight, &optState})
        if (object->layer != layer)
            return checkError(at, op + ": the " + kindWords(object->kind) + " belongs to layer "
                                      + std::to_string(object->layer) + ", but this update is for layer "
                                      + std::to_string(layer));
    const IndexSet all = IndexSet::range(0, config().batches);
    if (!all.isSubsetOf(weightGrad.batches))
        return checkError(at, op + ": the weight gradient covers batches "
                                  + formatSet(weightGrad.batches)
                                  + ", but an update needs all batches " + formatSet(all) + " ("
                                  + describeSet(all.minus(weightGrad.batches), "batch", "batches")
                                  + (all.minus(weightGrad.batches).size() == 1 ? " is" : " are")
                                  + " missing)");
    if (!weightGrad.isComplete()) {
        for (const Object *object : {&weight, &optState})
            if (object->total != weightGrad.total || !object->shards.isSubsetOf(weightGrad.shards))
                return checkError(at, op + ": the " + kindWords(object->kind) + " holds "
                                          + shardsText(*object) + ", but the weight gradient covers only "
                                          + shardsText(weightGrad)
                                          + "; every shard you update needs its gradient");
    }
    if (weight.step != optState.step)
        return checkError(at, op + ": the weight is at step " + std::to_string(weight.step)
                                  + " but the optimizer state at step " + std::to_string(optState.step)
                                  + "; they must be at the same step");
    Event event = makeEvent(at, OpKind::Update, layer, config().cost.update);
    event.batches = weightGrad.batches;
    event.shards = weight.shards;
    event.shardTotal = weight.total;
    record(std::move(event));
    Object newWeight = weight;
    newWeight.step += 1;
    Object newOpt = optState;
    newOpt.step += 1;
    return std::make_pair(std::move(newWeight), std::move(newOpt));
}

Result<Object> Engine::fakeGrad(CallSite at, int layer, const IndexSet &batches)
{
    if (auto s = admit(at, "fake_grad"); !s)
        return s.error();
    const std::string op = "fake_grad(layer " + std::to_string(layer) + ")";
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
    const std::string op = "set_final_weight(layer " + std::to_string(layer) + ")";
    if (auto s = checkLayer(at, op, layer); !s)
        return s.error();
    if (weight.kind != ObjectKind::Weight)
        return checkError(at, op + ": the final weight must be a weight, but it is "
                                  + article(weight.kind));
    if (weight.layer != layer)
        return checkError(at, op + ": the weight belongs to layer " + std::to_string(weight.layer));
    m_trace.finalWeights[std::size_t(at.rank)][layer] = weight;
    return okStatus();
}

Result<Object> Engine::add(CallSite at, const Object &a, const Object &b)
{
    IndexSet overlap;
    Result<Object> sum = addGradients(a, b, &overlap);
    if (!sum)
        return checkError(at, sum.error().message);
    if (!overlap.empty())
        warn(at, "Layer " + std::to_string(a.layer) + ": both gradients already cover "
                     + describeSet(overlap, "batch", "batches") + ", so the sum counts "
                     + (overlap.size() == 1 ? "it" : "them") + " twice.");
    return sum;
}

void Engine::warn(CallSite at, std::string message)
{
    m_trace.warnings.push_back(Warning{at.rank, at.line, std::move(message)});
}

void Engine::requestStop(std::string reason)
{
    std::lock_guard lock(m_stopMutex);
    if (m_stopRequested.load(std::memory_order_acquire))
        return;
    m_stopReason = std::move(reason); // written once, before the flag that publishes it
    m_stopRequested.store(true, std::memory_order_release);
}

void Engine::mark(CallSite at, std::string label)
{
    m_trace.marks.push_back(
        Mark{at.rank, at.line, m_trace.events.size(), m_trace.changes.size(), std::move(label)});
}

Status Engine::store(CallSite at, MapKind map, const Key &key, Object object)
{
    if (auto s = admit(at, mapName(map)); !s)
        return s;
    Storage &storage = m_ranks[std::size_t(at.rank)].storage;
    storage.set(map, key, object);
    m_trace.changes.push_back(StorageChange{at.rank, map, key, std::move(object), at.line,
                                            m_trace.events.size(), storage.memory()});
    return okStatus();
}

Status Engine::erase(CallSite at, MapKind map, const Key &key)
{
    if (auto s = admit(at, mapName(map)); !s)
        return s;
    Storage &storage = m_ranks[std::size_t(at.rank)].storage;
    if (!storage.erase(map, key))
        return checkError(at, std::string("del ") + mapName(map) + "[" + formatKey(key)
                                  + "]: there is no such key in " + mapName(map));
    m_trace.changes.push_back(StorageChange{at.rank, map, key, std::nullopt, at.line,
                                            m_trace.events.size(), storage.memory()});
    return okStatus();
}

} // namespace rankstep::core
