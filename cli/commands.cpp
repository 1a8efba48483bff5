// SPDX-License-Identifier: MIT
// The subcommands of rankstep-cli in one table: where each runs (in this process or in a
// sandboxed child, cli/supervisor.h) and who answers its --help.
#include "commands.h"

#include "explaincommand.h"
#include "exportcommand.h"
#include "gradecommand.h"
#include "lessoncommand.h"
#include "realcommand.h"
#include "runcommand.h"
#include "runreport.h"
#include "runsupport.h"
#include "supervisor.h"
#include "sweepcommand.h"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string_view>

namespace rankstep::cli {
namespace {

// The words after the program's name, or after the command's.
using CommandLine = std::vector<std::string>;

enum class Host {
    // Runs no learner code but reads files someone else made (traces, lesson folders): in a child
    // process of this one, so that a crash still ends in a plain message.
    Child,
    // Runs here. Commands that run learner code (run, lesson, explain, grade, sweep, real) start
    // it in a supervised, sandboxed process of its own (supervisor.h) and judge what comes back.
    ThisProcess,
};

struct Command {
    std::string_view name;
    int (*run)(const CommandLine &rest);
    Host host;
    // Answers -h and --help itself (sweep has its own help, real looks past `--`); otherwise
    // either anywhere before `--` prints the help.
    bool ownHelp = false;
    // A run this process makes itself when the arguments ask for one, before the host decides:
    // a PyTorch lesson is a real run (lessons/100-torch_loop and on, cli/realcommand.h).
    std::optional<int> (*runsHere)(const CommandLine &args) = nullptr;
};

int printHelp(const CommandLine &)
{
    std::cout << helpText();
    return kSolved;
}

int printVersion(const CommandLine &)
{
    std::cout << "rankstep-cli " RANKSTEP_VERSION "\n";
    return kSolved;
}

int sweep(const CommandLine &rest)
{
    // Outside a supervisor of its own, Ctrl+C (or the app's Esc) reaches it and it ends its runs
    // and says what was stopped (cli/stopsignals.h).
    return reportingErrors([&rest] { return sweepCommand(rest); });
}

int grade(const CommandLine &rest)
{
    return reportingErrors([&rest] { return gradeCommand(rest); });
}

// Every subcommand. A real run starts rank processes that use the network: the command itself
// runs it, and its first step is an ordinary sandboxed simulation (cli/realcommand.h); each rank
// is `__real-rank`.
constexpr Command kCommands[] = {
    {"run", runCommand, Host::ThisProcess},
    {"lesson", lessonCommand, Host::ThisProcess, false, runTorchLessonIfOne},
    {"lessons", lessonsCommand, Host::Child},
    {"grade", grade, Host::ThisProcess},
    {"explain", explainCommand, Host::ThisProcess},
    {"compare", compareCommand, Host::Child},
    {"export", exportCommand, Host::ThisProcess},
    {"real", runReal, Host::ThisProcess, true},
    {"sweep", sweep, Host::ThisProcess, true},
    {"help", printHelp, Host::ThisProcess},
    {"--version", printVersion, Host::ThisProcess},
};

bool asksForHelp(const CommandLine &args)
{
    // Before `--` only: after it, a file may have any name.
    const auto end = std::find(args.begin(), args.end(), "--");
    return std::find(args.begin(), end, "-h") != end ||
           std::find(args.begin(), end, "--help") != end;
}

} // namespace

int dispatch(const CommandLine &args)
{
    if (args.empty()) {
        std::cout << helpText();
        return kUsage;
    }
    const auto command = std::find_if(std::begin(kCommands), std::end(kCommands),
                                      [&args](const Command &c) { return c.name == args[0]; });
    const bool known = command != std::end(kCommands);
    if ((!known || !command->ownHelp) && asksForHelp(args))
        return printHelp(args);
    if (!known)
        return reportingErrors(
            [&args]() -> int { throw UsageError{"unknown command '" + args[0] + "'"}; });
    const CommandLine rest(args.begin() + 1, args.end());
    if (command->runsHere)
        if (const std::optional<int> code = command->runsHere(args))
            return *code;
    if (command->host == Host::ThisProcess)
        return reportingErrors([&] { return command->run(rest); });
    return superviseInChild([&] { return reportingErrors([&] { return command->run(rest); }); });
}

} // namespace rankstep::cli
