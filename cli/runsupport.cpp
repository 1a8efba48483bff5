// SPDX-License-Identifier: MIT
#include "runsupport.h"

#include "core/io/costfile.h"

#include "core/io/chrometrace.h"
#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "core/lessons/puzzleimport.h"
#include "core/lessons/pythonsource.h"
#include "core/limits.h"
#include "runreport.h"
#include "supervisor.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace rankstep::cli {
namespace {

// --bandwidth GBPS: every link of a real-scale cost model, inside and between nodes, at GBPS
// gigabytes a second each way (what a sweep's bandwidth axis changes).
void setBandwidth(core::CostModel &cost, const std::string &text)
{
    if (!cost.network)
        throw UsageError{"--bandwidth needs a real-scale cost model (--cost " +
                         std::string("gpt2-small-8xa100, for example): under the notebook's ") +
                         "costs a collective takes a fixed time, whatever its bytes"};
    char *end = nullptr;
    const double gigabytes = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(gigabytes) ||
        gigabytes <= 0 || gigabytes > 1e6)
        throw UsageError{
            "--bandwidth takes gigabytes a second, a number above 0 and at most "
            "1000000, not '" +
            text + "'"};
    cost.network->intraNodeBandwidth = gigabytes * 1e9;
    cost.network->interNodeBandwidth = gigabytes * 1e9;
}

} // namespace

void applyRunOptions(const Arguments &args, RunSetup &request)
{
    request.maxOperations =
        args.integer("max-ops", defaultMaxOperations(request.config.ranks), 0, 1LL << 40);
    request.timeLimitSeconds = args.seconds("timeout", request.timeLimitSeconds);
    request.echoOutput = !args.has("quiet");
    const long long memory =
        args.integer("memory-limit", defaultMemoryLimitMiB(request.config.ranks), 0, 1LL << 30);
    if (memory > 0 && memory < kMinMemoryLimitMiB)
        throw UsageError{"--memory-limit " + std::to_string(memory) +
                         " is too little for Python itself to start (it needs about 40 MiB): "
                         "give at least " +
                         std::to_string(kMinMemoryLimitMiB) + ", or 0 for no limit"};
    request.memoryLimitMiB = memory;
    // A cost model other than the notebook's (docs/cost-models.md), sized for this run's layers.
    if (args.has("cost")) {
        auto recipe = io::loadCostRecipe(args.text("cost"));
        if (!recipe)
            throw UsageError{recipe.error().message};
        request.config.cost = io::resolveCost(*recipe, request.config.layers);
    }
    if (args.has("bandwidth"))
        setBandwidth(request.config.cost, args.text("bandwidth"));
    // The layout (core/layout.h): the data-parallel degree is what the others leave of --ranks.
    core::Layout &layout = request.config.layout;
    layout.tensor = int(args.integer("tensor", layout.tensor, 1, 1 << 16));
    layout.context = int(args.integer("context", layout.context, 1, 1 << 16));
    layout.pipeline = int(args.integer("pipeline", layout.pipeline, 1, 1 << 16));
    layout.expert = int(args.integer("expert", layout.expert, 1, 1 << 16));
    if (const std::string problem = core::layoutProblem(request.config.ranks, layout);
        !problem.empty())
        throw UsageError{problem};
}

void refuseOutputsOverInputs(const Arguments &args, const std::vector<std::string> &inputs)
{
    namespace fs = std::filesystem;
    for (const char *option : kOutputOptions) {
        if (!args.has(option))
            continue;
        const fs::path output = args.text(option);
        for (const std::string &input : inputs) {
            std::error_code error;
            const bool same = fs::exists(output, error) ? fs::equivalent(output, input, error)
                                                        : fs::weakly_canonical(output, error) ==
                                                              fs::weakly_canonical(input, error);
            if (same)
                throw UsageError{std::string("--") + option + " would overwrite the input file " +
                                 input + ": give another path for it"};
        }
    }
}

void writeTraceFiles(const Arguments &args, const core::Trace &trace, const std::string &file,
                     const std::string &function, const std::string &encoded)
{
    for (const char *option : {"json", "trace-json"})
        if (args.has(option))
            writeFile(args.text(option), io::traceToJson(trace, {file, function}));
    if (args.has("chrome-trace"))
        writeFile(args.text("chrome-trace"), io::traceToChromeJson(trace));
    // Not `encoded.empty() ? traceToBinary(...) : encoded`, which copies `encoded` (hundreds of MB
    // at 16,384 ranks) into a temporary.
    if (args.has("trace-out")) {
        if (encoded.empty())
            writeFile(args.text("trace-out"), io::traceToBinary(trace, {file, function}));
        else
            writeFile(args.text("trace-out"), encoded);
    }
}

void printRun(const core::Trace &trace)
{
    std::cout << formatFigures(trace);
    std::cerr << formatWarnings(trace); // both spell the learner's texts (core::terminalText)
    if (trace.error)
        std::cerr << formatError(*trace.error);
}

std::vector<std::string> outputPaths(const Arguments &args)
{
    std::vector<std::string> paths;
    for (const char *option : kOutputOptions)
        if (args.has(option))
            paths.push_back(args.text(option));
    return paths;
}

namespace {

// --function, or the file's only top-level function, found as grade and the app's import find
// functions (lessons::scanSource), here, outside the sandbox and without Python. A file Python
// refuses as a whole, or one that is no text, is left to the runner, whose run reports why.
RunnerJob jobFor(const Arguments &args, const RunSetup &setup)
{
    if (args.has("function")) {
        RunnerJob job{setup, false};
        job.request.function = args.text("function");
        return job;
    }
    // Not UTF-8 text, or a NUL byte: the runner's run says so too.
    const bool text = bool(lessons::readPuzzleSource("code.py", setup.source));
    if (!text || lessons::scanSource(setup.source).problem)
        return RunnerJob{setup, true};
    const std::vector<std::string> functions = lessons::definedFunctions(setup.source);
    if (functions.size() != 1) {
        std::string names;
        for (const std::string &name : functions)
            names += (names.empty() ? "" : ", ") + name;
        throw UsageError{
            "say which function to run with --function NAME" +
            (names.empty() ? std::string() : " (" + setup.fileName + " defines " + names + ")")};
    }
    RunnerJob job{setup, false};
    job.request.function = functions.front();
    return job;
}

} // namespace

RunResult runOne(const Arguments &args, const RunSetup &setup)
{
    RunnerJob job = jobFor(args, setup);
    SandboxedRuns runs = runSandboxed({job}, setup.memoryLimitMiB, outputPaths(args));
    if (runs.traces.empty())
        return {runs.exitCode, std::nullopt, {}, {}};
    return {kSolved, std::move(runs.traces.front()), runs.functions.front(),
            std::move(runs.encoded.front())};
}

RunSetup runRequest(const Arguments &args, const std::string &file)
{
    RunSetup request;
    request.source = readFile(file);
    request.fileName = file;
    request.config.ranks = int(args.integer("ranks", 1, 1, core::kMostRanks));
    request.config.layers = int(args.integer("layers", 2, 1, 4096));
    request.config.batches = int(args.integer("batches", 4, 1, 1 << 16));
    applyRunOptions(args, request);
    return request;
}

} // namespace rankstep::cli
