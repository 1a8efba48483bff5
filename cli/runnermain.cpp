// SPDX-License-Identifier: MIT
// rankstep-runner: the program that runs the learner's code, started by rankstep-cli for each
// run (cli/supervisor.cpp) and by nothing else. It reads its jobs from descriptor 3, loads
// CPython, moves into the run's folder and locks itself down (cli/sandbox.h), runs the jobs and
// sends their traces through descriptor 4. `rankstep-runner __real-rank ...` is one rank of a
// real run instead (cli/realrank.h), started by `rankstep-cli real`. It links no lesson data: no
// solution text is in its memory, and it knows no output path and decides no verdict
// (cli/runchannel.h).
#include "arguments.h"
#include "core/io/tracebinary.h"
#include "realrank.h"
#include "runchannel.h"
#include "runner.h"
#include "runnerreport.h"
#include "runreport.h"
#include "sandbox.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

namespace {

using namespace rankstep;
using namespace rankstep::cli;

std::string readAll(int fd)
{
    std::string bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got > 0) {
            bytes.append(buffer, std::size_t(got));
            if (bytes.size() > (std::size_t(1) << 31))
                return {};
            continue;
        }
        if (got < 0 && errno == EINTR)
            continue;
        return bytes;
    }
}

// Moves into the run's folder and locks the process down; says once on stderr which protection
// the kernel refused.
void enterSandbox(const std::string &folder)
{
    if (chdir(folder.c_str()) != 0) {
        std::cerr << "rankstep-runner: cannot enter the run's folder " << folder << "\n";
        std::_Exit(kInternal);
    }
    setenv("TMPDIR", folder.c_str(), 1);
    setenv("HOME", folder.c_str(), 1);
    std::cerr << describeMissing(lockDown(folder));
}

// The trace as the supervisor gets it, in pieces: the record's lists are given back as they are
// encoded, so that the encoding does not add its size to the run's peak (at 16,384 ranks the
// whole trace is 0.8 GB). A run that ran out of memory may leave a record too large to encode
// within the same cap: then what says how it ended goes (its error and check), without the
// events and the figures made of them.
std::vector<std::string> encodeTrace(core::Trace &trace, const io::TraceJsonOptions &names)
{
    try {
        return io::traceToBinaryPieces(trace, names);
    } catch (const std::bad_alloc &) {
    }
    core::Trace ending;
    ending.config = trace.config;
    ending.warnings = trace.warnings;
    ending.status = trace.status;
    ending.error = trace.error;
    ending.diagnosis = trace.diagnosis;
    ending.check = trace.check;
    return {io::traceToBinary(ending, names)};
}

RunnerReport runJobs(python::Runtime &runtime, std::vector<RunnerJob> &jobs,
                     const std::string &folder)
{
    RunnerReport report;
    for (RunnerJob &job : jobs) {
        if (job.chooseFunction)
            job.request.function = chooseFunction(runtime, job.request);
        python::RunOutcome outcome = runGuarded(runtime, job.request, folder);
        report.tracePieces.push_back(
            encodeTrace(outcome.trace, {job.request.fileName, job.request.function}));
    }
    return report;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && std::string(argv[1]) == "__real-rank")
        return realRankMain(std::vector<std::string>(argv + 2, argv + argc));
    prctl(PR_SET_PDEATHSIG, SIGKILL); // rankstep-cli killed (the app's Stop): the run ends too
    // glibc read its malloc settings as the process started (cli/supervisor.h,
    // kRunnerMallocSettings); the learner's code sees the environment without them.
    unsetenv("GLIBC_TUNABLES");
    auto request = decodeRequest(readAll(kRequestDescriptor));
    close(kRequestDescriptor);
    if (!request || request->runFolder.empty()) {
        std::cerr << "rankstep-runner: this program runs learners' code for rankstep-cli, which "
                     "starts it; it is not started by hand.\n";
        return kUsage;
    }
    openReportChannel(kReportDescriptor, request->token);
    limitMemory(request->memoryLimitMiB);
    RunnerReport report;
    try {
        python::Runtime runtime;
        enterSandbox(request->runFolder);
        runtime.refuseCodeMadeFromBytes(request->runFolder);
        report = runJobs(runtime, request->jobs, request->runFolder);
    } catch (const UsageError &e) {
        report = {kUsage, e.message, {}, {}};
    } catch (const std::bad_alloc &) {
        report = {kInternal, "out of memory outside the learner's code", {}, {}};
    } catch (const std::exception &e) {
        report = {kInternal, e.what(), {}, {}};
    }
    std::cout.flush();
    std::cerr.flush();
    sendReport(report);
    return 0;
}
