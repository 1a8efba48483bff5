// SPDX-License-Identifier: MIT
// What a rank's code keeps outside its five storage dictionaries (docs/simulation.md, "Storage of
// a rank"): an object used again after it stayed outside over one of its rank's computations was
// kept there for later; each run keeps the most a rank kept so at one computation, and the
// figures stay what the storage holds.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

core::Trace runSource(const std::string &source, int ranks = 1, int layers = 4, int batches = 2)
{
    python::Runtime runtime;
    return runtime.run(makeRequest(source, "puzzle", ranks, layers, batches)).trace;
}

// One activation of every batch of the run, as the engine sizes it.
std::int64_t activationBytes(const core::Trace &trace)
{
    core::Object activation;
    activation.kind = core::ObjectKind::Activation;
    activation.batches = core::IndexSet::range(0, trace.config.batches);
    return core::memoryOf(activation, trace.config.cost.sizes);
}

// Every layer's weight and optimizer state, as load_weights gives them.
std::int64_t loadedBytes(const core::Trace &trace)
{
    core::Object weight, state;
    state.kind = core::ObjectKind::OptState;
    weight.shards = state.shards = core::IndexSet{0};
    const core::Sizes &sizes = trace.config.cost.sizes;
    return trace.config.layers * (core::memoryOf(weight, sizes) + core::memoryOf(state, sizes));
}

int activations(const core::HeldOutside &held)
{
    return held.objects[std::size_t(core::ObjectKind::Activation)];
}

const std::string kForwardIntoAList = R"py(
def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    kept = [model.get_activation(range(model.BATCHES))]
    for layer in range(model.LAYERS):
        kept.append(model.forward(layer, kept[layer], weights[layer]))  # forward
    for layer in reversed(range(model.LAYERS)):
        model.forward(layer, kept[layer], weights[layer])  # again
)py";

TEST(HeldOutside, ActivationsKeptInAListForLaterAreKeptOutsideTheStorage)
{
    const core::Trace trace = runSource(kForwardIntoAList);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const core::HeldOutside &held = trace.heldOutside;

    // Layer 3's input is used again at once; the inputs of layers 2, 1 and 0 wait in the list
    // while the last forward of the first loop runs.
    EXPECT_EQ(held.rank, 0);
    EXPECT_EQ(held.line, lineOf(kForwardIntoAList, "# forward"));
    EXPECT_EQ(activations(held), 3);
    EXPECT_EQ(held.count(), 3);
    EXPECT_EQ(held.bytes, 3 * activationBytes(trace));
    // The storage held the weights and optimizer states only, and the figure is that.
    EXPECT_EQ(held.memory, loadedBytes(trace));
    EXPECT_EQ(trace.figures.maxMemory, held.memory);
}

TEST(HeldOutside, WhatTheStorageHoldsIsNotKeptOutsideWhoeverReadsIt)
{
    const core::Trace trace = runSource(R"py(
def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation(range(model.BATCHES))
    read = []
    for layer in range(model.LAYERS):
        out = model.forward(layer, activations[layer], weights[layer])
        activations[layer + 1] = out
        read.append(activations[layer + 1])
        read.append(list(activations.values()))
    for layer in range(1, model.LAYERS):
        model.forward(layer, read[2 * (layer - 1)], weights[layer])
)py");
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    EXPECT_EQ(trace.heldOutside.bytes, 0);
    EXPECT_EQ(trace.heldOutside.count(), 0);
}

TEST(HeldOutside, AnObjectReadBackAndDeletedFromTheStorageIsKeptOutsideUntilStoredAgain)
{
    const std::string source = R"py(
def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation(range(model.BATCHES))
    activations[1] = model.forward(0, activations[0], weights[0])
    first = activations[0]
    again = activations[0]
    del activations[0]
    activations[2] = model.forward(1, activations[1], weights[1])  # held
    activations[0] = first
    activations[3] = model.forward(2, activations[2], weights[2])
)py";
    const core::Trace trace = runSource(source);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const core::HeldOutside &held = trace.heldOutside;

    // Two Python objects of one activation: kept once, until it is stored again.
    EXPECT_EQ(held.line, lineOf(source, "# held"));
    EXPECT_EQ(activations(held), 1);
    EXPECT_EQ(held.bytes, activationBytes(trace));
}

TEST(HeldOutside, AResultPassedOnToTheNextOperationIsInFlight)
{
    const core::Trace trace = runSource(R"py(
def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    x = model.get_activation(range(model.BATCHES))
    stale = []
    for layer in range(model.LAYERS):
        stale.append(x)
        x = model.forward(layer, x, weights[layer])
    model.loss(x)
)py");
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    EXPECT_EQ(trace.heldOutside.bytes, 0); // held, but never used again
}

TEST(HeldOutside, AMessageKeptByItsReceiverIsKeptOutsideByThatRank)
{
    const std::string source = R"py(
async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)
    if model.rank == 0:
        await model.pass_to(1, model.get_activation(range(model.BATCHES)))
        await model.pass_to(1, model.get_activation(range(model.BATCHES)))
    else:
        first = await model.receive()
        second = await model.receive()
        activations[1] = model.forward(0, second, weights[0])  # kept
        activations[2] = model.forward(0, first, weights[0])
)py";
    const core::Trace trace = runSource(source, 2);
    ASSERT_EQ(trace.status, core::RunStatus::Ok);
    const core::HeldOutside &held = trace.heldOutside;

    EXPECT_EQ(held.rank, 1);
    EXPECT_EQ(held.line, lineOf(source, "# kept"));
    EXPECT_EQ(activations(held), 1);
    EXPECT_EQ(held.bytes, activationBytes(trace));
}

} // namespace
} // namespace rankstep::pythontests
