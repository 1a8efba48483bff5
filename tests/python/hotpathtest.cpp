// SPDX-License-Identifier: MIT
// The fast paths of the Python layer give what the slow ones gave: the learner's line of every
// event (remembered per code object and instruction offset), the result of an await (through the
// waiter's own slots), and puzzle objects of the learner's own subclasses.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using core::OpKind;

TEST(PythonHotPath, EveryEventCarriesTheLineOfItsCallAcrossFunctionsAndIterations)
{
    const std::string source = R"py(
def step(model, layer, act, w):
    return model.forward(layer, act, w)  # in-helper

async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation(range(model.BATCHES))
    for layer in range(model.LAYERS):
        shard, _ = model.load_weights(layer, model.rank, model.RANKS)
        w = await model.allgather(shard, layer)  # await
        assert w.is_complete() and w.layer == layer
        if layer % 2 == 0:
            activations[layer + 1] = model.forward(layer, activations[layer], w)  # even
        else:
            activations[layer + 1] = step(model, layer, activations[layer], w)
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 2, 6, 4)).trace;

    ASSERT_FALSE(trace.error.has_value()) << trace.error->message;
    int forwards = 0;
    for (const core::Event &event : trace.events) {
        if (event.op == OpKind::Forward) {
            const char *marker = event.layer % 2 == 0 ? "# even" : "# in-helper";
            EXPECT_EQ(event.line, lineOf(source, marker)) << "layer " << event.layer;
            ++forwards;
        } else {
            EXPECT_EQ(event.op, OpKind::AllGather);
            EXPECT_EQ(event.line, lineOf(source, "# await")) << "layer " << event.layer;
        }
    }
    EXPECT_EQ(forwards, 12);
    for (const core::StorageChange &change : trace.changes)
        EXPECT_GT(change.line, 0);
}

TEST(PythonHotPath, AWaiterDrivenByHandAndThenAwaitedGivesItsResultOnce)
{
    const std::string source = R"py(
async def puzzle(model):
    w = model.allgather(model.load_weights(0, model.rank, 2)[0], 0)
    if model.rank == 0:
        assert next(w) is w  # started, not complete yet: rank 1 has not arrived
        assert w.send(None) is w and w.__next__() is w  # pybind11's methods: the same object
    full = await w
    assert full.shards == frozenset({0, 1}), full
    await w  # again
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 2, 2, 4)).trace;

    // Rank 1 completes the allgather and reaches the second await first.
    EXPECT_TRUE(hasError(trace, core::ErrorKind::Exception, 1, lineOf(source, "# again"),
                         "This allgather was already awaited"));
}

TEST(PythonHotPath, PuzzleObjectsOfTheLearnersSubclassesAreStoredAndCombined)
{
    const std::string source = R"py(
from lib import Weight

class MyWeight(Weight):
    pass

class Broken(Weight):
    def __init__(self):
        pass

# Made by hand, so usable outside a run only (docs/simulation.md, "An object belongs to a rank").
assert MyWeight(0, 2, 0, {0}, 2).combine(MyWeight(0, 2, 0, {1}, 2)).is_complete()

def puzzle(model):
    weights = model.storage()[0]
    weights[0], _ = model.load_weights(0, model.rank, 2)
    assert model.memory() == 512 * 512 // 2
    weights[1] = Broken()  # broken
)py";
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "puzzle", 2, 2, 4)).trace;

    EXPECT_TRUE(hasError(trace, core::ErrorKind::Exception, 0, lineOf(source, "# broken"), ""));
    ASSERT_FALSE(trace.changes.empty());
    EXPECT_EQ(trace.changes.object(trace.changes[0])->shards, core::IndexSet{0});
}

// Puzzle objects the engine hands out are freed without pybind11's bookkeeping
// (core/python/pyobjects.cpp, deallocPuzzle); weak references, the learner's subclasses and
// objects the learner made still die through pybind11's own path, and every object gives back
// the reference it holds to its type.
TEST(PythonHotPath, PuzzleObjectsDieWithTheirLastReferenceAndReleaseTheirType)
{
    const std::string source = R"py(
import sys
import weakref
from lib import Weight

class MyWeight(Weight):
    pass

def puzzle(model):
    weights, opt_states, _, _, _ = model.storage()
    weights[0], opt_states[0] = model.load_weights(0)
    died = []
    kind = type(weights[0])
    held = sys.getrefcount(kind)
    for _ in range(10000):
        assert weights[0] == weights[0]
    assert sys.getrefcount(kind) == held, (held, sys.getrefcount(kind))
    engines = weights[0]
    mine = MyWeight(0, 1, 0)
    made = Weight(0, 1, 0)
    refs = [weakref.ref(o, lambda r, name=name: died.append(name))
            for o, name in ((engines, "engine's"), (mine, "subclass"), (made, "made"))]
    del engines
    assert died == ["engine's"], died
    del mine, made
    assert died == ["engine's", "subclass", "made"], died
    assert sys.getrefcount(kind) == held, (held, sys.getrefcount(kind))
    print("checked")
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 1, 1, 1));

    EXPECT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    EXPECT_NE(outcome.output.find("checked"), std::string::npos) << outcome.output;
}

