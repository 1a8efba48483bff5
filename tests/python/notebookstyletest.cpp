// SPDX-License-Identifier: MIT
// A file written the way the notebook's cells are: star import, drawing and chalk imports,
// module-level demos of the objects, several puzzle functions, helpers awaited by a rank.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

const std::string kNotebook = R"py(from lib import *
from drawing import draw, draw_group
import chalk

chalk.set_svg_height(400)

# The collectives demo: one gradient per rank, each for its own batch.
ranks = 4
weight_grads = [WeightGrad(0, 1, {i}, ranks) for i in range(ranks)]
summed = weight_grads[0] + weight_grads[1] + weight_grads[2] + weight_grads[3]
print("summed", sorted(summed.batches))

# A standalone model, outside any run, with shards of a weight.
model = Model(layers=2, batches=1, rank=0, dist=Dist(1))
w0, o0 = model.load_weights(0, shard=0, total=4)
w1, o1 = model.load_weights(0, shard=1, total=4)
both = w0.combine(w1)
print("combined", sorted(both.shards), both.total, both.is_complete())


def basic(model: Model) -> Model:
    for layer in range(model.LAYERS):
        model.weights[layer], model.opt_states[layer] = model.load_weights(layer)
    model.activations[0] = model.get_activation(range(model.BATCHES))
    for layer in range(model.LAYERS):
        inp = model.activations[layer]
        model.activations[layer + 1] = model.forward(layer, inp, model.weights[layer])
    draw(model)  # draw-after-forward
    model.grad_activations[model.LAYERS] = model.loss(model.activations[model.LAYERS])
    del model.activations[model.LAYERS]
    for layer in reversed(range(model.LAYERS)):
        model.grad_weights[layer], model.grad_activations[layer] = model.backward(
            layer, model.activations[layer], model.grad_activations[layer + 1], model.weights[layer]
        )
        del model.grad_activations[layer + 1], model.activations[layer]
    del model.grad_activations[0]
    for layer in range(model.LAYERS):
        model.weights[layer], model.opt_states[layer] = model.update(
            layer, model.grad_weights[layer], model.weights[layer], model.opt_states[layer]
        )
        model.set_final_weight(layer, model.weights[layer])
    return model


async def ddp(model: Model) -> Model:
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()

    async def fwd(mb):
        for layer in range(model.LAYERS):
            activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])

    async def sync(layer):
        return await model.allreduce(grad_weights[layer], layer)  # sync-allreduce

    activations[0] = model.get_activation([model.rank])
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    await fwd(model.rank)
    draw_group([model])  # draw-group-after-forward
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
        del grad_activations[layer + 1], activations[layer]
    for layer in range(model.LAYERS):
        grad_weights[layer] = await sync(layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer]
        )
    for layer in range(model.LAYERS):
        model.set_final_weight(layer, weights[layer])
    return model
)py";

// What the module-level demos print: the union of the four batches, the union of two shards.
const std::string kModuleOutput = "summed [0, 1, 2, 3]\ncombined [0, 1] 4 False\n";

TEST(NotebookStyleFile, ListsEveryPuzzleFunctionButNotTheNestedHelpers)
{
    python::Runtime runtime;
    const auto functions = runtime.listFunctions(kNotebook, "notebook.py");
    ASSERT_TRUE(functions.ok());
    ASSERT_EQ(functions->size(), 2u);
    EXPECT_EQ(functions->at(0).name, "basic");
    EXPECT_FALSE(functions->at(0).isAsync);
    EXPECT_EQ(functions->at(0).line, lineOf(kNotebook, "def basic("));
    EXPECT_EQ(functions->at(1).name, "ddp");
    EXPECT_TRUE(functions->at(1).isAsync);
    EXPECT_EQ(functions->at(1).line, lineOf(kNotebook, "async def ddp("));
}

TEST(NotebookStyleFile, RunsThePlainFunctionWithStandardTrainingFigures)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(kNotebook, "basic", 1, 2, 4));
    const core::Trace &trace = outcome.trace;

    ASSERT_TRUE(isCorrect(trace));
    // docs/simulation.md, standard training: the same storage steps give the same figures.
    EXPECT_EQ(trace.figures.timesteps.toString(), "16.5");
    EXPECT_EQ(trace.figures.maxMemory, 2621440);
    EXPECT_EQ(trace.figures.maxMemoryTime.toString(), "8");
    // The module-level code ran once, before the ranks.
    EXPECT_EQ(outcome.output, kModuleOutput);
}

TEST(NotebookStyleFile, DrawInsideARankRecordsAMarkAfterTheForwards)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(kNotebook, "basic", 1, 2, 4)).trace;

    ASSERT_EQ(trace.marks.size(), 1u);
    const core::Mark &mark = trace.marks.front();
    EXPECT_EQ(mark.rank, 0);
    EXPECT_EQ(mark.line, lineOf(kNotebook, "# draw-after-forward"));
    EXPECT_EQ(mark.label, "draw");
    // Two forwards (LAYERS = 2) were recorded before it; the loss came after.
    EXPECT_EQ(mark.eventCount, 2u);
    ASSERT_GT(trace.events.size(), mark.eventCount);
    EXPECT_EQ(trace.events[mark.eventCount].op, core::OpKind::Loss);
}

TEST(NotebookStyleFile, RunsTheAsyncFunctionWithAwaitedHelpersLikeTheReferenceDdp)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(kNotebook, "ddp", 4, 2, 4));
    const core::Trace &trace = outcome.trace;

    ASSERT_TRUE(isCorrect(trace));
    // docs/simulation.md, distributed data parallel.
    EXPECT_EQ(trace.figures.timesteps.toString(), "5.1");
    EXPECT_EQ(trace.figures.maxMemory, 1835008);
    EXPECT_EQ(trace.figures.maxMemoryRank, 0);
    EXPECT_EQ(trace.figures.maxMemoryTime.toString(), "4");
    EXPECT_EQ(outcome.output, kModuleOutput);

    // The allreduce inside the helper is attributed to the helper's line.
    const int syncLine = lineOf(kNotebook, "# sync-allreduce");
    int allreduces = 0;
    for (const core::Event &event : trace.events) {
        if (event.op != core::OpKind::AllReduce)
            continue;
        ++allreduces;
        EXPECT_EQ(event.line, syncLine);
    }
    EXPECT_EQ(allreduces, 4 * 2); // every rank, every layer
}

TEST(NotebookStyleFile, DrawGroupMarksEveryRankAtItsLine)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(kNotebook, "ddp", 4, 2, 4)).trace;

    ASSERT_EQ(trace.marks.size(), 4u);
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(trace.marks[std::size_t(r)].rank, r);
        EXPECT_EQ(trace.marks[std::size_t(r)].label, "draw_group");
        EXPECT_EQ(trace.marks[std::size_t(r)].line,
                  lineOf(kNotebook, "# draw-group-after-forward"));
    }
}

} // namespace
} // namespace rankstep::pythontests
