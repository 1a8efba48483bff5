// SPDX-License-Identifier: MIT
// An object belongs to the rank that made it or received it (docs/simulation.md): ranks share the
// Python interpreter, not memory, so another rank's object, model, storage or call reached
// through a global is refused with a sentence, and what a message carries becomes the receiver's.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;

core::Trace runOn(python::Runtime &runtime, const std::string &source, int ranks, int layers = 2,
                  int batches = 4)
{
    return runtime.run(makeRequest(source, "puzzle", ranks, layers, batches)).trace;
}

core::Trace runSource(const std::string &source, int ranks, int layers = 2, int batches = 4)
{
    python::Runtime runtime;
    return runOn(runtime, source, ranks, layers, batches);
}

// The distributed-data-parallel lesson with one allreduce as a barrier: every rank adds the
// other ranks' gradients from a global. Before objects belonged to ranks this ran without an
// error at Timesteps 4.8, under the lesson's 5.1.
const std::string kSharedGradients = R"py(
STASH = {}


async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
        STASH[model.rank, layer] = grad_weights[layer]
    await model.allreduce(grad_weights[0], 0)
    for layer in range(model.LAYERS):
        total = grad_weights[layer]
        for other in range(model.RANKS):
            if other != model.rank:
                total = total + STASH[other, layer]  # the cheat
        grad_weights[layer] = total
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
)py";

TEST(Ownership, AddingAnotherRanksGradientFromAGlobalIsRefused)
{
    const core::Trace trace = runSource(kSharedGradients, 4);
    // The last rank to join the allreduce goes on first.
    EXPECT_TRUE(hasError(trace, ErrorKind::Check, 3, lineOf(kSharedGradients, "# the cheat"),
                         "rank 3 used rank 0's weight gradient for layer 0 in a sum without "
                         "receiving it: ranks do not share memory; send it (pass_to) or reduce "
                         "it (allreduce, scatterreduce) first"));
}

// Each way a rank could use what another rank holds: the marker's line is where it is refused.
struct Misuse {
    const char *name;
    const char *body; // the rank-1 branch; rank 0 stashed its objects and model in G first
    const char *message;
};

const Misuse kMisuses[] = {
    {"Forward", "model.forward(0, G['act'], G['w'])",
     "rank 1 used rank 0's activation for layer 0 in forward without receiving it"},
    {"Update", "model.update(0, G['g'], w, o)",
     "rank 1 used rank 0's weight gradient for layer 0 in update without receiving it"},
    {"Store", "model.weights[0] = G['w']",
     "rank 1 used rank 0's weight for layer 0 in weights without receiving it"},
    {"Send", "await model.pass_to(0, G['g'])",
     "rank 1 used rank 0's weight gradient for layer 0 in pass_to without receiving it"},
    {"SendInAList", "await model.pass_to(0, [1, {'g': G['g']}])",
     "rank 1 used rank 0's weight gradient for layer 0 in pass_to without receiving it"},
    {"Allreduce", "await model.allreduce(G['g'], 0)",
     "rank 1 used rank 0's weight gradient for layer 0 in allreduce without receiving it"},
    {"Combine", "w.combine(G['w'])",
     "rank 1 used rank 0's weight for layer 0 in combine without receiving it"},
    {"Shard", "G['w'].shard(1, 2)",
     "rank 1 used rank 0's weight for layer 0 in shard without receiving it"},
    {"Sum", "sum([G['g']])", "rank 1 used rank 0's weight gradient for layer 0 in a sum"},
    {"FinalWeight", "model.set_final_weight(0, G['w'])",
     "rank 1 used rank 0's weight for layer 0 in set_final_weight without receiving it"},
    {"OtherModel", "G['model'].load_weights(0)", "rank 1 used rank 0's model: ranks do not share"},
    {"OtherStorage", "G['grads'][0]", "rank 1 used rank 0's grad_weights: ranks do not share"},
    {"OtherStorageWrite", "G['grads'][1] = G['g']",
     "rank 1 used rank 0's grad_weights: ranks do not share"},
    {"OtherCall", "await G['call']", "rank 1 used rank 0's allreduce: ranks do not share"},
};

class RankUses : public ::testing::TestWithParam<Misuse>
{};

TEST_P(RankUses, AnotherRanksObjectModelStorageOrCallWithASentence)
{
    const Misuse &m = GetParam();
    const std::string source = std::string(R"py(
G = {}


async def puzzle(model):
    w, o = model.load_weights(0)
    if model.rank == 0:
        G['w'], G['act'] = w, model.get_activation([0])
        G['g'] = model.fake_grad(0, range(model.BATCHES))
        G['model'], G['grads'] = model, model.grad_weights
        G['call'] = model.allreduce(G['g'], 0)
        await model.allreduce(model.fake_grad(1, [0]), 1)  # rank 1 runs while rank 0 waits
    else:
        )py") + m.body + R"py(  # refused
        await model.allreduce(model.fake_grad(1, [1]), 1)
)py";
    const core::Trace trace = runSource(source, 2);
    EXPECT_TRUE(hasError(trace, ErrorKind::Check, 1, lineOf(source, "# refused"), m.message));
}

