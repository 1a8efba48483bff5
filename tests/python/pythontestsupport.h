// SPDX-License-Identifier: MIT
// Helpers shared by the Python runtime tests: learner sources, runs, error matchers, and
// rankstep-cli spawned as a separate process.
#pragma once

#include "tempdir.h"

#include "core/python/runtime.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace rankstep::pythontests {

// The text of a file of the source tree, e.g. "lessons/30-ddp/solution.py".
std::string readSourceFile(const std::string &relativePath);

// The 1-based line of `source` that contains `marker` (a comment the test's learner code
// carries); 0, and a test failure, when the marker is missing or not unique.
int lineOf(const std::string &source, const std::string &marker);

// A request for `function` of `source` on the given world, with a time limit that only a hang
// of the test itself would reach.
python::RunRequest makeRequest(const std::string &source, const std::string &function, int ranks,
                               int layers, int batches);

// Succeeds when the trace ended in an error of `kind`, at `rank` and `line`, whose message
// contains `part`.
::testing::AssertionResult hasError(const core::Trace &trace, core::ErrorKind kind, int rank,
                                    int line, const std::string &part);

// Succeeds when the run ended normally and the check passed.
::testing::AssertionResult isCorrect(const core::Trace &trace);

using TempDir = testsupport::TempDir;
using CliResult = testsupport::ProcessResult;

// Runs the rankstep-cli executable with `args`; its stdout and stderr go through files in `dir`.
CliResult runCli(const std::vector<std::string> &args, const TempDir &dir);

} // namespace rankstep::pythontests
