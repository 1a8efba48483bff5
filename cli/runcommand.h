// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rankstep::cli {

// The whole command line after the program name; returns the process exit code.
int dispatch(const std::vector<std::string> &args);

// Runs `command`; a UsageError is printed with a pointer to --help (exit 64), any other
// exception as an internal error (exit 70).
int reportingErrors(const std::function<int()> &command);

// The text of `rankstep-cli --help`.
std::string helpText();

} // namespace rankstep::cli
