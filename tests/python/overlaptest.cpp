// SPDX-License-Identifier: MIT
// Overlapped communication (docs/simulation.md "Overlapped communication"):
// allreduce_start runs on the rank's communication stream beside its compute; await waits only
// for what is left; a stream runs one collective at a time; blocking and started calls of one
// collective match; each handle is awaited once; a handle never awaited is a warning; a hang on
// a handle is diagnosed like a blocking one; the traces keep the stream.
#include "core/io/costfile.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;

std::string lessonFile(const std::string &path)
{
    std::ifstream in(std::string(RANKSTEP_SOURCE_DIR) + "/lessons/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

core::Trace runSource(const std::string &source, const std::string &function, int ranks, int layers,
                      int batches, const std::string &cost = {})
{
    python::RunRequest request = makeRequest(source, function, ranks, layers, batches);
    if (!cost.empty()) {
        auto recipe = io::loadCostRecipe(cost);
        EXPECT_TRUE(recipe) << cost;
        if (recipe)
            request.config.cost = io::resolveCost(*recipe, layers);
    }
    python::Runtime runtime;
    return runtime.run(request).trace;
}

// The lesson's solution overlaps each layer's all-reduce with the backward of the layers below;
// the DDP lesson's solution (blocking all-reduces after backward) does not. Same weights, same
// memory, fewer Timesteps: under the notebook's costs and under a real-scale preset.
TEST(Overlap, TheOverlappedDdpIsFasterThanTheBlockingOneAtTheSameMemory)
{
    const std::string solution = lessonFile("32-ddp_overlap/solution.py");
    const std::string blockingDdp = lessonFile("30-ddp/solution.py");
    for (const std::string cost : {"", "llama2-7b-8xh100"}) {
        const core::Trace overlapped = runSource(solution, "ddp_overlap", 4, 4, 4, cost);
        const core::Trace blocking = runSource(blockingDdp, "ddp", 4, 4, 4, cost);
        ASSERT_TRUE(isCorrect(overlapped)) << cost;
        ASSERT_TRUE(isCorrect(blocking)) << cost;
        EXPECT_LT(overlapped.figures.timesteps, blocking.figures.timesteps) << cost;
        EXPECT_EQ(overlapped.figures.maxMemory, blocking.figures.maxMemory) << cost;
        EXPECT_TRUE(blocking.overlapped.empty());
        EXPECT_EQ(overlapped.overlapped.size(), 16U) << "a layer's sum per rank";
        EXPECT_TRUE(overlapped.warnings.empty());
    }
}

// Where the overlapped events sit: layer l's all-reduce starts when the slowest rank ended
// layer l's backward (or its stream is free), a rank's stream runs one at a time, and at least
// one runs beside a backward on the same rank.
TEST(Overlap, EachSumStartsAfterItsBackwardAndTheStreamRunsOneAtATime)
{
    const core::Trace trace =
        runSource(lessonFile("32-ddp_overlap/solution.py"), "ddp_overlap", 4, 4, 4);
    ASSERT_TRUE(isCorrect(trace));
    std::map<int, core::SimTime> backwardEnd; // latest over the ranks, by layer
    for (const core::Event &event : trace.events)
        if (event.op == core::OpKind::Backward)
            backwardEnd[event.layer] = std::max(backwardEnd[event.layer], event.end());
    std::map<int, core::SimTime> streamFree;
    bool besideCompute = false;
    for (const core::Event &sum : trace.overlapped) {
        EXPECT_EQ(sum.op, core::OpKind::AllReduce);
        EXPECT_EQ(sum.duration, core::SimTime::fromTicks(300));
        EXPECT_EQ(sum.start, std::max(backwardEnd[sum.layer], streamFree[sum.rank]))
            << "rank " << sum.rank << " layer " << sum.layer;
        streamFree[sum.rank] = sum.end();
        for (const core::Event &compute : trace.events)
            if (compute.rank == sum.rank && compute.op == core::OpKind::Backward &&
                compute.start < sum.end() && sum.start < compute.end())
                besideCompute = true;
    }
    EXPECT_TRUE(besideCompute) << "some all-reduce runs beside a backward";
}

constexpr const char *kTwoLayers = R"py(
async def puzzle(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    activations[0] = model.get_activation([model.rank])
    for layer in range(2):
        weights[layer], opt_states[layer] = model.load_weights(layer)
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[2] = model.loss(activations[2])
    for layer in (1, 0):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer])
)py";

