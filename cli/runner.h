// SPDX-License-Identifier: MIT
#pragma once

#include "core/python/runtime.h"

#include <string>

namespace rankstep::cli {

// What rankstep-runner (cli/runnermain.cpp), the program that hosts the learner's code, does with
// one job of its request (runchannel.h). Nothing here is linked into rankstep-cli: the runner
// knows no lesson and no output path.

// The file's only top-level function ("" when the file does not parse: the run reports why); a
// UsageError naming them when it defines several.
std::string chooseFunction(python::Runtime &runtime, const python::RunRequest &request);

// Runs the request. Code that cannot be interrupted at its time limit ends the runner after a
// grace period: it says so on stderr and reports kStopped (sendStopped) first. A PermissionError
// in a sandboxed run (`sandboxFolder` not empty) gets the sandbox's explanation.
python::RunOutcome runGuarded(python::Runtime &runtime, const python::RunRequest &request,
                              const std::string &sandboxFolder);

// Caps this process's address space (MiB; 0: none), so that code allocating gigabytes gets a
// MemoryError instead of taking the machine down. Sanitizer builds cannot run under such a cap.
void limitMemory(long long megabytes);

} // namespace rankstep::cli
