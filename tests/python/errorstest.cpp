// SPDX-License-Identifier: MIT
// The learner's mistakes come back as Errors naming kind, rank, line and what went wrong:
// exceptions, syntax errors, asyncio awaits, deadlocks, mismatches, broken puzzle rules.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>

namespace rankstep::pythontests {
namespace {

using core::ErrorKind;

core::Trace runSource(const std::string &source, const std::string &function, int ranks,
                      int layers = 2, int batches = 4)
{
    python::Runtime runtime;
    return runtime.run(makeRequest(source, function, ranks, layers, batches)).trace;
}

TEST(PythonRuntime, ReportsExceptionOnRankTwoAtItsLine)
{
    const std::string source = R"py(
def check_rank(model):
    if model.rank == 2:
        raise ValueError("rank two has no data")  # raise-here


def puzzle(model):
    model.weights[0], model.opt_states[0] = model.load_weights(0)
    check_rank(model)  # call-here
)py";
    const core::Trace trace = runSource(source, "puzzle", 4);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    ASSERT_TRUE(hasError(trace, ErrorKind::Exception, 2, lineOf(source, "# raise-here"),
                         "ValueError: rank two has no data"));
    // The learner's traceback: the caller's frame, then the raising one, nothing of Rankstep's.
    const std::string &traceback = trace.error->traceback;
    const auto caller =
        traceback.find("line " + std::to_string(lineOf(source, "# call-here")) + ", in puzzle");
    const auto raiser = traceback.find("line " + std::to_string(lineOf(source, "# raise-here")) +
                                       ", in check_rank");
    EXPECT_NE(caller, std::string::npos) << traceback;
    EXPECT_NE(raiser, std::string::npos) << traceback;
    EXPECT_LT(caller, raiser) << traceback;
    EXPECT_NE(traceback.find("learner.py"), std::string::npos) << traceback;
    EXPECT_EQ(traceback.find("<rankstep:"), std::string::npos) << traceback;
}

TEST(PythonRuntime, ReportsSyntaxErrorWithLineAndColumn)
{
    const std::string badLine = "    layer = (1 + 2))";
    const std::string source =
        "def puzzle(model):\n    weights = model.storage()[0]\n" + badLine + "\n";
    const core::Trace trace = runSource(source, "puzzle", 1);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    // Not on any rank: the file never ran.
    ASSERT_TRUE(hasError(trace, ErrorKind::Syntax, -1, 3, "unmatched ')'"));
    // 1-based column of the stray bracket.
    EXPECT_EQ(trace.error->column, int(badLine.rfind(')')) + 1);
    EXPECT_TRUE(trace.events.empty());
}

TEST(PythonRuntime, ExplainsThatAsyncioSleepDoesNotRunOnARank)
{
    const std::string source = R"py(import asyncio


async def puzzle(model):
    model.get_activation([0])
    await asyncio.sleep(0.1)  # sleep-here
)py";
    const core::Trace trace = runSource(source, "puzzle", 2);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    EXPECT_TRUE(hasError(trace, ErrorKind::Exception, 0, lineOf(source, "# sleep-here"),
                         "awaits something of asyncio, which does not run here"));
}

TEST(PythonRuntime, ExplainsThatAsyncioSleepZeroIsABareYield)
{
    const std::string source = R"py(import asyncio


async def puzzle(model):
    if model.rank == 1:
        await asyncio.sleep(0)  # sleep-here
)py";
    const core::Trace trace = runSource(source, "puzzle", 2);
    const int line = lineOf(source, "# sleep-here");

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    EXPECT_TRUE(hasError(trace, ErrorKind::Exception, 1, line,
                         "Line " + std::to_string(line) + " awaits a bare yield"));
}

TEST(PythonRuntime, ReportsDeadlockWhenTwoRanksBothReceiveFirst)
{
    const std::string source = R"py(
async def puzzle(model):
    other = 1 - model.rank
    got = await model.receive()  # receive-first
    await model.pass_to(other, got)
)py";
    const core::Trace trace = runSource(source, "puzzle", 2);
    const int line = lineOf(source, "# receive-first");

    EXPECT_EQ(trace.status, core::RunStatus::Deadlock);
    ASSERT_TRUE(hasError(trace, ErrorKind::Deadlock, 0, line, "Deadlock"));
    EXPECT_NE(trace.error->message.find("rank 0 waits in"), std::string::npos);
    EXPECT_NE(trace.error->message.find("rank 1 waits in"), std::string::npos);
    ASSERT_TRUE(trace.diagnosis.has_value());
    EXPECT_EQ(trace.diagnosis->kind, ErrorKind::Deadlock);
    ASSERT_EQ(trace.diagnosis->ranks.size(), 2u);
    for (int r = 0; r < 2; ++r) {
        const core::RankWait &wait = trace.diagnosis->ranks[std::size_t(r)];
        EXPECT_EQ(wait.rank, r);
        EXPECT_FALSE(wait.finished);
        EXPECT_EQ(wait.line, line);
        EXPECT_EQ(wait.waitsOn, std::vector<int>{1 - r});
    }
}

