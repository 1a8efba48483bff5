// SPDX-License-Identifier: MIT
#include "exportcommand.h"

#include "runreport.h"
#include "runsupport.h"
#include "torchexport.h"

#include "core/terminaltext.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace rankstep::cli {
namespace {

// The lines as Python counts them (the events' line numbers): \n, \r\n and \r end one.
std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> lines(1);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r') {
            lines.back() += text[i];
            continue;
        }
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
        lines.emplace_back();
    }
    return lines;
}

void refuseOverwritingInput(const std::string &output, const std::string &input)
{
    namespace fs = std::filesystem;
    std::error_code error;
    const bool same = fs::exists(output, error) ? fs::equivalent(output, input, error)
                                                : fs::weakly_canonical(output, error) ==
                                                      fs::weakly_canonical(input, error);
    if (same)
        throw UsageError{"export: --torch would overwrite the input file " + input +
                         ": give another path for it"};
}

} // namespace

int exportCommand(const std::vector<std::string> &rest)
{
    // --context: the one layout the program makes (every rank's chunk of the sequence).
    std::vector<std::string> valued = {"function", "ranks",  "layers", "batches", "torch",
                                       "hidden",   "length", "seed",   "context"};
    for (const char *option : {"max-ops", "timeout", "memory-limit"})
        valued.emplace_back(option);
    const Arguments args(rest, valued, {"quiet"});
    if (args.positional().size() != 1)
        throw UsageError{"export takes exactly one FILE"};
    if (!args.has("torch"))
        throw UsageError{"export: say where to write the program with --torch OUT.py"};
    const std::string file = args.positional().front();
    const std::string output = args.text("torch");
    refuseOverwritingInput(output, file);
    TorchExportSource source;
    source.hidden = int(args.integer("hidden", 512, 1, 4096));
    source.length = int(args.integer("length", 256, 1, 4096));
    source.seed = int(args.integer("seed", 0, 0, 1'000'000'000));

    const RunSetup setup = runRequest(args, file);
    const RunResult result = runOne(args, setup);
    if (!result.trace)
        return result.exitCode;
    const core::Trace &trace = *result.trace;
    if (trace.status != core::RunStatus::Ok) {
        printRun(trace);
        std::cerr << "Not exported: the run did not finish, so it has no whole schedule to "
                     "write.\n";
        return exitCodeFor(trace);
    }
    source.fileName = file;
    source.function = result.function;
    source.sourceLines = linesOf(setup.source);
    const TorchProgram program = torchProgram(trace, source);
    if (!program.refused.empty()) {
        std::cerr << "Not exported: " << core::terminalText(program.refused) << "\n";
        return kNotSolved;
    }
    writeFile(output, program.text);
    const int ranks = trace.config.ranks;
    std::cout << "Wrote " << core::terminalText(output) << ": the schedule of "
              << core::terminalText(result.function) << " at " << ranks
              << " ranks as a PyTorch program. Run it with\n  torchrun --standalone "
                 "--nproc_per_node "
              << ranks << " " << core::terminalText(output)
              << " --check\n(on Debian's Python 3.11: python3 -m torch.distributed.run "
                 "--standalone --nproc_per_node "
              << ranks << " --redirects 1 --tee 1 " << core::terminalText(output) << " --check)\n";
    if (!trace.check.passed)
        std::cout << "Note: the simulation says this schedule is not correct yet ("
                  << core::terminalText(trace.check.message)
                  << "); the program's --check will show it.\n";
    for (const std::string &note : program.notes)
        std::cout << "Note: " << note << "\n";
    return kSolved;
}

} // namespace rankstep::cli
