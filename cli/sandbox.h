// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace rankstep::cli {

// Locks the calling process (the runner child, single-threaded, with CPython and the project's
// modules already loaded) down before the learner's code runs, for good: nothing it runs later can
// undo it. Layers (docs/hostile-input.md, "Sandbox"):
//   - PR_SET_NO_NEW_PRIVS and PR_SET_DUMPABLE 0 (no other process of the user reads its memory);
//   - Landlock: writes only beneath `workFolder`, reads only of the system's libraries and
//     `workFolder` (not /proc, /home or /tmp), no program executed, no TCP, no signal or abstract
//     socket outside the run (as far as the kernel's Landlock ABI goes);
//   - seccomp (libseccomp): no exec, no socket, no new process (threads only), no ptrace, no
//     namespaces, no signal to another process, no undoing PR_SET_PDEATHSIG.
// Returns the protections the kernel refused (empty when every layer is in force); the run goes
// on without them. RANKSTEP_SANDBOX_SKIP=landlock,seccomp in the environment skips layers as a
// kernel without them would (for the tests of that case).
// `network`: a rank of a real run (cli/realrank.h), which needs sockets for its collectives:
// seccomp allows socket() for TCP/IP only (no AF_UNIX: no D-Bus, X11, docker.sock or ssh agent)
// and Landlock does not handle TCP (on one machine the run's own network namespace holds only its
// loopback). `readOnlyFolder` (optional): one more folder it may read, not write (the real run's
// check reads the ranks' folder).
std::vector<std::string> lockDown(const std::string &workFolder, bool network = false,
                                  const std::string &readOnlyFolder = {});

// "this system refused ...: learner code may ...", or "" when nothing is missing.
std::string describeMissing(const std::vector<std::string> &missing);

} // namespace rankstep::cli
