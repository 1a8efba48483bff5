// SPDX-License-Identifier: MIT
// The backward split in two (docs/simulation.md, "Beyond the notebook"): what backward_input and
// backward_weight give, cost and refuse, and how traces keep them.
#include "pythontestsupport.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;
using core::OpKind;

// One rank, two layers, one batch: forward, loss, then each layer's B and W in turn.
const std::string kSplitBackward = R"py(
def split(model):
    w0, o0 = model.load_weights(0)
    w1, o1 = model.load_weights(1)
    a0 = model.get_activation([0])
    a1 = model.forward(0, a0, w0)
    a2 = model.forward(1, a1, w1)
    g2 = model.loss(a2)
    g1 = model.backward_input(1, a1, g2, w1)
    gw1 = model.backward_weight(1, a1, g2)
    g0 = model.backward_input(0, a0, g1, w0)
    gw0 = model.backward_weight(0, a0, g1)
    print(g1.layer, g0.layer, gw1.layer, gw0.layer, sorted(gw1.batches))
    w0, o0 = model.update(0, gw0, w0, o0)
    w1, o1 = model.update(1, gw1, w1, o1)
    model.set_final_weight(0, w0)
    model.set_final_weight(1, w1)
)py";

const core::Event *findEvent(const core::Trace &trace, OpKind op, int layer)
{
    for (const core::Event &event : trace.events)
        if (event.op == op && event.layer == layer)
            return &event;
    return nullptr;
}

TEST(SplitBackward, InputAndWeightGradientsTogetherDoWhatBackwardDoes)
{
    python::Runtime runtime;
    const python::RunOutcome outcome = runtime.run(makeRequest(kSplitBackward, "split", 1, 2, 1));
    ASSERT_TRUE(isCorrect(outcome.trace));
    EXPECT_EQ(outcome.output, "0 -1 1 0 [0]\n");
    // Under the notebook's costs each half takes half of a backward's step.
    for (const OpKind op : {OpKind::BackwardInput, OpKind::BackwardWeight}) {
        const core::Event *event = findEvent(outcome.trace, op, 1);
        ASSERT_NE(event, nullptr) << core::opName(op);
        EXPECT_EQ(event->duration, core::SimTime::fromTicks(500)) << core::opName(op);
        EXPECT_EQ(event->batches, core::IndexSet{0});
    }
    EXPECT_EQ(findEvent(outcome.trace, OpKind::Backward, 1), nullptr);
}

TEST(SplitBackward, TheWeightGradientMayComeBeforeTheInputGradient)
{
    std::string source = kSplitBackward;
    const std::string b = "    g1 = model.backward_input(1, a1, g2, w1)\n";
    const std::string w = "    gw1 = model.backward_weight(1, a1, g2)\n";
    source.replace(source.find(b + w), b.size() + w.size(), w + b);
    python::Runtime runtime;
    EXPECT_TRUE(isCorrect(runtime.run(makeRequest(source, "split", 1, 2, 1)).trace));
}

TEST(SplitBackward, AWeightGradientWithoutItsActivationIsRefused)
{
    std::string source = kSplitBackward;
    const std::string w = "gw1 = model.backward_weight(1, a1, g2)";
    source.replace(source.find(w), w.size(),
                   "gw1 = model.backward_weight(1, g2, g2)  # no-activation");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "split", 1, 2, 1)).trace;
    EXPECT_TRUE(hasError(trace, ErrorKind::Check, 0, lineOf(source, "# no-activation"),
                         "backward_weight(layer 1): the second argument must be an activation, "
                         "but it is an activation gradient"));
}

TEST(SplitBackward, TheInputGradientNeedsTheGradientOfItsOwnLayersOutput)
{
    std::string source = kSplitBackward;
    const std::string b = "g0 = model.backward_input(0, a0, g1, w0)";
    source.replace(source.find(b), b.size(),
                   "g0 = model.backward_input(0, a0, g2, w0)  # wrong-gradient");
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(source, "split", 1, 2, 1)).trace;
    EXPECT_TRUE(hasError(trace, ErrorKind::Check, 0, lineOf(source, "# wrong-gradient"),
                         "the activation gradient is for layer 1, but backward_input at layer 0 "
                         "needs the gradient for layer 0 (what backward at layer 1 returned)"));
}

TEST(SplitBackward, TracesKeepBothHalvesThroughJsonAndBinary)
{
    python::Runtime runtime;
    const core::Trace trace = runtime.run(makeRequest(kSplitBackward, "split", 1, 2, 1)).trace;
    ASSERT_TRUE(isCorrect(trace));
    const std::string json = io::traceToJson(trace);
    EXPECT_NE(json.find("\"op\": \"backward_input\""), std::string::npos);
    EXPECT_NE(json.find("\"op\": \"backward_weight\""), std::string::npos);
    const auto fromJson = io::traceFromJson(json);
    ASSERT_TRUE(fromJson) << fromJson.error().message;
    EXPECT_EQ(io::traceToJson(*fromJson), json);
    const auto fromBinary = io::traceFromBinary(io::traceToBinary(trace));
    ASSERT_TRUE(fromBinary) << fromBinary.error().message;
    EXPECT_EQ(io::traceToJson(*fromBinary), json);
}

// The split backward on an expert layer: the expert_parallel lesson's solution with layer 1's
// backward written as its two halves, `replacement` standing for the backward and the combine of
// the input gradients that follows it.
const std::string kExpertBackward =
    "    grad_weights[1], grad_activations[1] = model.backward(\n"
    "        1, activations[1], grad_activations[2], weights[1]\n"
    "    )\n";
