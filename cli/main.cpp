// SPDX-License-Identifier: MIT
// rankstep-cli: runs puzzle files headless and prints the figures the way the notebook does.
// The learner's code runs in a sandboxed child process of this one (cli/supervisor.h), so that
// even code that crashes or ends its process gets a plain message and a documented exit code,
// and only the child's own report decides the verdict.
#include "gradecommand.h"
#include "realcommand.h"
#include "realrank.h"
#include "runcommand.h"
#include "supervisor.h"
#include "sweepcommand.h"

#include <algorithm>
#include <string>
#include <vector>

namespace {

// The files `run` and `lesson` write (--trace-out OUT, --json=OUT, ...).
std::vector<std::string> outputFiles(const std::vector<std::string> &args)
{
    std::vector<std::string> files;
    if (args.empty() || (args[0] != "run" && args[0] != "lesson" && args[0] != "explain"))
        return files;
    for (std::size_t i = 1; i < args.size(); ++i) {
        for (const char *option : {"--trace-out", "--json", "--trace-json", "--chrome-trace",
                                   "--svg", "--png", "--state-png"}) {
            const std::string name(option);
            if (args[i] == name && i + 1 < args.size())
                files.push_back(args[i + 1]);
            else if (args[i].rfind(name + "=", 0) == 0)
                files.push_back(args[i].substr(name.size() + 1));
        }
    }
    return files;
}

} // namespace

int main(int argc, char **argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    // A real run starts rank processes that use the network: the supervisor itself runs it,
    // and its first step is an ordinary sandboxed simulation (cli/realcommand.h).
    if (!args.empty() && args[0] == "__real-rank")
        return rankstep::cli::realRankMain(std::vector<std::string>(args.begin() + 1, args.end()));
    if (!args.empty() && args[0] == "real")
        return rankstep::cli::runReal(std::vector<std::string>(args.begin() + 1, args.end()));
    // A sweep and a grading run no learner code themselves: each of their runs is a supervised,
    // sandboxed child of its own. Outside a supervisor of their own, Ctrl+C (or the app's Esc)
    // reaches them and they end their runs and say what was stopped (cli/stopsignals.h).
    if (!args.empty() && args[0] == "sweep")
        return rankstep::cli::reportingErrors([&args] {
            return rankstep::cli::sweepCommand(
                std::vector<std::string>(args.begin() + 1, args.end()));
        });
    // -h or --help anywhere: the dispatcher prints the help (sweep prints its own).
    const auto optionsEnd = std::find(args.begin(), args.end(), "--");
    const bool help = std::find(args.begin(), optionsEnd, "-h") != optionsEnd ||
                      std::find(args.begin(), optionsEnd, "--help") != optionsEnd;
    if (!args.empty() && args[0] == "grade" && !help)
        return rankstep::cli::reportingErrors([&args] {
            return rankstep::cli::gradeCommand(
                std::vector<std::string>(args.begin() + 1, args.end()));
        });
    // A PyTorch lesson is a real run too (lessons/100-torch_loop and on).
    if (const auto torchLesson = rankstep::cli::runTorchLessonIfOne(args))
        return *torchLesson;
    return rankstep::cli::superviseInChild([&args] { return rankstep::cli::dispatch(args); },
                                           outputFiles(args));
}
