// SPDX-License-Identifier: MIT
#pragma once

#include <functional>

namespace rankstep::cli {

// Runs body in a child process and waits for it, so that code which ends or crashes the process
// that runs it (os._exit, a segfault through ctypes, the system killing it) still gets a plain
// "Error: ..." line on stderr and one of the documented exit codes. Returns body's exit code when
// it finished, else kLearnerError (or kStopped when killed from outside). Falls back to calling
// body directly when no child can be started.
int superviseInChild(const std::function<int()> &body);

// Tells the supervisor that the child reached an exit code of its own (body returned, or the
// hard stop ended the process on purpose). Safe to call more than once; a no-op outside a child.
void markFinished(int exitCode);

} // namespace rankstep::cli
