// SPDX-License-Identifier: MIT
#include "costfile.h"

#include "jsonfields.h"

#include "core/regularfile.h"
#include "core/router.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

namespace rankstep::io {

const std::map<std::string, std::string> &builtinCostFiles(); // builtincosts.cpp, generated

namespace {

// A positive number (or, `zeroAllowed`, at least 0) no larger than `most`.
double positive(const Fields &fields, std::string_view key, double most, bool zeroAllowed = false)
{
    const JsonValue &value = fields.get(key);
    if (value.type != JsonValue::Type::Number)
        failAt(value, fields.pathOf(key), "expected a number");
    const double number = std::strtod(value.text.c_str(), nullptr);
    if (!std::isfinite(number) || number < 0 || (!zeroAllowed && number == 0) || number > most) {
        char most_[32];
        std::snprintf(most_, sizeof most_, "%g", most);
        failAt(value, fields.pathOf(key),
               std::string(zeroAllowed ? "expected a number from 0" : "expected a number above 0") +
                   " up to " + most_ + ", got " + value.text);
    }
    return number;
}

// A time of the notebook's kind: steps, at most three decimals, above 0 (the loss may take 0).
core::SimTime steps(const Fields &fields, std::string_view key, bool zeroAllowed = false)
{
    const core::SimTime time = fields.time(key);
    if (!zeroAllowed && time.ticks() == 0)
        failAt(fields.get(key), fields.pathOf(key), "expected a time above 0");
    if (time > core::SimTime::steps(1000))
        failAt(fields.get(key), fields.pathOf(key), "expected at most 1000 steps");
    return time;
}

CostRecipe read(const JsonValue &root)
{
    const Fields top(root, "");
    if (!top.has("format") || top.string("format") != "rankstep-cost")
        failAt(root, "format", "expected \"rankstep-cost\" (a cost model file)");
    if (top.integer("version", 0, 1000) != 1)
        failAt(top.get("version"), "version", "this Rankstep reads version 1");
    CostRecipe recipe;
    recipe.name = top.string("name");
    if (recipe.name.empty())
        failAt(top.get("name"), "name", "must not be empty");
    recipe.description = top.has("description") ? top.string("description") : "";
    // An uneven router of experts (docs/cost-models.md, core/router.h); left out: even.
    if (top.has("router_skew"))
        recipe.routerSkew = int(top.integer("router_skew", 0, core::kMostRouterSkew));
    const std::vector<JsonValue> &sources = top.array("sources");
    if (sources.empty())
        failAt(top.get("sources"), "sources", "name at least one source for the numbers");
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (sources[i].type != JsonValue::Type::String || sources[i].text.empty())
            failAt(sources[i], "sources[" + std::to_string(i) + "]", "expected a text");
        recipe.sources.push_back(sources[i].text);
    }
    if (top.has("fixed")) {
        const Fields f = top.object("fixed");
        core::CostModel cost;
        cost.name = recipe.name;
        cost.forwardPerBatch = steps(f, "forward_per_batch");
        cost.backwardPerBatch = steps(f, "backward_per_batch");
        cost.loss = steps(f, "loss", /*zeroAllowed=*/true);
        cost.update = steps(f, "update");
        // The two halves of a backward: half of it each unless the file says (a file that
        // gives one gives both; they need not add up to the backward).
        cost.splitBackwardEvenly();
        if (f.has("backward_input_per_batch") || f.has("backward_weight_per_batch")) {
            cost.backwardInputPerBatch = steps(f, "backward_input_per_batch");
            cost.backwardWeightPerBatch = steps(f, "backward_weight_per_batch");
        }
        // Communication may cost nothing (the preset `uniform`: only the schedule's bubble).
        cost.allreduce = steps(f, "allreduce", /*zeroAllowed=*/true);
        cost.allgather = steps(f, "allgather", /*zeroAllowed=*/true);
        cost.scatterreduce = steps(f, "scatterreduce", /*zeroAllowed=*/true);
        cost.passTo = steps(f, "pass_to", /*zeroAllowed=*/true);
        cost.receive = steps(f, "receive", /*zeroAllowed=*/true);
        cost.sizes.hidden = f.integer("hidden", 1, 1 << 16);
        cost.sizes.length = f.integer("length", 1, 1 << 16);
        cost.routerSkew = recipe.routerSkew;
        recipe.fixed = cost;
        return recipe;
    }
    constexpr double kMostParameters = 1e14, kMostRate = 1e18;
    const Fields model = top.object("model");
    recipe.parameters = positive(model, "parameters", kMostParameters);
    recipe.tokensPerBatch = positive(model, "tokens_per_batch", 1e9);
    recipe.activationBytesPerToken =
        positive(model, "activation_bytes_per_token", 1e12, /*zeroAllowed=*/true);
    // Optional: the model's own layer count (a puzzle layer is then one of its layers, whatever
    // the run's count) and the part of the activations tensor parallelism divides.
    if (model.has("layers"))
        recipe.modelLayers = model.integer32("layers", 1, 1 << 16);
    if (model.has("tensor_activation_bytes_per_token"))
        recipe.tensorActivationBytesPerToken = positive(model, "tensor_activation_bytes_per_token",
                                                        recipe.activationBytesPerToken, true);
    const Fields precision = top.object("precision");
    recipe.weightBytes = positive(precision, "weight_bytes", 64);
    recipe.gradientBytes = positive(precision, "gradient_bytes", 64);
    recipe.optimizerBytes = positive(precision, "optimizer_bytes", 64);
    const Fields device = top.object("device");
    recipe.flopsPerSecond = positive(device, "flops_per_second", kMostRate);
    recipe.utilization = positive(device, "utilization", 1.0);
    recipe.memoryBandwidth = positive(device, "memory_bytes_per_second", kMostRate);
    if (device.has("memory_bytes"))
        recipe.memoryBytes = positive(device, "memory_bytes", double(core::kMostDeviceMemory));
    const Fields network = top.object("network");
    recipe.network.gpusPerNode = network.integer32("gpus_per_node", 1, 1 << 16);
    recipe.network.intraNodeBandwidth = positive(network, "intra_node_bytes_per_second", kMostRate);
    recipe.network.interNodeBandwidth = positive(network, "inter_node_bytes_per_second", kMostRate);
    recipe.network.latencySeconds = positive(network, "latency_seconds", 1.0, true);
    return recipe;
}

core::SimTime seconds(double s)
{
    return core::SimTime::fromTicks(std::llround(s * core::kRealTicksPerSecondOfCost));
}

} // namespace

