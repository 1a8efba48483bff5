// SPDX-License-Identifier: MIT
#include "realrank.h"

#include "runreport.h"
#include "sandbox.h"

#include "core/python/systempython.h"

#include <algorithm>
#include <csignal>
#include <iostream>
#include <optional>

#include <sys/prctl.h>
#include <unistd.h>

namespace rankstep::cli {

namespace {

// Loaded, and initialised, while the disk is still open: PyTorch reads /proc/cpuinfo once for its
// thread pool, which the sandbox then hides.
constexpr const char *kBeforeLockDown =
    "import io, pickle, torch, torch.distributed\n"
    "import torch.distributed.distributed_c10d, torch.profiler\n"
    "torch.set_num_threads(1)\n";

std::string outFolder(const std::vector<std::string> &args)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--out")
            return args[i + 1];
    return {};
}

} // namespace

int realRankMain(const std::vector<std::string> &args)
{
    const std::string out = outFolder(args);
    if (out.empty()) {
        std::cerr << "rankstep-runner __real-rank: --out DIR is needed\n";
        return kUsage;
    }
    // A rank ends with the command that started it, even one killed outright (kill -9).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return kStopped;
    // Everything the rank needs from the disk, loaded before the doors close: a puzzle's rank,
    // or a PyTorch lesson's (`--torch-lesson CHECK`, cli/realcommand.h torchLessonCommand).
    const bool torchLesson = std::find(args.begin(), args.end(), "--torch-lesson") != args.end();
    const python::SystemModuleRun run{
        torchLesson ? "rankstep_real.torchlesson" : "rankstep_real.rank", kBeforeLockDown, args};
    std::optional<int> code;
    try {
        code = python::runSystemModule(
            run, [&out] { std::cerr << describeMissing(lockDown(out, /*network=*/true)); });
    } catch (const python::PythonNotStarted &) {
        std::cerr << "rankstep-runner __real-rank: cannot start Python\n";
        return kInternal;
    }
    if (!code)
        return kInternal;
    std::cout.flush();
    return *code;
}

} // namespace rankstep::cli
