// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

namespace rankstep::cli {

// The processes of a real run (a rank, and the check that reads what the ranks left): how they
// are started, what they inherit, and the limits they run under. docs/hostile-input.md, "Real
// runs".

// The memory a rank or the check may use unless --memory-limit says otherwise, in MiB: what a
// simulated run gets (PyTorch itself takes about 1 GiB of address space of it).
inline constexpr long long kRealMemoryMiB = 2048;

// `--memory-limit MB` of a real run checked: 0 (no limit) or enough for PyTorch to start; a
// UsageError says so otherwise.
long long realMemoryLimit(long long requestedMiB);

// The bytes this process's network namespace has sent over its loopback device so far
// (/proc/self/net/dev); -1 when it cannot be read. On a run's own loopback (realcommand.cpp),
// what its ranks sent each other: measured outside them, it cannot be forged by their code.
long long loopbackBytesSent();

// Caps the calling process before Python starts: its address space at `memoryMiB` (0: none; a
// sanitizer build has none either), every file it writes at the same size (SIGXFSZ ignored, so a
// write past it fails with EFBIG instead of ending the process), and no core file.
void applyRealLimits(long long memoryMiB);

// The environment of a real run's process: only the locale, the time zone, a fixed PATH, HOME
// and TMPDIR in `folder`, the sandbox's test switch and the sanitizers' options of the caller's,
// then `ours` ("NAME=value"). Nothing else of the caller's (a token, an agent's socket) reaches
// the learner's code.
std::vector<std::string> realEnvironment(const std::string &folder,
                                         const std::vector<std::string> &ours);

// Starts `argv` (argv[0] the program) with `env` in `folder`, in a session of its own (no
// controlling terminal, its own process group), stdin /dev/null, stdout and stderr into `logPath`
// (made anew: an existing file or link there is refused), no other descriptor of the caller's.
// Returns its pid; throws UsageError with the reason when it cannot start.
pid_t spawnReal(const std::vector<std::string> &argv, const std::vector<std::string> &env,
                const std::string &folder, const std::string &logPath);

// `text` as a terminal may show it: every control character but newline and tab (ESC, CR, BEL,
// the C1 controls) written out as \xNN, so what a rank wrote cannot move the cursor, hide lines
// or reach the clipboard (OSC 52) of whoever reads the output.
std::string printable(const std::string &text);

// At most `limit` bytes of the regular file `path` in a folder the ranks wrote, not following a
// link (a rank may have put one there); "" when it is missing, a link, or not a regular file.
std::string readRankFile(const std::string &path, std::size_t limit = std::size_t(256) << 20);

} // namespace rankstep::cli