core::Result<CostRecipe> costRecipeFromJson(std::string_view text)
{
    core::Result<JsonValue> parsed = parseJson(text);
    if (!parsed)
        return core::Error{core::ErrorKind::Usage, -1, 0, parsed.error().message};
    try {
        return read(*parsed);
    } catch (const FieldError &error) {
        return core::Error{core::ErrorKind::Usage, -1, 0, error.message};
    }
}

core::CostModel resolveCost(const CostRecipe &recipe, int layers)
{
    if (recipe.fixed)
        return *recipe.fixed;
    core::CostModel cost;
    cost.name = recipe.name;
    if (recipe.modelLayers > 0)
        layers = recipe.modelLayers;
    cost.routerSkew = recipe.routerSkew;
    const double perLayer = recipe.parameters / std::max(1, layers);
    const double rate = recipe.flopsPerSecond * recipe.utilization;
    cost.forwardPerBatch = seconds(2.0 * perLayer * recipe.tokensPerBatch / rate);
    cost.backwardPerBatch = seconds(4.0 * perLayer * recipe.tokensPerBatch / rate);
    cost.splitBackwardEvenly(); // the input and the weight gradient: one matrix product each
    cost.loss = core::SimTime();
    // Adam reads the gradient and the optimizer state and writes the state and the weights.
    cost.update =
        seconds(perLayer * (recipe.gradientBytes + 2 * recipe.optimizerBytes + recipe.weightBytes) /
                recipe.memoryBandwidth);
    cost.sizes.weightBytes = std::llround(perLayer * recipe.weightBytes);
    cost.sizes.gradientBytes = std::llround(perLayer * recipe.gradientBytes);
    cost.sizes.optimizerBytes = std::llround(perLayer * recipe.optimizerBytes);
    cost.sizes.activationBytes = std::max<std::int64_t>(
        1,
        std::llround(recipe.activationBytesPerToken / std::max(1, layers) * recipe.tokensPerBatch));
    cost.sizes.activationTensorBytes = std::llround(recipe.tensorActivationBytesPerToken /
                                                    std::max(1, layers) * recipe.tokensPerBatch);
    cost.network = recipe.network;
    if (recipe.memoryBytes > 0) // at least a byte: 0 means not given
        cost.deviceMemory = std::max<std::int64_t>(1, std::llround(recipe.memoryBytes));
    return cost;
}

std::vector<std::string> costPresetNames()
{
    std::vector<std::string> names;
    for (const auto &[name, text] : builtinCostFiles())
        names.push_back(name);
    return names;
}

core::Result<CostRecipe> loadCostRecipe(const std::string &presetOrPath)
{
    const auto &presets = builtinCostFiles();
    std::string text, where;
    if (const auto preset = presets.find(presetOrPath); preset != presets.end()) {
        text = preset->second;
        where = "the preset " + presetOrPath;
    } else if (presetOrPath.find('/') != std::string::npos ||
               presetOrPath.find(".json") != std::string::npos) {
        auto read = core::readRegularFile(presetOrPath, core::kMaxLessonFileBytes);
        if (!read)
            return core::Error{core::ErrorKind::Usage, -1, 0,
                               "--cost " + presetOrPath + ": " + read.error().message};
        text = std::move(*read);
        where = presetOrPath;
    } else {
        std::string known;
        for (const std::string &name : costPresetNames())
            known += (known.empty() ? "" : ", ") + name;
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "--cost " + presetOrPath + ": no such preset (the presets: " + known +
                               "); a file's path names a file of your own"};
    }
    auto recipe = costRecipeFromJson(text);
    if (!recipe)
        return core::Error{core::ErrorKind::Usage, -1, 0,
                           "--cost " + where + ": " + recipe.error().message};
    // A file of one's own never passes for a preset by its name: "notebook" with GPT-2's numbers
    // would read "Correct under the cost model notebook". Whether a run is graded depends on its
    // numbers alone (core::isNotebookCost).
    if (where == presetOrPath && presets.count(recipe->name)) {
        recipe->name += " (from " + presetOrPath + ")";
        if (recipe->fixed)
            recipe->fixed->name = recipe->name;
    }
    return recipe;
}

} // namespace rankstep::io