std::string misuseName(const ::testing::TestParamInfo<Misuse> &param)
{
    return param.param.name;
}

INSTANTIATE_TEST_SUITE_P(Ownership, RankUses, ::testing::ValuesIn(kMisuses), misuseName);

// A message's lists, tuples and dicts travel as they were sent, and the puzzle objects in them
// arrive as the receiver's: the broadcast lesson sends a dict of (weight, state) tuples.
TEST(Ownership, WhatAMessageCarriesIsTheReceiversAndChangesAfterSendingStayBehind)
{
    const std::string source = R"py(
G = {}


async def puzzle(model):
    if model.rank == 0:
        w, o = model.load_weights(0)
        sent = {'state': [(w, o)], 'note': 'from 0'}
        sent['state'].append(sent['state'])
        await model.pass_to(1, sent)
        sent['state'][0] = (model.fake_grad(0, [0]), None)
        sent['later'] = True
        await model.allreduce(model.fake_grad(0, [0]), 0)
    else:
        await model.allreduce(model.fake_grad(0, [1]), 0)
        got = await model.receive(0)
        assert sorted(got) == ['note', 'state'], got
        assert got['state'][1] is got['state'], 'the list holding itself still does'
        w, o = got['state'][0]
        model.weights[0], model.opt_states[0] = w, o
        model.set_final_weight(0, model.update(0, model.fake_grad(0, range(4)), w, o)[0])
)py";
    const core::Trace trace = runSource(source, 2, 1);
    ASSERT_FALSE(trace.error) << trace.error->message;
    ASSERT_EQ(trace.finalWeights.size(), 2u);
    EXPECT_EQ(trace.finalWeights[1].size(), 1u);
}

// An object of a Dist made inside the run, or of an earlier run in the same process (a module
// keeps it), is no rank's of this run.
TEST(Ownership, ObjectsOfAnotherDistOrAnEarlierRunAreRefused)
{
    const std::string ownDist = R"py(
from lib import Dist, Model


def puzzle(model):
    other = Model(layers=2, batches=4, rank=0, dist=Dist(1))
    g = other.fake_grad(0, range(4))
    w, o = model.load_weights(0)
    model.update(0, g, w, o)  # refused
)py";
    EXPECT_TRUE(hasError(runSource(ownDist, 1), ErrorKind::Check, 0, lineOf(ownDist, "# refused"),
                         "rank 0 used a weight gradient for layer 0 in update that was made "
                         "outside this run"));

    const std::string keeps = R"py(
import lib


def puzzle(model):
    lib.kept = model.fake_grad(0, range(4))
)py";
    const std::string uses = R"py(
import lib


def puzzle(model):
    w, o = model.load_weights(0)
    model.update(0, lib.kept, w, o)  # refused
)py";
    python::Runtime runtime;
    ASSERT_FALSE(runOn(runtime, keeps, 1).error);
    EXPECT_TRUE(hasError(runOn(runtime, uses, 1), ErrorKind::Check, 0, lineOf(uses, "# refused"),
                         "that was made outside this run"));
}

// Objects made by hand (the notebook's constructors), at the top level or in a rank's code, or
// summed, combined or cut from such, stand for work no rank did: a run's operations and storage
// refuse them. Outside a run they work as in the notebook.
TEST(Ownership, ObjectsMadeByHandServeNoRankInARun)
{
    const std::string source = R"py(
from lib import Activation, WeightGrad

ALL = WeightGrad(0, 1, range(4), 4)
HALVES = WeightGrad(0, 1, [0, 1], 4) + WeightGrad(0, 1, [2, 3], 4)
print(sorted(HALVES.batches))


def top(model):
    w, o = model.load_weights(0)
    model.update(0, ALL, w, o)  # top-level


def summed(model):
    w, o = model.load_weights(0)
    model.update(0, HALVES, w, o)  # summed


def inside(model):
    weights, opt_states, _, _, grads = model.storage()
    grads[0] = WeightGrad(0, 1, range(4), 4)  # stored


def activation(model):
    weights, opt_states, activations, _, _ = model.storage()
    activations[1] = Activation(1, 1, range(4), 4)  # an activation
)py";
    python::Runtime runtime;
    for (const auto &[function, marker, use] : {std::tuple{"top", "# top-level", "update"},
                                                {"summed", "# summed", "update"},
                                                {"inside", "# stored", "grad_weights"},
                                                {"activation", "# an activation", "activations"}}) {
        const python::RunOutcome outcome = runtime.run(makeRequest(source, function, 2, 1, 4));
        EXPECT_NE(outcome.output.find("[0, 1, 2, 3]"), std::string::npos) << outcome.output;
        EXPECT_TRUE(hasError(outcome.trace, ErrorKind::Check, 0, lineOf(source, marker),
                             std::string("in ") + use + " that was made by hand"))
            << function;
    }
    // The article fits the kind.
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "activation", 2, 1, 4));
    EXPECT_TRUE(hasError(outcome.trace, ErrorKind::Check, 0, lineOf(source, "# an activation"),
                         "rank 0 used an activation for layer 1 in activations that was made by "
                         "hand (an activation built by its constructor"));
}

} // namespace
} // namespace rankstep::pythontests
