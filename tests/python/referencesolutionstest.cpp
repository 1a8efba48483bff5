// SPDX-License-Identifier: MIT
// The eight reference solutions in Python (lessons/*/solution.py) reproduce every row of
// docs/simulation.md's published figures, through python::Runtime and through rankstep-cli.
#include "pythontestsupport.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <set>
#include <string>

namespace rankstep::pythontests {
namespace {

// Copied from docs/simulation.md, "The published figures".
struct Published {
    const char *lesson;
    const char *function;
    int ranks, layers, batches;
    const char *timesteps;
    std::int64_t maxMemory;
    int maxMemoryRank;
    const char *maxMemoryTime;
};

void PrintTo(const Published &row, std::ostream *out)
{
    *out << row.function;
}

const Published kPublished[] = {
    {"10-basic", "basic", 1, 2, 4, "16.5", 2621440, 0, "8"},
    {"20-grad_accum", "grad_accum", 1, 2, 4, "16.5", 1966080, 0, "6"},
    {"30-ddp", "ddp", 4, 2, 4, "5.1", 1835008, 0, "4"},
    {"40-wsdp", "wsdp", 4, 6, 4, "19.9", 2752512, 0, "14.6"},
    {"50-fsdp", "fsdp", 4, 6, 4, "19.9", 2359296, 0, "9.1"},
    {"60-pipeline", "pipeline", 4, 8, 4, "66.9", 3145728, 0, "58.4"},
    {"70-gpipe", "gpipe", 4, 8, 4, "33.3", 4194304, 1, "30.4"},
    {"80-pipeline_fsdp", "pipeline_fsdp", 16, 4, 4, "15.5", 966656, 0, "13.7"},
};

std::string solutionPath(const Published &row)
{
    return std::string("lessons/") + row.lesson + "/solution.py";
}

// "pipeline_fsdp" -> "PipelineFsdp": GoogleTest names have no underscores.
std::string testName(const Published &row)
{
    std::string name;
    bool upper = true;
    for (const char *c = row.function; *c != '\0'; ++c) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        name += upper ? char(*c - 'a' + 'A') : *c;
        upper = false;
    }
    return name;
}

class ReferenceSolution : public ::testing::TestWithParam<Published>
{};

TEST_P(ReferenceSolution, ReproducesThePublishedFiguresThroughTheLibrary)
{
    const Published &row = GetParam();
    python::Runtime runtime;
    python::RunRequest request = makeRequest(readSourceFile(solutionPath(row)), row.function,
                                             row.ranks, row.layers, row.batches);
    request.fileName = solutionPath(row);
    const python::RunOutcome outcome = runtime.run(request);
    const core::Trace &trace = outcome.trace;

    ASSERT_TRUE(isCorrect(trace));
    EXPECT_EQ(trace.config.ranks, row.ranks);
    EXPECT_EQ(trace.figures.timesteps.toString(), row.timesteps);
    EXPECT_EQ(trace.figures.maxMemory, row.maxMemory);
    EXPECT_EQ(trace.figures.maxMemoryRank, row.maxMemoryRank);
    EXPECT_EQ(trace.figures.maxMemoryTime.toString(), row.maxMemoryTime);
    // docs/simulation.md's check, seen in the trace: every layer has final weights, all at step 1.
    std::set<int> layers;
    for (const auto &rankWeights : trace.finalWeights) {
        for (const auto &[layer, weight] : rankWeights) {
            layers.insert(layer);
            EXPECT_EQ(weight.step, 1) << "layer " << layer;
        }
    }
    EXPECT_EQ(layers.size(), std::size_t(row.layers));
    // Every timed operation is attributed to a line of the solution file.
    for (const core::Event &event : trace.events)
        EXPECT_GT(event.line, 0) << core::opName(event.op) << " on rank " << event.rank;
}

TEST_P(ReferenceSolution, PrintsThePublishedFiguresThroughTheRunner)
{
    const Published &row = GetParam();
    TempDir dir;
    const CliResult result =
        runCli({"run", std::string(RANKSTEP_SOURCE_DIR) + "/" + solutionPath(row), "--function",
                row.function, "--ranks", std::to_string(row.ranks), "--layers",
                std::to_string(row.layers), "--batches", std::to_string(row.batches), "--quiet"},
               dir);

    EXPECT_EQ(result.exitCode, 0) << result.err;
    const std::string timesteps = std::string("Timesteps: ") + row.timesteps + "\n";
    const std::string memory = "Maximum Memory: " + std::to_string(row.maxMemory) +
                               " at GPU: " + std::to_string(row.maxMemoryRank) +
                               " time: " + row.maxMemoryTime + "\n";
    // The notebook prints these two lines first, in this order.
    EXPECT_EQ(result.out.rfind(timesteps + memory, 0), 0u) << result.out;
    EXPECT_NE(result.out.find("\nCorrect!\n"), std::string::npos) << result.out;
    EXPECT_EQ(result.err, "");
}

INSTANTIATE_TEST_SUITE_P(Published, ReferenceSolution, ::testing::ValuesIn(kPublished),
                         [](const auto &row) { return testName(row.param); });

TEST(ReferenceSolutions, ListsTheOneFunctionOfEachSolutionFile)
{
    python::Runtime runtime;
    for (const Published &row : kPublished) {
        const auto functions = runtime.listFunctions(readSourceFile(solutionPath(row)), "s.py");
        ASSERT_TRUE(functions.ok()) << row.function;
        ASSERT_EQ(functions->size(), 1u) << row.function;
        EXPECT_EQ(functions->front().name, row.function);
        // Every solution but the two single-rank ones awaits communication.
        EXPECT_EQ(functions->front().isAsync, row.ranks > 1) << row.function;
    }
}

} // namespace
} // namespace rankstep::pythontests
