// SPDX-License-Identifier: MIT
// rankstep-cli: runs puzzle files headless and prints the figures the way the notebook does.
#include "runcommand.h"

#include <string>
#include <vector>

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    return rankstep::cli::dispatch(args);
}
