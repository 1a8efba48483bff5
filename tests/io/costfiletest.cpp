// SPDX-License-Identifier: MIT
// Cost models as data (docs/cost-models.md): the presets load and cite their sources;
// `notebook` is exactly the simulator's defaults, so every published figure stays; a real-scale
// recipe turns parameters and a device into times and sizes; a damaged file names its field.
#include "core/io/costfile.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "testtraces.h"

#include "core/trace.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace rankstep::io {
namespace {

// A preset is one file: the presets built in (the app's Run > Cost Model menu, the CLI's --cost)
// are the JSON files of resources/costs, by name.
TEST(CostFile, ThePresetsAreTheFilesOfTheCostsFolder)
{
    std::vector<std::string> files;
    for (const auto &entry : std::filesystem::directory_iterator(RANKSTEP_COSTS_DIR))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path().stem().string());
    std::sort(files.begin(), files.end());
    std::vector<std::string> names = costPresetNames();
    std::sort(names.begin(), names.end());
    EXPECT_FALSE(files.empty());
    EXPECT_EQ(names, files);
}

TEST(CostFile, EveryPresetLoadsAndNamesItsSources)
{
    const std::vector<std::string> names = costPresetNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "notebook"), names.end());
    for (const std::string &name : names) {
        const auto recipe = loadCostRecipe(name);
        ASSERT_TRUE(recipe) << recipe.error().message;
        EXPECT_EQ(recipe->name, name);
        EXPECT_GE(recipe->sources.size(), 2U) << name;
    }
}

TEST(CostFile, TheNotebookPresetIsTheSimulatorsDefault)
{
    const auto recipe = loadCostRecipe("notebook");
    ASSERT_TRUE(recipe) << recipe.error().message;
    const core::CostModel cost = resolveCost(*recipe, 6);
    const core::CostModel defaults;
    EXPECT_EQ(cost.forwardPerBatch, defaults.forwardPerBatch);
    EXPECT_EQ(cost.backwardPerBatch, defaults.backwardPerBatch);
    EXPECT_EQ(cost.loss, defaults.loss);
    EXPECT_EQ(cost.update, defaults.update);
    EXPECT_EQ(cost.allreduce, defaults.allreduce);
    EXPECT_EQ(cost.allgather, defaults.allgather);
    EXPECT_EQ(cost.scatterreduce, defaults.scatterreduce);
    EXPECT_EQ(cost.passTo, defaults.passTo);
    EXPECT_EQ(cost.receive, defaults.receive);
    EXPECT_EQ(cost.sizes, defaults.sizes);
    EXPECT_FALSE(cost.realScale());
}

