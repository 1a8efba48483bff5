// SPDX-License-Identifier: MIT
// rankstep-cli as a learner or a script uses it: exit codes (cli/runreport.h), what goes to
// stdout and stderr, and the trace files it writes.
#include "cli/runreport.h"
#include "core/io/tracebinary.h"
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::pythontests {
namespace {

using cli::ExitCode;

class Runner : public ::testing::Test
{
protected:
    // Writes `source` to a file and runs `function` of it on `ranks` ranks.
    CliResult run(const std::string &source, const std::string &function, int ranks,
                  std::vector<std::string> extra = {})
    {
        std::vector<std::string> args{"run",        m_dir.write("puzzle.py", source),
                                      "--function", function,
                                      "--ranks",    std::to_string(ranks),
                                      "--quiet"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args, m_dir);
    }

    TempDir m_dir;
};

// One rank, standard training minus the final weights: the run ends, the check fails.
const std::string kNoFinalWeights = R"py(
def puzzle(model):
    for layer in range(model.LAYERS):
        model.weights[layer], model.opt_states[layer] = model.load_weights(layer)
    model.activations[0] = model.get_activation(range(model.BATCHES))
    model.activations[1] = model.forward(0, model.activations[0], model.weights[0])
)py";

TEST_F(Runner, ExitsWithOneWhenTheCheckFails)
{
    const CliResult result = run(kNoFinalWeights, "puzzle", 1);

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.err;
    // One forward of four batches starts at 0 and ends at 4.
    EXPECT_EQ(result.out.rfind("Timesteps: 0\nMaximum Memory: ", 0), 0u) << result.out;
    EXPECT_NE(result.out.find("End time: 4\n"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("Not correct yet"), std::string::npos) << result.out;
}

TEST_F(Runner, ExitsWithTwoAndPrintsTheErrorWhenTheCodeRaises)
{
    const std::string source =
        "def puzzle(model):\n"
        "    if model.rank == 2:\n"
        "        raise RuntimeError('broken rank')\n";
    const CliResult result = run(source, "puzzle", 4);

    EXPECT_EQ(result.exitCode, ExitCode::kLearnerError);
    EXPECT_NE(result.err.find("Error (rank 2, line 3): RuntimeError: broken rank"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out.find("Correct!"), std::string::npos) << result.out;
}

TEST_F(Runner, ExitsWithThreeOnADeadlock)
{
    const std::string source =
        "async def puzzle(model):\n"
        "    await model.receive()\n";
    const CliResult result = run(source, "puzzle", 2);

    EXPECT_EQ(result.exitCode, ExitCode::kHang);
    EXPECT_NE(result.err.find("Deadlock"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("rank 1 waits in"), std::string::npos) << result.err;
}

TEST_F(Runner, ExitsWithFourWhenTheOperationBudgetRunsOut)
{
    const std::string source =
        "def puzzle(model):\n"
        "    while True:\n"
        "        model.get_activation([0])\n";
    const CliResult result = run(source, "puzzle", 1, {"--max-ops", "50"});

    EXPECT_EQ(result.exitCode, ExitCode::kStopped);
    EXPECT_NE(result.err.find("after 50 model calls and storage changes"), std::string::npos)
        << result.err;
}

TEST_F(Runner, ExitsWithUsageForAnUnknownOption)
{
    const CliResult result = run(kNoFinalWeights, "puzzle", 1, {"--bogus"});

    EXPECT_EQ(result.exitCode, ExitCode::kUsage);
    EXPECT_NE(result.err.find("unknown option --bogus"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST_F(Runner, ExitsWithUsageForAMissingFile)
{
    const std::string missing = (m_dir.path() / "nowhere.py").string();
    const CliResult result = runCli({"run", missing, "--function", "puzzle"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kUsage);
    EXPECT_NE(result.err.find("cannot read '" + missing + "': no such file"), std::string::npos)
        << result.err;
}

TEST_F(Runner, ExitsWithUsageForAnUnknownFunction)
{
    const CliResult result = run(kNoFinalWeights, "nothing_here", 1);

    EXPECT_EQ(result.exitCode, ExitCode::kUsage);
    EXPECT_NE(result.err.find("puzzle"), std::string::npos) << result.err;
}

TEST_F(Runner, RunsTheOnlyFunctionWhenNoneIsNamed)
{
    const std::string file = m_dir.write("only.py", kNoFinalWeights);
    const CliResult result = runCli({"run", file, "--quiet"}, m_dir);

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.err;
}

TEST_F(Runner, EchoesWhatTheCodePrintsUnlessQuiet)
{
    const std::string file = m_dir.write(
        "loud.py", "def puzzle(model):\n    print('hi there')\n    print('and more', end='')\n");
    const CliResult loud = runCli({"run", file}, m_dir);
    const CliResult quiet = runCli({"run", file, "--quiet"}, m_dir);

    // stdout is a file here, not a terminal: the echo must still come out, before the figures.
    EXPECT_EQ(loud.out.rfind("hi there\nand moreNo operation took simulated time.\n", 0), 0u)
        << loud.out;
    EXPECT_EQ(quiet.out.find("hi there"), std::string::npos) << quiet.out;
    EXPECT_EQ(quiet.out.rfind("No operation took simulated time.\nNot correct yet:\n", 0), 0u)
        << quiet.out;
}

TEST_F(Runner, WritesRankstepAndChromeTraceFiles)
{
    const std::string json = (m_dir.path() / "trace.json").string();
    const std::string chrome = (m_dir.path() / "chrome.json").string();
    const CliResult result =
        run(kNoFinalWeights, "puzzle", 1, {"--json", json, "--chrome-trace", chrome});

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.err;
    // docs/trace-format.md: the format marker comes first in each.
    EXPECT_EQ(m_dir.read("trace.json").rfind(R"({"format": "rankstep-trace", "version": 1,)", 0),
              0u);
    EXPECT_EQ(m_dir.read("chrome.json").rfind(R"({"traceEvents": [)", 0), 0u);
    EXPECT_NE(m_dir.read("chrome.json").find("forward"), std::string::npos);
}

TEST_F(Runner, WritesABinaryTraceThatReadsBack)
{
    const std::string binary = (m_dir.path() / "trace.rstb").string();
    const CliResult result = run(kNoFinalWeights, "puzzle", 1, {"--trace-out", binary});

    EXPECT_EQ(result.exitCode, ExitCode::kNotSolved) << result.err;
    io::TraceJsonOptions options;
    auto trace = io::traceFromBinary(m_dir.read("trace.rstb"), &options);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    EXPECT_TRUE(options.file.ends_with("puzzle.py")) << options.file;
    EXPECT_EQ(options.function, "puzzle");
    ASSERT_EQ(trace->events.size(), 1u);
    EXPECT_EQ(trace->events[0].op, core::OpKind::Forward);
    EXPECT_FALSE(trace->check.passed);
}

// A warning every rank gives at the same line is said once, with its ranks: four ranks that each
// start two all-reduces and await neither printed a line for each of the eight.
TEST_F(Runner, AWarningOfEveryRankIsSaidOnceWithItsRanks)
{
    const std::string source = R"py(
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
        model.allreduce_start(grad_weights[layer], layer)
    if model.rank == 2:
        model.allreduce_start(grad_weights[0], 0)
)py";
    const CliResult result = run(source, "puzzle", 4, {"--layers", "2", "--batches", "4"});
    const auto count = [&](const std::string &part) {
        std::size_t n = 0;
        for (std::size_t at = result.err.find(part); at != std::string::npos;
             at = result.err.find(part, at + 1))
            ++n;
        return n;
    };
    EXPECT_EQ(count("Warning"), 3U) << result.err;
    EXPECT_EQ(count("Warning (ranks 0-3, line 12): allreduce(layer 1) was started here but never "
                    "awaited"),
              1U)
        << result.err;
    EXPECT_EQ(count("Warning (ranks 0-3, line 12): allreduce(layer 0) was started"), 1U)
        << result.err;
    EXPECT_EQ(count("Warning (rank 2, line 14): allreduce(layer 0) was started"), 1U) << result.err;
}

} // namespace
} // namespace rankstep::pythontests
