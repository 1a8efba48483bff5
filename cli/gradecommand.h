// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// rankstep-cli grade PATH... [--json] [--timeout S] [--lessons DIR]: runs every puzzle function
// of every learner file (.py, .ipynb; folders are searched) against its lesson, each in its own
// child process, and prints a table or JSON. Returns 0 once everything is graded, whatever the
// results; usage errors and unreadable paths throw UsageError.
int gradeCommand(const std::vector<std::string> &args);

} // namespace rankstep::cli