TEST(CostFile, ARealScaleRecipeGivesTimesFromFlopsAndSizesFromParameters)
{
    const auto recipe = loadCostRecipe("zero-paper-7.5b");
    ASSERT_TRUE(recipe) << recipe.error().message;
    const core::CostModel cost = resolveCost(*recipe, 8);
    ASSERT_TRUE(cost.realScale());
    // 7.5B parameters over 8 layers: 937.5M a layer; 2, 2 and 12 bytes a parameter.
    EXPECT_EQ(cost.sizes.weightBytes, 1'875'000'000);
    EXPECT_EQ(cost.sizes.gradientBytes, 1'875'000'000);
    EXPECT_EQ(cost.sizes.optimizerBytes, 11'250'000'000);
    // A forward of one batch: 2 x 937.5M x 1024 tokens / (125 TFLOPS x 0.3) = 51.2 ms; a
    // backward twice that; a tick is a microsecond.
    EXPECT_EQ(cost.forwardPerBatch, core::SimTime::fromTicks(51'200));
    EXPECT_EQ(cost.backwardPerBatch, core::SimTime::fromTicks(102'400));
    EXPECT_EQ(cost.network->gpusPerNode, 16);
}

TEST(CostFile, ADamagedFileNamesItsField)
{
    const std::string good = R"({"format": "rankstep-cost", "version": 1, "name": "mine",
 "sources": ["a measurement"],
 "model": {"parameters": 1e9, "tokens_per_batch": 2048, "activation_bytes_per_token": 0},
 "precision": {"weight_bytes": 2, "gradient_bytes": 2, "optimizer_bytes": 12},
 "device": {"flops_per_second": 1e14, "utilization": 0.5, "memory_bytes_per_second": 1e12},
 "network": {"gpus_per_node": 8, "intra_node_bytes_per_second": 1e11,
             "inter_node_bytes_per_second": 1e10, "latency_seconds": 1e-5}})";
    ASSERT_TRUE(costRecipeFromJson(good)) << costRecipeFromJson(good).error().message;
    const struct {
        std::string from, to, names;
    } cases[] = {
        {R"("utilization": 0.5)", R"("utilization": 0)", "device.utilization"},
        {R"("utilization": 0.5)", R"("utilization": 1.5)", "device.utilization"},
        {R"("parameters": 1e9)", R"("parameters": -1e9)", "model.parameters"},
        {R"("gpus_per_node": 8, )", "", "network: the member \"gpus_per_node\" is missing"},
        {R"("sources": ["a measurement"])", R"("sources": [])", "sources"},
        {R"("rankstep-cost")", R"("rankstep-trace")", "format"},
    };
    for (const auto &c : cases) {
        std::string text = good;
        text.replace(text.find(c.from), c.from.size(), c.to);
        const auto read = costRecipeFromJson(text);
        ASSERT_FALSE(read) << c.names;
        EXPECT_NE(read.error().message.find(c.names), std::string::npos) << read.error().message;
    }
    const std::string fixed = R"({"format": "rankstep-cost", "version": 1, "name": "slow",
 "sources": ["mine"], "fixed": {"forward_per_batch": 0, "backward_per_batch": 1, "loss": 0,
 "update": 0.5, "allreduce": 0.3, "allgather": 0.3, "scatterreduce": 0.3, "pass_to": 0.2,
 "receive": 0.2, "hidden": 512, "length": 256}})";
    const auto zero = costRecipeFromJson(fixed);
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.error().message.find("fixed.forward_per_batch"), std::string::npos)
        << zero.error().message;
}

// The pipeline papers' unit costs: a forward, an input gradient and a weight gradient of a layer
// each take a step (a whole backward two), and communication takes none.
TEST(CostFile, TheUniformPresetPricesForwardInputAndWeightGradientsTheSame)
{
    const auto recipe = loadCostRecipe("uniform");
    ASSERT_TRUE(recipe) << recipe.error().message;
    const core::CostModel cost = resolveCost(*recipe, 8);
    EXPECT_EQ(cost.forwardPerBatch, core::SimTime::steps(1));
    EXPECT_EQ(cost.backwardInputPerBatch, core::SimTime::steps(1));
    EXPECT_EQ(cost.backwardWeightPerBatch, core::SimTime::steps(1));
    EXPECT_EQ(cost.backwardPerBatch, core::SimTime::steps(2));
    for (const core::SimTime time :
         {cost.allreduce, cost.allgather, cost.scatterreduce, cost.passTo, cost.receive})
        EXPECT_EQ(time, core::SimTime());
    EXPECT_FALSE(core::isNotebookCost(cost));
}

// A file written before the backward could be split loads as before, its backward halved
// between the two halves; one that gives them keeps them.
TEST(CostFile, TheHalvesOfTheBackwardDefaultToHalfOfIt)
{
    const std::string old = R"({"format": "rankstep-cost", "version": 1, "name": "old",
 "sources": ["mine"], "fixed": {"forward_per_batch": 1, "backward_per_batch": 3, "loss": 0,
 "update": 0.5, "allreduce": 0.3, "allgather": 0.3, "scatterreduce": 0.3, "pass_to": 0.2,
 "receive": 0.2, "hidden": 512, "length": 256}})";
    const auto read = costRecipeFromJson(old);
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_EQ(read->fixed->backwardInputPerBatch, core::SimTime::fromTicks(1500));
    EXPECT_EQ(read->fixed->backwardWeightPerBatch, core::SimTime::fromTicks(1500));
    std::string split = old;
    split.replace(split.find("\"loss\""), 0,
                  "\"backward_input_per_batch\": 2, \"backward_weight_per_batch\": 1, ");
    const auto given = costRecipeFromJson(split);
    ASSERT_TRUE(given) << given.error().message;
    EXPECT_EQ(given->fixed->backwardInputPerBatch, core::SimTime::steps(2));
    EXPECT_EQ(given->fixed->backwardWeightPerBatch, core::SimTime::steps(1));
    const auto notebook = loadCostRecipe("notebook");
    ASSERT_TRUE(notebook);
    EXPECT_TRUE(core::isNotebookCost(resolveCost(*notebook, 4)));
}

