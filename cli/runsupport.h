// SPDX-License-Identifier: MIT
#pragma once

#include "arguments.h"
#include "core/python/runtime.h"
#include "core/trace.h"
#include "figureexport.h"

#include <iterator>
#include <string>
#include <vector>

namespace rankstep::cli {

// The options that name a file the command writes: the supervisor removes what a run that failed
// wrote there (supervisor.h), and none of them may name the code file (refuseOutputsOverInputs).
// svg, png and state-png are figures (figureexport.h).
inline constexpr const char *kOutputOptions[] = {"json", "trace-json", "chrome-trace", "trace-out",
                                                 "svg",  "png",        "state-png"};
// Options every command that runs code takes: its outputs, where the figures stand (at), its
// limits and its cost model.
inline const std::vector<std::string> kRunOptions = [] {
    std::vector<std::string> options(std::begin(kOutputOptions), std::end(kOutputOptions));
    for (const char *option : {"at", "max-ops", "timeout", "memory-limit", "cost", "bandwidth"})
        options.emplace_back(option);
    return options;
}();
// The address space a run may use unless --memory-limit says otherwise (MiB; 0 = no limit).
inline constexpr long long kDefaultMemoryLimitMiB = 2048;
inline const std::vector<std::string> kRunFlags = {"quiet", "no-report"};
// The smallest --memory-limit other than 0 (MiB): below about 40, Python cannot even start.
inline constexpr long long kMinMemoryLimitMiB = 64;

// Applies --max-ops, --timeout and --quiet to a request, and --memory-limit to this process.
// The function to run: --function, or the file's only top-level function ("" when the file does
// not parse: the run reports why); a UsageError when it defines several.
std::string chooseFunction(python::Runtime &runtime, const Arguments &args,
                           const std::string &source, const std::string &file);
// What `run` and `explain` run: FILE (read with readFile's checks) at --ranks/--layers/--batches,
// with the run options (applyRunOptions).
python::RunRequest runRequest(const Arguments &args, const std::string &file);
void applyRunOptions(const Arguments &args, python::RunRequest &request);
// Refuses (UsageError, exit 64) any output option naming one of `inputs` (the code file), as
// the same path, a link to it or another name of it, before anything is written.
void refuseOutputsOverInputs(const Arguments &args, const std::vector<std::string> &inputs);
// Runs the request; code that cannot be interrupted ends the process (exit code 4).
python::RunOutcome runGuarded(python::Runtime &runtime, const python::RunRequest &request);
// Writes --json (or --trace-json), --chrome-trace and --trace-out (the binary trace) when asked
// for: in a supervised runner the files go to the supervisor with the run's report (runchannel.h).
void writeTraceFiles(const Arguments &args, const core::Trace &trace, const std::string &file,
                     const std::string &function);
// writeFigureFiles (figureexport.h), left to the supervisor in a supervised runner: it draws them
// from the reported trace, outside the sandbox.
void writeFigures(const Arguments &args, const core::Trace &trace, const FigureCaption &caption);
// Figures on stdout; warnings and the error on stderr.
void printRun(const core::Trace &trace);

} // namespace rankstep::cli
