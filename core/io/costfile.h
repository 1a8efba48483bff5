// SPDX-License-Identifier: MIT
#pragma once

#include "core/costmodel.h"
#include "core/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rankstep::io {

// A cost model file (docs/cost-models.md, `rankstep-cost` version 1): either the notebook's kind,
// fixed times in steps and the HIDDEN and LENGTH that size objects, or a real-scale recipe (a
// model, its precision, a device and a network) that a run's number of layers turns into times
// and sizes. Every file names its sources.
struct CostRecipe {
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    std::optional<core::CostModel> fixed; // the notebook's kind
    int routerSkew = 0;                   // "router_skew": an uneven router of experts

    // A real-scale recipe (when `fixed` is empty).
    double parameters = 0;              // the whole model's
    double tokensPerBatch = 0;          // in one of the puzzle's batches (sequence x micro-batch)
    double activationBytesPerToken = 0; // what one layer keeps for its backward, per token
    // Optional (0: not given): the model's layer count, which then fixes a puzzle layer's share
    // whatever the run's count, and the part of the activations tensor parallelism divides.
    int modelLayers = 0;
    double tensorActivationBytesPerToken = 0;
    double weightBytes = 2, gradientBytes = 2, optimizerBytes = 12; // per parameter
    double flopsPerSecond = 0, utilization = 0, memoryBandwidth = 0;
    double memoryBytes = 0; // optional (0: not given): a device's memory, what a rank must fit in
    core::Network network;
};

// A damaged file is an Error of kind Usage naming the field ("device.utilization: ...").
core::Result<CostRecipe> costRecipeFromJson(std::string_view text);

// The cost model of a run with `layers` layers: the model's parameters split evenly over them;
// a forward of one batch 2 x parameters x tokens FLOPs at the device's rate and utilization, a
// backward twice that; an update the optimizer's bytes read and written at the memory bandwidth.
core::CostModel resolveCost(const CostRecipe &recipe, int layers);

// The presets built in (resources/costs): "notebook", "gpt2-small-8xa100", ...
std::vector<std::string> costPresetNames();
// A preset by name, else a file by path; an unknown name says which presets there are.
core::Result<CostRecipe> loadCostRecipe(const std::string &presetOrPath);

} // namespace rankstep::io
