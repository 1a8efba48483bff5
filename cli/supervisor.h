// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rankstep::cli {

// Runs body in a child process and waits for it, so that code which ends or crashes the process
// that runs it (os._exit, a segfault through ctypes, the system killing it) still gets a plain
// "Error: ..." line on stderr and one of the documented exit codes.
//
// The verdict comes only from the child's report (runchannel.h), which carries a secret the
// learner's code cannot read: the exit code and the output files (--trace-out and the like, which
// this process writes). Without a report the run failed, whatever the child wrote; an output file
// in `outputs` that changed during the run is then removed (code that wrote it cannot pass it
// off as a run's). The child runs in a private folder made for the run (runfolder.h), in a
// process group of its own; every process of the run is ended and the folder removed when the run
// ends, when this process is stopped (SIGTERM, SIGINT, SIGHUP), and when its parent dies.
// Falls back to calling body directly, without the sandbox, when no child can be started.
int superviseInChild(const std::function<int()> &body, const std::vector<std::string> &outputs);

// In the child: sends the report (exitCode and the files delivered so far). Safe to call more
// than once (only the first counts); a no-op outside a child.
void markFinished(int exitCode);

// In the child, after CPython and the project's modules are loaded and before the learner's code
// runs: moves into the run's folder and locks the process down (sandbox.h). Says once, on
// stderr, which protection the kernel refused. Later calls do nothing.
void enterSandbox();

// The private folder of the run ("" outside a supervised child).
std::string runFolder();

} // namespace rankstep::cli