// Model's hottest methods are CPython methods of their own (core/python/modelcalls.cpp): the same
// names, defaults and keywords as before, and a wrong call says which argument and how, with
// the method's signature, instead of pybind11's "incompatible function arguments".
TEST(PythonHotPath, ModelMethodsTakeKeywordsAndDefaultsAndNameAWrongArgument)
{
    const std::string source = R"py(
async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    shard, opt = model.load_weights(layer=0, total=model.RANKS, shard=model.rank)
    w = await model.allgather(layer=0, value=shard, group=None)
    a = model.get_activation(range(model.BATCHES))
    out = model.forward(0, inp=a, weight=w)
    g, _ = model.backward(0, a, model.loss(out), w)
    g = await model.allreduce(g, 0, [0, 1])
    full, _ = model.load_weights(False)  # an int by __index__: layer 0
    assert full.layer == 0 and full.is_complete()
    for call in ("model.forward('0', a, w)", "model.forward(0, a)",
                 "model.forward(0, a, w, w)", "model.forward(0, a, w, layer=1)",
                 "model.forward(0, a, weigth=w)", "model.forward(inp=a, weight=w)",
                 "model.load_weights(2**40)", "model.load_weights()",
                 "model.update(0.5, g, w, opt)"):
        try:
            eval(call)
        except TypeError as e:
            print(e)
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 2, 1, 4));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    const std::string expected =
        "forward(layer, inp, weight, kv=None, so_far=None): layer must be a whole number, not str\n"
        "forward(layer, inp, weight, kv=None, so_far=None): takes 3 to 5 arguments, 2 were given "
        "('weight' is missing)\n"
        "forward(layer, inp, weight, kv=None, so_far=None): kv must be a list of keys and values "
        "(model.keys_values), not _rankstep.Weight\n"
        "forward(layer, inp, weight, kv=None, so_far=None): 'layer' is given twice\n"
        "forward(layer, inp, weight, kv=None, so_far=None): there is no argument named 'weigth'\n"
        "forward(layer, inp, weight, kv=None, so_far=None): 'layer' is missing\n"
        "load_weights(layer, shard=0, total=1, split=None, expert=None): layer is too large: "
        "1099511627776\n"
        "load_weights(layer, shard=0, total=1, split=None, expert=None): takes 1 to 5 arguments, 0 "
        "were given "
        "('layer' is "
        "missing)\n"
        "update(layer, weight_grad, weight, opt_state): layer must be a whole number, not float\n";
    EXPECT_EQ(outcome.output, expected + expected); // each rank's calls, one rank after the other
}

// `Type.__new__(Type)` without __init__ holds no value; pybind11 would hand out memory it never
// constructed (garbage fields, a crash on a set of them), and the fast deallocation ran a
// destructor on it. Every such object is refused with a sentence and dies quietly.
TEST(PythonHotPath, AnObjectMadeByNewAloneIsRefusedAndDiesQuietly)
{
    const std::string source = R"py(
from lib import Weight, WeightGrad

async def puzzle(model):
    weights = model.storage()[0]
    weights[0], _ = model.load_weights(0)
    W, M, S = type(weights[0]), type(model), type(weights)
    waiter = model.allreduce(model.fake_grad(0, [model.rank]), 0)
    A = type(waiter)
    for attempt in ("W.__new__(W).layer", "repr(W.__new__(W))", "W.__new__(W).shards",
                    "weights.__setitem__(1, W.__new__(W))", "W.layer.fget(5)",
                    "WeightGrad.__new__(WeightGrad) + WeightGrad.__new__(WeightGrad)",
                    "M.__new__(M).forward(0, weights[0], weights[0])", "S.__new__(S)[0]",
                    "repr(A.__new__(A))", "A.__new__(A).send(None)"):
        try:
            eval(attempt)
            print("no error:", attempt)
        except TypeError as e:
            print(e)
    for _ in range(1000):
        W.__new__(W), A.__new__(A), S.__new__(S)
    await waiter
    print("done")
)py";
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(source, "puzzle", 1, 1, 1));

    ASSERT_FALSE(outcome.trace.error.has_value()) << outcome.trace.error->message;
    const std::string never = " was made by Weight.__new__ and never initialized; make one with ";
    const std::string expected =
        "this Weight" + never + "Weight(...)\n" + "this Weight" + never + "Weight(...)\n" +
        "this Weight" + never + "Weight(...)\n" + "this Weight" + never + "Weight(...)\n" +
        "a puzzle object's method takes puzzle objects (Weight, OptState, Activation, "
        "ActivationGrad, WeightGrad), not int\n"
        "this WeightGrad was made by WeightGrad.__new__ and never initialized; make one with "
        "WeightGrad(...)\n"
        "this Model was made by Model.__new__ and never initialized; make one with Model(...)\n"
        "this StorageMap was made by StorageMap.__new__ and never initialized; make one with "
        "StorageMap(...)\n"
        "this Waiter was made by Waiter.__new__ and never initialized; make one with Waiter(...)\n"
        "this Waiter was made by Waiter.__new__ and never initialized; make one with Waiter(...)\n"
        "done\n";
    EXPECT_EQ(outcome.output, expected);
}

} // namespace
} // namespace rankstep::pythontests
