// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// rankstep-cli grade PATH... [--json] [--timeout S] [--jobs N] [--lessons DIR]: runs every puzzle
// function of every learner file (.py, .ipynb; folders are searched) against its lesson, each in
// its own child process, --jobs (default: every core) at a time, and prints a table or JSON in
// the files' order. Nothing is read through a symbolic link that leaves a folder being graded;
// a file or folder below a PATH that cannot be read is a row that says why. Returns 0 once
// everything is graded, whatever the results; usage errors and unreadable PATHs throw UsageError.
int gradeCommand(const std::vector<std::string> &args);

} // namespace rankstep::cli
