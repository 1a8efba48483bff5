// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout.h"
#include "realprocess.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace rankstep::cli {

// What `rankstep-cli real` (realcommand.cpp) and a PyTorch lesson (torchlessoncommand.cpp) share:
// the ranks' processes, started and waited for, and the check of what they left, made in a
// sandboxed process of its own (docs/hostile-input.md, "Real runs").

inline constexpr int kUnavailable = 69; // EX_UNAVAILABLE: PyTorch is not installed

struct RealOptions {
    std::string file, function, backend, json, profile, python, masterAddr;
    int ranks = 1, layers = 2, batches = 4, hidden = 512, length = 256, seed = 0;
    core::Layout layout; // --tensor, --context, --pipeline, --expert (core/layout.h)
    int nnodes = 1, nodeRank = 0, masterPort = 0;
    double timeout = 120;
    long long memory = kRealMemoryMiB; // per process, MiB (cli/realprocess.h)
};

// A port no one listens on now, as torchrun finds one (the kernel picks it).
int freePort();

// Moves this process (and so every rank it starts) into a network namespace of its own, with
// only its loopback device, brought up: the ranks reach each other on 127.0.0.1 and nothing else,
// neither the machine's services nor the internet. Only on one machine (across machines the
// ranks need the real network). A user namespace comes first where the user is not root, mapping
// the user to itself. Returns what the kernel refused, "" when the ranks are isolated.
std::string privateLoopback();

// SIGTERM, SIGINT or SIGHUP (the app's Stop, Ctrl+C, a closed terminal) from now on end the ranks
// at once and the run's folder is removed, as after the timeout.
void catchStopSignals();

// The processes of a run, each in a session (and process group) of its own: no controlling
// terminal, and each ended with its group. `folder`, when set, may hold at most `quotaBytes`.
struct Launched {
    std::vector<pid_t> pids;
    std::filesystem::path folder;
    std::uintmax_t quotaBytes = 0;
    std::vector<std::filesystem::path> logs; // each process's output, in the order of `pids`
};

// The bytes the files beneath `folder` hold, by their sizes (a sparse file counts whole); links
// are not followed.
std::uintmax_t folderBytes(const std::filesystem::path &folder);

// Kills every process of `launched`, with its process group.
void killAll(const Launched &launched);

// Starts one `rankstep-cli __real-rank WORDS` per rank of this node (cli/realprocess.h: its own
// session, an allow-listed environment), each with torch.distributed's variables and its output
// in OUT/rank-R.log. Together they may write as much into OUT as one may use memory.
Launched launchRanks(const RealOptions &o, const std::vector<std::string> &rankWords,
                     const std::filesystem::path &out, int port);

struct Ended {
    bool timedOut = false;
    bool stopped = false;
    bool overQuota = false; // the folder held more than `quotaBytes`: every process was ended
    std::uintmax_t quotaBytes = 0;
    std::map<pid_t, int> status;
    // Each rank's peak resident memory in KiB, as the kernel counted it (wait4's ru_maxrss): of
    // those that ended on their own, outside the code they ran.
    std::map<pid_t, long> peakKiB;
    double seconds = 0;
    std::filesystem::path failedLog; // the output of the first process that failed, if any
};

// Waits for every rank. The timeout counts from the moment `joined` first says every rank has
// joined (or from 120 s on, whichever is sooner); without `joined`, from the start. When one
// fails the others wait in a collective that will never complete: they get 3 s to end on their
// own, then every one is killed (with its process group), as after the timeout, or when the
// folder holds more than the quota (looked at four times a second). No process of theirs outlives
// this function.
Ended waitForRanks(const Launched &launched, double timeout,
                   const std::function<bool()> &joined = nullptr);

// What ended the ranks, when not every one finishing: a stop, the timeout (`timedOut` says why),
// the folder's quota,
// a learner's error (the first, by time, from OUT/rank-R.json), a crash. Its exit code, having
// said it; nothing when every rank finished. A rank's kExchangeFailed is the other node's doing
// only when the run has more than one node (`nodes`): a rank of a single node may os._exit(5).
std::optional<int> endOfRanks(const Ended &ended, const std::filesystem::path &out, int ranks,
                              int nodes, const std::string &timedOut);

// A run's own folder under the temporary directory, removed with this object. The ranks write
// only in `ranks`, the check only in `check`; the supervisor's own files lie beside them.
struct RunFolder {
    RunFolder();
    RunFolder(const RunFolder &) = delete;
    RunFolder &operator=(const RunFolder &) = delete;
    ~RunFolder();

    std::filesystem::path dir, ranks, check;
};

// Whether `python` imports torch.distributed (its errors go to `folder`); if not, says how to
// install it, for `command`.
bool torchAvailable(const std::string &command, const std::string &python,
                    const std::filesystem::path &folder);

// Why `--backend nccl` cannot run `ranksPerNode` ranks with the PyTorch of `python` (asked in a
// child process, its errors in `folder`): no NCCL in it (Debian's python3-torch is built for CPUs
// only), or fewer GPUs than ranks on this node. "" when it can: each rank then takes the GPU
// numbered by its LOCAL_RANK.
std::string ncclProblem(const std::string &python, int ranksPerNode,
                        const std::filesystem::path &folder);

// What the check of a run said: its exit code (nothing when it failed itself, which `failure`
// then says) and its verdict's text, read from its own folder.
struct CheckOutcome {
    std::optional<int> code;
    std::string failure, verdict;
};

// A rank of a run across nodes whose files could not reach the other nodes' ranks
// (rankstep_real.exchange.FAILED): a rank of another node stopped first.
inline constexpr int kExchangeFailed = 5;

// rankstep_real.verify and .torchjudge: 0 passed, 3 not, 4 a rank's file was refused.
inline constexpr int kCheckNotMet = 3;
inline constexpr int kCheckRefused = 4;

// Runs the check `module` over what the ranks left (cli/realrank.h `--check-module`): its own
// sandboxed process without the network, which reads the ranks' folder and writes only its own.
CheckOutcome runCheck(const RealOptions &o, const RunFolder &folder, const std::string &module,
                      const std::vector<std::string> &words);

} // namespace rankstep::cli
