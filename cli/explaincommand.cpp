// SPDX-License-Identifier: MIT
#include "explaincommand.h"

#include "core/terminaltext.h"
#include "figureexport.h"
#include "runreport.h"
#include "runsupport.h"

#include "core/explain/compare.h"
#include "core/explain/explainjson.h"
#include "core/io/tracebinary.h"
#include "core/io/tracefile.h"

#include <iostream>

namespace rankstep::cli {
namespace {

explain::ExplainOptions explainOptions(const Arguments &args)
{
    explain::ExplainOptions options;
    if (args.has("at") && args.text("at") != "peak") {
        const auto time = core::SimTime::parse(args.text("at"));
        if (!time || time->ticks() < 0)
            throw UsageError{"--at wants a time in steps (such as 30.4) or 'peak', not '" +
                             args.text("at") + "'"};
        options.at = *time;
    }
    if (args.has("target-memory"))
        options.targetMemory = args.integer("target-memory", 0, 0, 1LL << 50);
    return options;
}

core::Trace readTrace(const std::string &path)
{
    auto trace = io::traceFromFile(path);
    if (!trace)
        throw UsageError{trace.error().message};
    return std::move(*trace);
}

// --png / --svg: the explanation slide, drawn from the checked trace like run's figures.
void writeExplainFigures(const Arguments &args, const core::Trace &trace, const std::string &title,
                         std::optional<std::int64_t> target)
{
    std::vector<std::pair<std::string, std::string>> options;
    for (const char *option : {"png", "svg"})
        if (args.has(option))
            options.emplace_back(std::string("explain-") + option, args.text(option));
    if (!options.empty())
        writeFigureFiles(options, io::traceToBinary(trace), {"Why: " + title, target});
}

} // namespace

int explainCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest,
                         {"function", "ranks", "layers", "batches", "at", "target-memory",
                          "max-ops", "timeout", "memory-limit", "png", "svg", "cost", "bandwidth",
                          "tensor", "context", "pipeline", "expert"},
                         {"json", "quiet"});
    if (args.positional().size() != 1)
        throw UsageError{"explain takes exactly one FILE"};
    const std::string file = args.positional().front();
    refuseOutputsOverInputs(args, {file});
    const explain::ExplainOptions options = explainOptions(args);
    RunSetup request = runRequest(args, file);
    if (args.has("json"))
        request.echoOutput = false; // the JSON alone on stdout
    const RunResult result = runOne(args, request);
    if (!result.trace)
        return result.exitCode;
    const core::Trace &trace = *result.trace;
    writeExplainFigures(args, trace, file + " (" + result.function + ")", options.targetMemory);
    if (args.has("json")) {
        std::cout << explain::explainJson(trace, options);
    } else {
        printRun(trace);
        std::cout << "\n" << core::terminalText(explain::explainText(trace, options));
    }
    return exitCodeFor(trace);
}

int compareCommand(const std::vector<std::string> &rest)
{
    const Arguments args(rest, {}, {"json"});
    if (args.positional().size() != 2)
        throw UsageError{"compare takes two trace files (written by --json or --trace-out)"};
    const core::Trace a = readTrace(args.positional()[0]);
    const core::Trace b = readTrace(args.positional()[1]);
    std::cout << (args.has("json") ? explain::compareJson(a, b) : explain::compareText(a, b));
    return kSolved;
}

} // namespace rankstep::cli
