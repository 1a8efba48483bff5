// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace rankstep::cli {

// How a child process ended.
struct ChildOutcome {
    enum class End { Exited, Signaled, TimedOut, Stopped, NotStarted };

    End end = End::NotStarted;
    int code = 0;           // Exited: the exit code; Signaled: the signal number
    double seconds = 0;     // wall-clock time until it ended or was killed
    std::string stderrText; // what it wrote on stderr, at most the first 64 KiB
};

// Runs `program` with `args` in its own process group: stdin and stdout are /dev/null, stderr
// goes through `stderrPath`. After `timeoutSeconds` (> 0) the child gets SIGTERM (a rankstep-cli
// then ends its run and cleans up) and, 2 s later, its whole group SIGKILL, so nothing the child
// does (loop, hang, fork) can keep the caller waiting much longer. When `stop` turns true the
// child is ended the same way at once (End::Stopped).
ChildOutcome runChild(const std::string &program, const std::vector<std::string> &args,
                      double timeoutSeconds, const std::string &stderrPath,
                      const std::atomic<bool> *stop = nullptr);

// The path of the running executable (to start another copy of it).
std::string currentExecutable();

} // namespace rankstep::cli
