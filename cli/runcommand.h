// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rankstep::cli {

// `rankstep-cli run FILE [options]`: the arguments after `run`; returns the exit code.
int runCommand(const std::vector<std::string> &rest);

// Runs `command`; a UsageError is printed with a pointer to --help (exit 64), any other
// exception as an internal error (exit 70).
int reportingErrors(const std::function<int()> &command);

// The text of `rankstep-cli --help`.
std::string helpText();

} // namespace rankstep::cli
