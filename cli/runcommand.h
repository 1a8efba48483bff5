// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// The whole command line after the program name; returns the process exit code.
int dispatch(const std::vector<std::string> &args);

// The text of `rankstep-cli --help`.
std::string helpText();

} // namespace rankstep::cli
