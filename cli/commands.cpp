// SPDX-License-Identifier: MIT
// The subcommands of rankstep-cli in one table: where each runs (in this process or in a
// sandboxed child, cli/supervisor.h) and who answers its --help.
#include "commands.h"

#include "explaincommand.h"
#include "gradecommand.h"
#include "lessoncommand.h"
#include "realcommand.h"
#include "realrank.h"
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
    // Runs learner code: in a child process of this one, sandboxed and supervised, so that code
    // which crashes or ends its process still gets a plain message and a documented exit code.
    Child,
    // As Child, and the supervisor takes the files its output options name (kOutputOptions).
    ChildWritingFiles,
    // Runs no learner code itself: each of its runs is a supervised child of its own, or it is
    // one of those runs already.
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
    {"run", runCommand, Host::ChildWritingFiles},
    {"lesson", lessonCommand, Host::ChildWritingFiles, false, runTorchLessonIfOne},
    {"lessons", lessonsCommand, Host::Child},
    {"grade", grade, Host::ThisProcess},
    {"explain", explainCommand, Host::ChildWritingFiles},
    {"compare", compareCommand, Host::Child},
    {"real", runReal, Host::ThisProcess, true},
    {"sweep", sweep, Host::ThisProcess, true},
    {"help", printHelp, Host::ThisProcess},
    {"--version", printVersion, Host::ThisProcess},
    {"__real-rank", realRankMain, Host::ThisProcess, true},
};

// The files a command writes (--trace-out OUT, --json=OUT, ...).
std::vector<std::string> outputFiles(const CommandLine &rest)
{
    std::vector<std::string> files;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        for (const char *option : kOutputOptions) {
            const std::string name = std::string("--") + option;
            if (rest[i] == name && i + 1 < rest.size())
                files.push_back(rest[i + 1]);
            else if (rest[i].rfind(name + "=", 0) == 0)
                files.push_back(rest[i].substr(name.size() + 1));
        }
    }
    return files;
}

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
        return command->run(rest);
    return superviseInChild(
        [&] { return reportingErrors([&] { return command->run(rest); }); },
        command->host == Host::ChildWritingFiles ? outputFiles(rest) : std::vector<std::string>{});
}

} // namespace rankstep::cli