// One rank starts, the others block: one collective all the same, and the weights are right.
TEST(Overlap, StartedAndBlockingCallsOfOneCollectiveMatch)
{
    const std::string source = std::string(kTwoLayers) + R"py(
    for layer in (1, 0):
        if model.rank == 0:
            handle = model.allreduce_start(grad_weights[layer], layer)
            grad_weights[layer] = await handle
        else:
            grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)
        weights[layer], opt_states[layer] = model.update(
            layer, grad_weights[layer], weights[layer], opt_states[layer])
        model.set_final_weight(layer, weights[layer])
)py";
    const core::Trace trace = runSource(source, "puzzle", 3, 2, 3);
    EXPECT_TRUE(isCorrect(trace));
    EXPECT_EQ(trace.overlapped.size(), 2U) << "rank 0's two, on its stream";
}

TEST(Overlap, AHandleIsAwaitedOnceAndOneNeverAwaitedIsAWarning)
{
    const std::string twice = std::string(kTwoLayers) + R"py(
    handle = model.allreduce_start(grad_weights[1], 1)
    grad_weights[1] = await handle
    grad_weights[1] = await handle  # twice
)py";
    const core::Trace again = runSource(twice, "puzzle", 2, 2, 2);
    ASSERT_TRUE(again.error);
    EXPECT_TRUE(hasError(again, ErrorKind::Exception, again.error->rank, lineOf(twice, "# twice"),
                         "was already awaited: each call of model.allreduce_start(...) is "
                         "awaited once"));

    const std::string never = std::string(kTwoLayers) + R"py(
    model.allreduce_start(grad_weights[1], 1)  # never
)py";
    const core::Trace lost = runSource(never, "puzzle", 2, 2, 2);
    EXPECT_EQ(lost.status, core::RunStatus::Ok);
    ASSERT_EQ(lost.warnings.size(), 2U) << "one per rank";
    EXPECT_EQ(lost.warnings[0].line, lineOf(never, "# never"));
    EXPECT_NE(lost.warnings[0].message.find("allreduce(layer 1) was started here but never "
                                            "awaited"),
              std::string::npos)
        << lost.warnings[0].message;
}

// Rank 1 never starts the sum rank 0 awaits: a deadlock that names it, as for a blocking call.
TEST(Overlap, AwaitingASumAnotherRankNeverStartedIsAHang)
{
    const std::string source = std::string(kTwoLayers) + R"py(
    if model.rank == 0:
        handle = model.allreduce_start(grad_weights[1], 1)
        grad_weights[1] = await handle  # waits
)py";
    const core::Trace trace = runSource(source, "puzzle", 2, 2, 2);
    EXPECT_EQ(trace.status, core::RunStatus::Deadlock);
    ASSERT_TRUE(trace.error);
    EXPECT_NE(trace.error->message.find("rank 0 waits in allreduce(layer 1) at line " +
                                        std::to_string(lineOf(source, "# waits"))),
              std::string::npos)
        << trace.error->message;
    EXPECT_NE(trace.error->message.find("rank 1 finished without calling allreduce(layer 1)"),
              std::string::npos)
        << trace.error->message;
}

// The JSON and binary traces keep the communication stream, event for event.
TEST(Overlap, TracesKeepTheCommunicationStream)
{
    const core::Trace trace =
        runSource(lessonFile("32-ddp_overlap/solution.py"), "ddp_overlap", 4, 4, 4);
    ASSERT_EQ(trace.overlapped.size(), 16U);
    const auto fromBinary = io::traceFromBinary(io::traceToBinary(trace));
    const auto fromJson = io::traceFromJson(io::traceToJson(trace));
    ASSERT_TRUE(fromBinary) << fromBinary.error().message;
    ASSERT_TRUE(fromJson) << fromJson.error().message;
    for (const core::Trace *back : {&*fromBinary, &*fromJson}) {
        ASSERT_EQ(back->overlapped.size(), trace.overlapped.size());
        for (std::size_t i = 0; i < trace.overlapped.size(); ++i) {
            const core::Event &a = trace.overlapped[i];
            const core::Event &b = back->overlapped[i];
            EXPECT_EQ(a.rank, b.rank);
            EXPECT_EQ(a.layer, b.layer);
            EXPECT_EQ(a.start, b.start);
            EXPECT_EQ(a.duration, b.duration);
            EXPECT_EQ(a.link, b.link);
            EXPECT_EQ(a.line, b.line);
        }
        EXPECT_EQ(back->figures.timesteps, trace.figures.timesteps);
    }
}

} // namespace
} // namespace rankstep::pythontests