TEST(PythonRuntime, ReportsCollectiveMismatchNamingEachRanksCall)
{
    const std::string source = R"py(
async def puzzle(model):
    grad = model.fake_grad(0, [model.rank])
    if model.rank == 0:
        await model.allreduce(grad, 0)  # layer-zero
    else:
        await model.allreduce(model.fake_grad(1, [model.rank]), 1)  # layer-one
)py";
    const core::Trace trace = runSource(source, "puzzle", 2);
    const int zero = lineOf(source, "# layer-zero");
    const int one = lineOf(source, "# layer-one");

    // The second rank to arrive is the one that disagrees.
    EXPECT_EQ(trace.status, core::RunStatus::Deadlock);
    ASSERT_TRUE(hasError(trace, ErrorKind::Mismatch, 1, one, "Collective mismatch"));
    EXPECT_NE(
        trace.error->message.find("rank 0: allreduce(layer 0) at line " + std::to_string(zero)),
        std::string::npos)
        << trace.error->message;
    EXPECT_NE(
        trace.error->message.find("rank 1: allreduce(layer 1) at line " + std::to_string(one)),
        std::string::npos)
        << trace.error->message;
    ASSERT_TRUE(trace.diagnosis.has_value());
    EXPECT_EQ(trace.diagnosis->kind, ErrorKind::Mismatch);
    EXPECT_EQ(trace.diagnosis->ranks.size(), 2u);
}

TEST(PythonRuntime, RejectsAStringInAStorageMapNamingWhatMayBeStored)
{
    const std::string source = R"py(
def puzzle(model):
    model.weights[0], model.opt_states[0] = model.load_weights(0)
    model.activations[0] = "input"  # store-string
)py";
    const core::Trace trace = runSource(source, "puzzle", 1);
    const int line = lineOf(source, "# store-string");

    ASSERT_TRUE(hasError(trace, ErrorKind::Exception, 0, line, "TypeError"));
    const std::string &message = trace.error->message;
    EXPECT_NE(message.find("activations"), std::string::npos) << message;
    EXPECT_NE(message.find("Weight, OptState, Activation, ActivationGrad, WeightGrad"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("str"), std::string::npos) << message;
    // Nothing was stored: the two loads are the only storage changes.
    EXPECT_EQ(trace.changes.size(), 2u);
}

TEST(PythonRuntime, ReportsTheWalkThroughUpdateErrorForMissingBatches)
{
    // The walk-through's learner: gradients for batches 2 and 3 only, then an update written
    // over several lines, as the solutions write it; the error points at its first line.
    const std::string source = R"py(
def partial(model):
    weights, opt_states, activations, grad_activations, grad_weights = model.storage()
    for layer in range(model.LAYERS):
        weights[layer], opt_states[layer] = model.load_weights(layer)
    activations[0] = model.get_activation([2, 3])
    for layer in range(model.LAYERS):
        activations[layer + 1] = model.forward(layer, activations[layer], weights[layer])
    grad_activations[model.LAYERS] = model.loss(activations[model.LAYERS])
    for layer in reversed(range(model.LAYERS)):
        grad_weights[layer], grad_activations[layer] = model.backward(
            layer, activations[layer], grad_activations[layer + 1], weights[layer]
        )
    weights[0], opt_states[0] = model.update(  # update-here
        0, grad_weights[0], weights[0], opt_states[0]
    )
)py";
    const core::Trace trace = runSource(source, "partial", 1);

    EXPECT_EQ(trace.status, core::RunStatus::Error);
    ASSERT_TRUE(hasError(trace, ErrorKind::Check, 0, lineOf(source, "# update-here"), "update"));
    EXPECT_EQ(trace.error->message,
              "update(layer 0): the weight gradient covers batches {2, 3}, but an update needs all "
              "batches {0, 1, 2, 3} (batches 0 and 1 are missing; add the gradients of the missing "
              "batches first)");
    // The failed update logged no event: 2 forwards, the loss, 2 backwards.
    EXPECT_EQ(trace.events.size(), 5u);
}

} // namespace
} // namespace rankstep::pythontests
