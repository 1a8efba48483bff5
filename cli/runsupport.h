// SPDX-License-Identifier: MIT
#pragma once

#include "arguments.h"
#include "core/python/runtime.h"
#include "core/trace.h"
#include "figureexport.h"

#include <algorithm>
#include <iterator>
#include <optional>
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
    for (const char *option : {"at", "max-ops", "timeout", "memory-limit", "cost", "bandwidth",
                               "tensor", "context", "pipeline", "expert"})
        options.emplace_back(option);
    return options;
}();
// The address space a run may use unless --memory-limit says otherwise (MiB; 0 = no limit).
inline constexpr long long kDefaultMemoryLimitMiB = 2048;
// A run of many ranks records more: its defaults grow with it, 256 KiB of address space and 4000
// operations (events and storage changes) a rank, beyond 2048 MiB and 5,000,000 (4 GiB and
// 65,536,000 at 16,384 ranks, the largest run; the four_d lesson's solution there makes 38.6
// million and needs 5 GB, so --memory-limit 0: docs/benchmarks.md).
inline long long defaultMemoryLimitMiB(int ranks)
{
    return std::max(kDefaultMemoryLimitMiB, (long long)ranks / 4);
}
inline long long defaultMaxOperations(int ranks)
{
    return std::max(5'000'000LL, 4000LL * ranks);
}
inline const std::vector<std::string> kRunFlags = {"quiet", "no-report"};
// The smallest --memory-limit other than 0 (MiB): below about 40, Python cannot even start.
inline constexpr long long kMinMemoryLimitMiB = 64;

// A run as the command line asks for it: the request the runner gets, and the address space it
// may use (--memory-limit, MiB; 0: no limit).
struct RunSetup : python::RunRequest {
    long long memoryLimitMiB = kDefaultMemoryLimitMiB;
};
// What `run` and `explain` run: FILE (read with readFile's checks) at --ranks/--layers/--batches,
// with the run options (applyRunOptions).
RunSetup runRequest(const Arguments &args, const std::string &file);
// Applies --max-ops, --timeout, --quiet, --memory-limit, --cost and --bandwidth to a request.
void applyRunOptions(const Arguments &args, RunSetup &request);
// Runs one request in the runner (supervisor.h): the run's trace, or the exit code of a run that
// gave none (its reason already on stderr). The function is --function, or the file's only
// top-level function (a UsageError when it defines several).
struct RunResult {
    int exitCode = 0;
    std::optional<core::Trace> trace;
    std::string function; // the function that ran
    std::string encoded;  // the trace as the runner encoded it (SandboxedRuns::encoded)
};
RunResult runOne(const Arguments &args, const RunSetup &setup);
// Refuses (UsageError, exit 64) any output option naming one of `inputs` (the code file), as
// the same path, a link to it or another name of it, before anything is written.
void refuseOutputsOverInputs(const Arguments &args, const std::vector<std::string> &inputs);
// The paths of the output options given (kOutputOptions).
std::vector<std::string> outputPaths(const Arguments &args);
// Writes --json (or --trace-json), --chrome-trace and --trace-out (the binary trace) when asked
// for, from the trace the supervisor checked; `encoded`, when not empty, is the binary form the
// trace was decoded from, written as it is.
void writeTraceFiles(const Arguments &args, const core::Trace &trace, const std::string &file,
                     const std::string &function, const std::string &encoded = {});
// Figures on stdout; warnings and the error on stderr.
void printRun(const core::Trace &trace);

} // namespace rankstep::cli
