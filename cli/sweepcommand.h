// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// rankstep-cli sweep FILE [--function F] [--ranks LIST] [--layers LIST] [--batches LIST]
// [--bandwidth LIST] [--cost P] [--jobs N] [--csv | --json | --jsonl] [--traces DIR]: runs FILE
// once per setting of the grid, each run a `rankstep-cli run` child process (sandboxed like any
// run), up to --jobs at a time, and prints a row per setting as the rows finish, in the grid's
// order (--jsonl: in the order they finish). SIGINT and SIGTERM stop it at once: the runs are
// ended, the rows so far printed, exit code 4. docs/sweeps.md.
int sweepCommand(const std::vector<std::string> &args);

// The text of `rankstep-cli sweep --help`.
std::string sweepHelpText();

} // namespace rankstep::cli