// A trace made under a real-scale model keeps it through both formats: its name, the kinds'
// sizes and the links (the notebook's traces are written as before).
TEST(CostFile, TracesKeepARealScaleModelInJsonAndBinary)
{
    core::Trace trace = testing::referenceTrace("ddp");
    const std::string notebookJson = traceToJson(trace);
    EXPECT_EQ(notebookJson.find("\"network\""), std::string::npos);
    const auto recipe = loadCostRecipe("llama2-7b-8xh100");
    ASSERT_TRUE(recipe);
    trace.config.cost = resolveCost(*recipe, trace.config.layers);
    const auto json = traceFromJson(traceToJson(trace));
    ASSERT_TRUE(json) << json.error().message;
    const auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_TRUE(binary) << binary.error().message;
    for (const core::Trace *read : {&*json, &*binary}) {
        const core::CostModel &cost = read->config.cost;
        EXPECT_EQ(cost.name, "llama2-7b-8xh100");
        EXPECT_EQ(cost.sizes, trace.config.cost.sizes);
        ASSERT_TRUE(cost.network);
        EXPECT_EQ(*cost.network, *trace.config.cost.network);
    }
}

// The preset of the paper's layout names an H100's 80 GB: the run's cost model carries it into
// its trace, in both formats, and a recipe that names no device's memory gives none.
TEST(CostFile, TheDevicesMemoryGoesWithTheRunIntoItsTrace)
{
    const auto llama = loadCostRecipe("llama3-405b");
    ASSERT_TRUE(llama) << llama.error().message;
    core::Trace trace = testing::referenceTrace("ddp");
    trace.config.cost = resolveCost(*llama, trace.config.layers);
    EXPECT_EQ(trace.config.cost.deviceMemory, 80'000'000'000);
    const auto json = traceFromJson(traceToJson(trace));
    ASSERT_TRUE(json) << json.error().message;
    const auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_TRUE(binary) << binary.error().message;
    EXPECT_EQ(json->config.cost.deviceMemory, 80'000'000'000);
    EXPECT_EQ(binary->config.cost.deviceMemory, 80'000'000'000);
    const auto llama2 = loadCostRecipe("llama2-7b-8xh100");
    ASSERT_TRUE(llama2);
    EXPECT_EQ(resolveCost(*llama2, 4).deviceMemory, 0);
}

std::string presetText(const std::string &name)
{
    std::ifstream in(std::filesystem::path(RANKSTEP_COSTS_DIR) / (name + ".json"));
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// A file of one's own that calls itself "notebook" (with GPT-2's numbers, or even with the
// notebook's own) is shown with where it came from; only its numbers decide whether a run under
// it is graded.
TEST(CostFile, AFileNamedLikeAPresetNeverPassesForIt)
{
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("rankstep-cost-" + std::to_string(getpid()));
    std::string gpt2 = presetText("gpt2-small-8xa100");
    const std::string name = R"("name": "gpt2-small-8xa100")";
    ASSERT_NE(gpt2.find(name), std::string::npos);
    gpt2.replace(gpt2.find(name), name.size(), R"("name": "notebook")");
    for (const auto &[text, notebookNumbers] :
         {std::pair{gpt2, false}, std::pair{presetText("notebook"), true}}) {
        std::ofstream(file) << text;
        const auto recipe = loadCostRecipe(file.string());
        ASSERT_TRUE(recipe) << recipe.error().message;
        const core::CostModel cost = resolveCost(*recipe, 4);
        EXPECT_EQ(cost.name, "notebook (from " + file.string() + ")");
        EXPECT_EQ(core::isNotebookCost(cost), notebookNumbers);
    }
    std::filesystem::remove(file);
}

TEST(CostFile, AnUnknownPresetSaysWhichThereAre)
{
    const auto read = loadCostRecipe("gpt5");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("no such preset"), std::string::npos);
    EXPECT_NE(read.error().message.find("zero-paper-7.5b"), std::string::npos)
        << read.error().message;
}

} // namespace
} // namespace rankstep::io
