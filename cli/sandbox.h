// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rankstep::cli {

// The largest file learner code may write (RLIMIT_FSIZE): 256 MiB.
inline constexpr std::uint64_t kMaxFileBytes = 256ULL << 20;

struct LockDown {
    // The protections the kernel refused (empty when every layer is in force); the run goes on
    // without them.
    std::vector<std::string> missing;
    // Modules giving raw memory access (ctypes, cffi) loaded before the lock-down: a fault of
    // Rankstep's, said as a warning.
    std::vector<std::string> rawMemoryLoaded;
    // Every wall in force: the code can read only what a simulated run needs (not the lessons'
    // solutions), cannot load ctypes or any machine code, and cannot reach the runner's memory,
    // so a verdict made from what this process sends can be trusted as far as the sandbox goes.
    // Never for a real run's rank (`network`), which hosts PyTorch, and PyTorch loads ctypes.
    bool sealed = false;
};

// Locks the calling process (the runner, single-threaded, with CPython and the project's modules
// already loaded) down before the learner's code runs, for good: nothing it runs later can undo
// it. Layers (docs/hostile-input.md, "Sandbox"):
//   - PR_SET_NO_NEW_PRIVS and PR_SET_DUMPABLE 0 (no other process of the user reads its memory);
//   - every C extension of the standard library a run may use loaded now, and a finder that says
//     why ctypes, cffi and the like cannot be imported (cli/sandboxfiles.h);
//   - RLIMIT_FSIZE at `maxFileBytes` (0: none), SIGXFSZ ignored: a longer write fails (EFBIG);
//   - Landlock: writes only beneath `workFolder`, reads only of Python's standard library (of its
//     lib-dynload folder, file by file, not ctypes' or the test modules'), the time zone and a
//     few devices, and `workFolder` (not /usr/share, /proc, /home or /tmp), no program executed,
//     no TCP, no signal or abstract socket outside the run (as far as the kernel's ABI goes);
//   - seccomp (libseccomp, cli/seccompfilter.h): no exec, no socket, no new process (threads
//     only), no ptrace, no namespaces, no signal to another process, no undoing
//     PR_SET_PDEATHSIG, no raised limit, no TIOCSTI or TIOCLINUX, and no memory made executable
//     (no library loaded from now on, with or without Landlock).
// RANKSTEP_SANDBOX_SKIP=landlock,seccomp in the environment skips layers as a kernel without
// them would (for the tests of that case).
// `network`: a rank of a real run (cli/realrank.h), which needs sockets for its collectives and
// has PyTorch loaded: seccomp leaves socket() and executable memory alone, Landlock does not
// handle TCP (on one machine the run's own network namespace holds only its loopback) and lets it
// read the system's libraries and its sys.path.
LockDown lockDown(const std::string &workFolder, bool network = false,
                  std::uint64_t maxFileBytes = kMaxFileBytes);

// The walls of a process of a real run (cli/realrank.h), which has PyTorch loaded.
struct Walls {
    bool realRank = false; // reads the system's libraries and its sys.path; executable memory
    // sockets of TCP/IP only (gloo and the rendezvous); none at all when false. Never AF_UNIX (a
    // path such as /run/docker.sock, the session's D-Bus, X11, an ssh agent): Landlock (to ABI 7)
    // does not see a connect() to a socket's path.
    bool sockets = false;
    std::string readOnlyFolder; // one more folder to read, not write (the check reads the ranks')
    bool gpu = false;           // a rank of --backend nccl: opens /dev/nvidia* (cli/sandboxfiles.h)
    std::uint64_t maxFileBytes = kMaxFileBytes; // 0: the limit set before stays
};
LockDown lockDown(const std::string &workFolder, const Walls &walls);

// "this system refused ...: learner code may ...", or "" when nothing is missing; for a LockDown
// also the modules loaded before, and that the run's result cannot be trusted.
std::string describeMissing(const LockDown &lockDown);
std::string describeMissing(const std::vector<std::string> &missing);

// The sandbox's words for an error of the learner's code that the sandbox most likely caused, to
// append to its first line ("PermissionError: ...", "OSError: [Errno 27] File too large"); ""
// for any other.
std::string explainSandboxError(const std::string &firstLine);

} // namespace rankstep::cli