const std::string kInputGradientsHome =
    "    grad_activations[1] = await model.alltoall("
    "to_homes(grad_activations[1]), 0, group=experts)\n";
const std::string kHalves =
    "    grad_activations[1] = model.backward_input(\n"
    "        1, activations[1], grad_activations[2], weights[1]\n"
    "    )\n"
    "    grad_weights[1] = model.backward_weight(\n"
    "        1, activations[1], grad_activations[2], weights[1]  # expert-w\n"
    "    )\n";

std::string expertLessonWith(const std::string &from, const std::string &to)
{
    std::string source = readSourceFile("lessons/99-expert_parallel/solution.py");
    const std::size_t at = source.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        source.replace(at, from.size(), to);
    return source;
}

python::RunRequest expertLessonRequest(const std::string &source)
{
    python::RunRequest request = makeRequest(source, "expert_parallel", 2, 2, 4);
    request.config.layout.expert = 2;
    return request;
}

TEST(SplitBackward, AnExpertsWeightGradientComesFromBackwardWeightGivenItsWeight)
{
    const std::string source = expertLessonWith(kExpertBackward, kHalves);
    python::Runtime runtime;
    const core::Trace trace = runtime.run(expertLessonRequest(source)).trace;
    ASSERT_TRUE(isCorrect(trace)) << (trace.error ? trace.error->message : "");
    int halves = 0;
    for (const core::Event &event : trace.events)
        halves += event.op == OpKind::BackwardWeight && event.layer == 1 ? 1 : 0;
    EXPECT_EQ(halves, 2) << "one per rank, on its expert's tokens";
}

TEST(SplitBackward, WithoutItsWeightBackwardWeightMakesADenseGradientThatAnExpertRefuses)
{
    std::string halves = kHalves;
    const std::string weight = ", weights[1]  # expert-w";
    halves.replace(halves.find(weight), weight.size(), "");
    const std::string source = expertLessonWith(kExpertBackward, halves);
    python::Runtime runtime;
    const core::Trace trace = runtime.run(expertLessonRequest(source)).trace;
    // Rank 1 reaches its update first.
    ASSERT_TRUE(trace.error);
    EXPECT_EQ(trace.error->rank, 1);
    EXPECT_NE(trace.error->message.find(
                  "update(layer 1): the weight is expert 1's, but the weight gradient is not: "
                  "backward with expert 1's weight makes its gradient, and so does "
                  "backward_weight when given that weight"),
              std::string::npos)
        << trace.error->message;
}

TEST(SplitBackward, AnExpertsWeightGradientMayWaitWhileItsInputGradientsTravelHome)
{
    // Zero-bubble style: B, then the input gradients start home, then W while they travel.
    const std::string overlapped = expertLessonWith(
        kExpertBackward + "    del activations[1], grad_activations[2]\n" + kInputGradientsHome,
        "    grad_activations[1] = model.backward_input(\n"
        "        1, activations[1], grad_activations[2], weights[1]\n"
        "    )\n"
        "    home = model.alltoall_start(to_homes(grad_activations[1]), 0, group=experts)\n"
        "    grad_weights[1] = model.backward_weight(\n"
        "        1, activations[1], grad_activations[2], weights[1]\n"
        "    )\n"
        "    del activations[1], grad_activations[2]\n"
        "    grad_activations[1] = await home\n");
    python::Runtime runtime;
    const core::Trace split = runtime.run(expertLessonRequest(overlapped)).trace;
    ASSERT_TRUE(isCorrect(split)) << (split.error ? split.error->message : "");
    const core::Trace whole =
        runtime.run(expertLessonRequest(readSourceFile("lessons/99-expert_parallel/solution.py")))
            .trace;
    ASSERT_TRUE(isCorrect(whole));
    EXPECT_EQ(split.overlapped.size(), 2U);
    EXPECT_LT(split.figures.endTime, whole.figures.endTime);
}

// A tensor-parallel slice's weight gradient from the split backward: the tensor_parallel lesson's
// solution with each block's backward written as its two halves, the slice given to both.
TEST(SplitBackward, ASlicesWeightGradientComesFromBackwardWeightGivenTheSlice)
{
    std::string source = readSourceFile("lessons/97-tensor_parallel/solution.py");
    for (const std::string block : {"mlp", "attention"}) {
        const std::string act = block == "mlp" ? "activations[layer, 1]" : "activations[layer, 0]";
        const std::string grad =
            block == "mlp" ? "grad_activations[layer + 1, 0]" : "grad_activations[layer, 1]";
        const std::string whole = "        " + block +
                                  ", partial = model.backward(\n            layer, " + act + ", " +
                                  grad + ", weights[layer]\n        )\n";
        const std::size_t at = source.find(whole);
        ASSERT_NE(at, std::string::npos) << whole;
        source.replace(at, whole.size(),
                       "        partial = model.backward_input(layer, " + act + ", " + grad +
                           ", weights[layer])\n        " + block +
                           " = model.backward_weight(layer, " + act + ", " + grad +
                           ", weights[layer])\n");
    }
    python::RunRequest request = makeRequest(source, "tensor_parallel", 4, 2, 2);
    request.config.layout.tensor = 4;
    python::Runtime runtime;
    const core::Trace trace = runtime.run(request).trace;
    ASSERT_TRUE(isCorrect(trace)) << (trace.error ? trace.error->message : "");
    int halves = 0;
    for (const core::Event &event : trace.events)
        halves += event.op == OpKind::BackwardWeight && event.shardTotal == 4 ? 1 : 0;
    EXPECT_EQ(halves, 16) << "4 ranks, 2 layers, 2 blocks";
}

} // namespace
} // namespace rankstep::pythontests
