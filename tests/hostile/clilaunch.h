// SPDX-License-Identifier: MIT
#pragma once

#include "tempdir.h"

#include <sys/types.h>

#include <string>
#include <vector>

namespace rankstep::hostile {

// How to start rankstep-cli as the app does: in a working folder (the learner's code store), with
// extra environment (RANKSTEP_SANDBOX_SKIP=... stands in for a kernel without a layer).
struct Launch {
    std::vector<std::string> args;
    std::string workingFolder;            // "" keeps the test's own
    std::vector<std::string> environment; // "NAME=value" added to the test's
    std::string input = "/dev/null";      // opened (read and write) as its stdin
};

// Starts rankstep-cli with stdout and stderr going to the files `out` and `err`; its pid.
pid_t startCli(const Launch &launch, const std::string &out, const std::string &err);
// Runs it to the end: exit code (-1 when it did not exit normally), stdout and stderr.
testsupport::ProcessResult runCli(const Launch &launch, const testsupport::TempDir &dir);

// True when `pid` no longer runs (gone, or a zombie nobody reaped yet).
bool isGone(pid_t pid);
// Waits up to `seconds` for isGone(pid).
bool waitGone(pid_t pid, double seconds);
// The numbers (pids) the code printed after `marker` ("child 1234"), in order.
std::vector<pid_t> printedPids(const std::string &text, const std::string &marker);
// The run folders a supervisor of that pid left in the temporary folder.
std::vector<std::string> runFoldersOf(pid_t supervisor);

} // namespace rankstep::hostile
