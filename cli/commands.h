// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// The whole command line after the program name, run by the subcommand it names (the table in
// commands.cpp, the one list of them); returns the process exit code.
int dispatch(const std::vector<std::string> &args);

} // namespace rankstep::cli
