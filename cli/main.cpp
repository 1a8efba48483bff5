// SPDX-License-Identifier: MIT
// rankstep-cli: runs puzzle files headless and prints the figures the way the notebook does.
// The learner's code runs in a sandboxed child process of this one (cli/supervisor.h), so that
// even code that crashes or ends its process gets a plain message and a documented exit code,
// and only the child's own report decides the verdict.
#include "commands.h"

#include <string>
#include <vector>

int main(int argc, char **argv)
{
    return rankstep::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc));
}
