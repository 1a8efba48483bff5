// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"
#include "runchannel.h"

#include <functional>
#include <string>
#include <vector>

namespace rankstep::cli {

// What a run in rankstep-runner gave back.
struct SandboxedRuns {
    // kSolved when `traces` holds one trace per job; otherwise why not, already said on stderr.
    int exitCode = 0;
    // Decoded by io::traceFromBinary's checks, and each of the run that was asked for (its
    // configuration, file and function): the verdict and every output come from these alone.
    std::vector<core::Trace> traces;
    std::vector<std::string> functions; // the function each trace ran
    // The bytes each trace was decoded from (io::traceToBinary's, with its file and function):
    // --trace-out writes them as they came, once they decoded to the checked trace.
    std::vector<std::string> encoded;
};

// Runs the learner's code: starts rankstep-runner (cli/runnermain.cpp) in a private folder made
// for the run (runfolder.h), in a session of its own with no terminal (stdin /dev/null, stdout and
// stderr through this process, control characters made visible), with an allow-listed
// environment, and sends it the jobs. Its report (runchannel.h) carries the token drawn here;
// anything else in the channel voids the run. Every process of the run is ended and the folder
// removed when the run ends, when this process is stopped (SIGTERM, SIGINT, SIGHUP), and when its
// parent dies; a run whose folder grows past its quota is stopped. Output files in `outputs`
// that changed during a run that failed are removed (code that wrote one cannot pass it off as a
// run's). A UsageError for the runner's usage errors (which function to run).
SandboxedRuns runSandboxed(std::vector<RunnerJob> jobs, long long memoryLimitMiB,
                           const std::vector<std::string> &outputs);

// The runner's malloc settings, for glibc to read as the runner starts (rankstep-runner takes them
// out of its environment before the learner's code runs): its heap on transparent huge pages. The
// heap holds each rank's storage tables, the objects they point at and the larger Python objects
// (coroutines with their frames, dictionaries); a run of thousands of ranks touches every rank's in
// turn, and with 4 KiB pages nearly each turn missed the processor's table of pages
// (docs/benchmarks.md: a tenth of the CPU of the 4096-rank four_d run).
inline constexpr const char *kRunnerMallocSettings = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1";

// The environment learner code sees: the locale and the time zone, what the sandbox's tests and
// the sanitizers read, nothing else of the user's (no token, no agent socket, no display); and
// kRunnerMallocSettings, which the runner reads and removes.
std::vector<std::string> runnerEnvironment();

// The most a run's folder may hold, and the most files in it.
inline constexpr std::int64_t kRunFolderQuotaBytes = std::int64_t(512) << 20;
inline constexpr std::int64_t kRunFolderQuotaFiles = 10000;

// For commands that run no learner code but read files someone else made (lessons, compare):
// runs body in a child process and waits for it, so a crash still ends in a plain "Error: ..."
// line and a documented exit code. Falls back to calling body directly when no child can be
// started.
int superviseInChild(const std::function<int()> &body);

// The program that runs learners' code: rankstep-runner beside this program, or in
// ../libexec/rankstep/ from it; "" when neither is there.
std::string runnerProgram();

} // namespace rankstep::cli
