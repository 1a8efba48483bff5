// SPDX-License-Identifier: MIT
// rankstep-cli: runs puzzle files headless and prints the figures the way the notebook does.
// The learner's code runs in a child process of this one (cli/supervisor.h), so that even code
// that crashes or ends its process gets a plain message and a documented exit code.
#include "runcommand.h"
#include "supervisor.h"

#include <string>
#include <vector>

int main(int argc, char **argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    return rankstep::cli::superviseInChild([&args] { return rankstep::cli::dispatch(args); });
}
