// SPDX-License-Identifier: MIT
#include "realrank.h"

#include "realprocess.h"
#include "runreport.h"
#include "sandbox.h"

#include "core/python/systempython.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
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

// The checks a `--check` process may run: they read what the ranks left, and run no learner code.
constexpr const char *kChecks[] = {"rankstep_real.verify", "rankstep_real.torchjudge"};

std::string valueOf(const std::vector<std::string> &args, const std::string &option)
{
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == option)
            return args[i + 1];
    return {};
}

// The arguments without the launcher's own (`--memory-limit MB`, `--check-module MODULE`), which
// the Python modules do not take.
std::vector<std::string> moduleArguments(const std::vector<std::string> &args)
{
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if ((args[i] == "--memory-limit" || args[i] == "--check-module") && i + 1 < args.size())
            ++i;
        else
            rest.push_back(args[i]);
    }
    return rest;
}

} // namespace

int realRankMain(const std::vector<std::string> &args)
{
    const std::string out = valueOf(args, "--out");
    const std::string check = valueOf(args, "--check-module");
    if (out.empty() || (!check.empty() && std::find(std::begin(kChecks), std::end(kChecks),
                                                    check) == std::end(kChecks))) {
        std::cerr << "rankstep-runner __real-rank: --out DIR is needed (and --check-module names a "
                     "check)\n";
        return kUsage;
    }
    // A rank ends with the command that started it, even one killed outright (kill -9).
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return kStopped;
    const std::string memory = valueOf(args, "--memory-limit");
    applyRealLimits(memory.empty() ? kRealMemoryMiB : std::atoll(memory.c_str()));
    // Everything the process needs from the disk, loaded before the doors close: a puzzle's rank,
    // a PyTorch lesson's (`--torch-lesson CHECK`, cli/realcommand.h torchLessonCommand), or the
    // check of what the ranks left (`--check-module MODULE --from RANKS`: it reads their folder,
    // writes only its own and has no network).
    const bool torchLesson = std::find(args.begin(), args.end(), "--torch-lesson") != args.end();
    const std::string module = !check.empty() ? check
                               : torchLesson  ? "rankstep_real.torchlesson"
                                              : "rankstep_real.rank";
    const python::SystemModuleRun run{module, kBeforeLockDown, moduleArguments(args)};
    const std::string from = check.empty() ? std::string() : valueOf(args, "--from");
    std::optional<int> code;
    try {
        code = python::runSystemModule(run, [&] {
            Walls walls;
            walls.realRank = true;
            walls.sockets = check.empty(); // a check reads what the ranks left, with no network
            walls.readOnlyFolder = from;
            // Only a rank of --backend nccl opens the GPUs; the check never does.
            walls.gpu = check.empty() && valueOf(args, "--device") == "cuda";
            walls.maxFileBytes = 0; // applyRealLimits set it
            std::cerr << describeMissing(lockDown(out, walls));
        });
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
