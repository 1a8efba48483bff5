// SPDX-License-Identifier: MIT
// What `real` and the PyTorch lessons share (cli/realrun.h): starting the ranks, waiting for them,
// and the check of what they left.
#include "realrun.h"
#include "supervisor.h"

#include "arguments.h"
#include "childprocess.h"
#include "core/io/jsonparser.h"
#include "core/sentences.h"
#include "realcommand.h"
#include "realprocess.h"
#include "runreport.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

void writeSmallFile(const char *path, const std::string &text)
{
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        [[maybe_unused]] const ssize_t written = write(fd, text.data(), text.size());
        close(fd);
    }
}

// Set by SIGTERM, SIGINT or SIGHUP (the app's Stop, Ctrl+C, a closed terminal): the ranks are
// ended at once and the run's folder removed, as after the timeout.
volatile std::sig_atomic_t g_stopRequested = 0;

void onStopSignal(int)
{
    g_stopRequested = 1;
}

// How long starting the ranks may take (importing torch, joining the group) before the timeout
// counts anyway: on a busy machine four ranks took over 20 s to start, which a learner's
// `--timeout 20` must not be spent on.
constexpr double kJoinSeconds = 120;

// The first learner error among the ranks' reports (by the time it happened), as a text.
std::string firstRankError(const fs::path &out, int ranks)
{
    double earliest = 1e300;
    std::string text;
    for (int rank = 0; rank < ranks; ++rank) {
        const auto parsed =
            io::parseJson(readRankFile(out / ("rank-" + std::to_string(rank) + ".json")));
        if (!parsed)
            continue;
        const io::JsonValue *error = parsed->find("error");
        const io::JsonValue *at = parsed->find("failed_at");
        if (!error || !error->isObject())
            continue;
        const double when = at ? std::strtod(at->text.c_str(), nullptr) : 1e299;
        if (when >= earliest)
            continue;
        earliest = when;
        const io::JsonValue *line = error->find("line");
        const io::JsonValue *message = error->find("message");
        const io::JsonValue *traceback = error->find("traceback");
        text = core::say(
                   core::sentence::kErrorAtRankLine,
                   {std::to_string(rank), line ? line->text : "0", message ? message->text : ""}) +
               "\n" +
               (traceback && !traceback->text.empty()
                    ? "Traceback (most recent call last):\n" + traceback->text
                    : "");
    }
    return text;
}

} // namespace

// A port no one listens on now, as torchrun finds one (the kernel picks it).
int freePort()
{
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 29500;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 29500;
    if (bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    close(fd);
    return port;
}

// Moves this process (and so every rank it starts) into a network namespace of its own, with
// only its loopback device, brought up: the ranks reach each other on 127.0.0.1 and nothing else,
// neither the machine's services nor the internet. Only on one machine (across machines the
// ranks need the real network). A user namespace comes first where the user is not root, mapping
// the user to itself. Returns what the kernel refused, "" when the ranks are isolated.
std::string privateLoopback()
{
    if (unshare(CLONE_NEWNET) != 0) {
        const uid_t uid = getuid();
        const gid_t gid = getgid();
        if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
            return std::strerror(errno);
        writeSmallFile("/proc/self/setgroups", "deny");
        writeSmallFile("/proc/self/uid_map",
                       std::to_string(uid) + " " + std::to_string(uid) + " 1");
        writeSmallFile("/proc/self/gid_map",
                       std::to_string(gid) + " " + std::to_string(gid) + " 1");
    }
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::strerror(errno);
    ifreq request{};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    bool up = ioctl(fd, SIOCGIFFLAGS, &request) == 0;
    request.ifr_flags = short(request.ifr_flags | IFF_UP | IFF_RUNNING);
    up = up && ioctl(fd, SIOCSIFFLAGS, &request) == 0;
    const int error = errno;
    close(fd);
    return up ? "" : std::strerror(error);
}

void catchStopSignals()
{
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}

void killAll(const Launched &launched)
{
    for (const pid_t pid : launched.pids)
        kill(-pid, SIGKILL);
}

// Starts one `rankstep-runner __real-rank WORDS` per rank of this node (cli/realprocess.h: its own
// session, an allow-listed environment), each with torch.distributed's variables and its output
// in DIR/rank-R.log.
Launched launchRanks(const RealOptions &o, const std::vector<std::string> &rankWords,
                     const fs::path &out, int port)
{
    const int perNode = o.ranks / o.nnodes;
    std::vector<std::string> ours{"PYTHONPATH=" + realPackageDir(), "MASTER_ADDR=" + o.masterAddr,
                                  "MASTER_PORT=" + std::to_string(port),
                                  "WORLD_SIZE=" + std::to_string(o.ranks), "OMP_NUM_THREADS=1"};
    if (o.nnodes == 1) // the run's own network has this device only
        ours.emplace_back("GLOO_SOCKET_IFNAME=lo");
    Launched launched;
    launched.folder = out;
    launched.quotaBytes = o.memory > 0 ? std::uintmax_t(o.memory) << 20 : 0;
    for (int local = 0; local < perNode; ++local) {
        const int rank = o.nodeRank * perNode + local;
        std::vector<std::string> env = ours;
        env.push_back("RANK=" + std::to_string(rank));
        env.push_back("LOCAL_RANK=" + std::to_string(local));
        std::vector<std::string> words{runnerProgram(), "__real-rank"};
        words.insert(words.end(), rankWords.begin(), rankWords.end());
        launched.logs.push_back(out / ("rank-" + std::to_string(rank) + ".log"));
        try {
            launched.pids.push_back(spawnReal(words, realEnvironment(out.string(), env),
                                              out.string(), launched.logs.back().string()));
        } catch (const UsageError &) {
            killAll(launched);
            throw;
        }
    }
    return launched;
}

// Waits for every rank. The timeout counts from the moment `joined` first says every rank has
// joined (or from kJoinSeconds on, whichever is sooner); without `joined`, from the start. When one
// fails the others wait in a collective that will never complete: they get 3 s to end on their
// own, then every one is killed (with its process group), as after the timeout. No process of
// theirs outlives this function.
std::uintmax_t folderBytes(const fs::path &folder)
{
    std::uintmax_t bytes = 0;
    std::error_code error;
    for (fs::recursive_directory_iterator
             it(folder, fs::directory_options::skip_permission_denied, error),
         end;
         !error && it != end; it.increment(error)) {
        std::error_code ignored;
        if (it->is_regular_file(ignored) && !it->is_symlink(ignored))
            bytes += it->file_size(ignored) == std::uintmax_t(-1) ? 0 : it->file_size(ignored);
    }
    return bytes;
}

Ended waitForRanks(const Launched &launched, double timeout, const std::function<bool()> &joined)
{
    Ended ended;
    const auto start = Clock::now();
    const auto after = [](Clock::time_point from, double seconds) {
        return from +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    };
    Clock::time_point deadline = after(start, timeout + (joined ? kJoinSeconds : 0));
    bool waitingToJoin = bool(joined);
    auto nextLook = start;
    auto nextQuotaLook = start;
    bool failing = false;
    const auto logOf = [&launched](pid_t pid) {
        const auto at = std::find(launched.pids.begin(), launched.pids.end(), pid);
        const auto index = std::size_t(at - launched.pids.begin());
        return index < launched.logs.size() ? launched.logs[index] : fs::path();
    };
    while (ended.status.size() < launched.pids.size()) {
        if (waitingToJoin && Clock::now() >= nextLook) {
            nextLook = after(Clock::now(), 0.1);
            if (joined()) {
                waitingToJoin = false;
                if (!failing)
                    deadline = std::min(deadline, after(Clock::now(), timeout));
            }
        }
        int status = 0;
        pid_t pid = 0;
        struct rusage usage {};
        for (const pid_t rank : launched.pids)
            if (!ended.status.contains(rank) && (pid = wait4(rank, &status, WNOHANG, &usage)) != 0)
                break;
        if (pid > 0) {
            ended.status[pid] = status;
            ended.peakKiB[pid] = usage.ru_maxrss;
            if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && !failing) {
                failing = true;
                ended.failedLog = logOf(pid);
                deadline =
                    std::min<Clock::time_point>(deadline, Clock::now() + std::chrono::seconds(3));
            }
            continue;
        }
        if (pid < 0 && errno != EINTR)
            break;
        if (launched.quotaBytes > 0 && Clock::now() >= nextQuotaLook) {
            nextQuotaLook = after(Clock::now(), 0.25);
            ended.overQuota = folderBytes(launched.folder) > launched.quotaBytes;
            ended.quotaBytes = launched.quotaBytes;
        }
        if (g_stopRequested || ended.overQuota || Clock::now() >= deadline) {
            ended.stopped = g_stopRequested != 0;
            ended.timedOut = !failing && !ended.stopped && !ended.overQuota;
            killAll(launched);
            for (const pid_t rank : launched.pids)
                if (!ended.status.contains(rank))
                    while (waitpid(rank, &status, 0) < 0 && errno == EINTR) {
                    }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    killAll(launched); // a grandchild the learner's code may have left
    ended.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return ended;
}

// What ended the ranks, when not every one finishing: a stop, the timeout (`timedOut` says why),
// a learner's error (the first, by time), a crash. Its exit code, having said it; nothing when
// every rank finished.
std::optional<int> endOfRanks(const Ended &ended, const fs::path &out, int ranks, int nodes,
                              const std::string &timedOut)
{
    if (ended.stopped) {
        std::cout << "Stopped on request: every rank process was ended.\n";
        return kStopped;
    }
    if (ended.timedOut) {
        std::cout << timedOut;
        return kStopped;
    }
    if (ended.overQuota) {
        std::cout << "The code wrote more than the " << (ended.quotaBytes >> 20)
                  << " MiB a run's folder may hold (as much as a rank may use memory, "
                     "--memory-limit): every rank process was stopped.\n";
        return kLearnerError;
    }
    if (const std::string error = firstRankError(out, ranks); !error.empty()) {
        std::cout << printable(error) << (ranks > 1 ? "Every rank process was stopped.\n" : "");
        return kLearnerError;
    }
    for (const auto &[pid, status] : ended.status) {
        if (nodes > 1 && WIFEXITED(status) && WEXITSTATUS(status) == kExchangeFailed) {
            std::cout << "The ranks of another node stopped before every rank's files were "
                         "exchanged, so this node cannot check the run; the other node's output "
                         "says why. Every rank process was stopped.\n";
            return kLearnerError;
        }
    }
    for (const auto &[pid, status] : ended.status) {
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            const fs::path log = ended.failedLog.empty() ? out / "rank-0.log" : ended.failedLog;
            std::cout << "A rank process ended unexpectedly; its output ("
                      << log.filename().string() << "):\n"
                      << printable(readRankFile(log, 64 * 1024)) << "\n";
            return kInternal;
        }
    }
    return std::nullopt;
}

// Whether `python` imports torch.distributed; if not, says how to install it.
bool torchAvailable(const std::string &command, const std::string &python, const fs::path &out)
{
    const ChildOutcome torch =
        runChild(python, {"-c", "import torch.distributed"}, 120, (out / "torch.err").string());
    if (torch.end == ChildOutcome::End::Exited && torch.code == 0)
        return true;
    std::cerr << "rankstep-cli " << command << ": PyTorch is not available to " << python
              << ". On Debian 12: sudo apt-get install python3-torch (or run "
                 "scripts/setup-deps.sh). Everything else in Rankstep works without it.\n";
    return false;
}

std::string ncclProblem(const std::string &python, int ranksPerNode, const fs::path &folder)
{
    // On stderr: the child's stdout is /dev/null (cli/childprocess.h).
    const ChildOutcome probe =
        runChild(python,
                 {"-c",
                  "import sys, torch, torch.distributed as d\n"
                  "gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0\n"
                  "sys.stderr.write(f'rankstep-nccl {int(d.is_nccl_available())} {gpus}\\n')\n"},
                 120, (folder / "nccl.err").string());
    const std::size_t at = probe.stderrText.rfind("rankstep-nccl ");
    int nccl = 0, gpus = 0;
    if (at == std::string::npos ||
        std::sscanf(probe.stderrText.c_str() + at, "rankstep-nccl %d %d", &nccl, &gpus) != 2)
        nccl = gpus = 0;
    if (nccl != 1)
        return "--backend nccl needs PyTorch built with CUDA and NCCL, and the PyTorch of " +
               python +
               " has no NCCL (Debian's python3-torch is built for CPUs only): use --backend "
               "gloo";
    if (gpus < ranksPerNode)
        return "--backend nccl gives every rank a GPU of its own, and this machine has " +
               std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") + " for " +
               std::to_string(ranksPerNode) +
               " ranks: use fewer --ranks, more --nnodes, or --backend gloo";
    return {};
}

RunFolder::RunFolder()
    : dir(fs::temp_directory_path() / ("rankstep-real-" + std::to_string(getpid()) + "-" +
                                       std::to_string(Clock::now().time_since_epoch().count())))
    , ranks(dir / "ranks")
    , check(dir / "check")
{
    fs::create_directories(dir);
    fs::permissions(dir, fs::perms::owner_all);
    fs::create_directory(ranks);
    fs::create_directory(check);
}

RunFolder::~RunFolder()
{
    std::error_code ignored;
    fs::remove_all(dir, ignored);
}

// Runs the check `module` over what the ranks left (cli/realrank.h `--check-module`): its own
// sandboxed process without the network, which reads the ranks' folder and writes only its own.
CheckOutcome runCheck(const RealOptions &o, const RunFolder &folder, const std::string &module,
                      const std::vector<std::string> &words)
{
    std::vector<std::string> argv{runnerProgram(),  "__real-rank",
                                  "--check-module", module,
                                  "--memory-limit", std::to_string(o.memory),
                                  "--from",         folder.ranks.string(),
                                  "--out",          folder.check.string()};
    argv.insert(argv.end(), words.begin(), words.end());
    const std::string log = (folder.dir / "check.log").string();
    const Launched check{
        {spawnReal(argv, realEnvironment(folder.check.string(), {"PYTHONPATH=" + realPackageDir()}),
                   folder.check.string(), log)},
        folder.check,
        o.memory > 0 ? std::uintmax_t(o.memory) << 20 : 0,
        {log}};
    const Ended ended = waitForRanks(check, o.timeout);
    CheckOutcome outcome;
    const int status = ended.status.empty() ? -1 : ended.status.begin()->second;
    if (ended.stopped) {
        outcome.failure = "Stopped on request.\n";
    } else if (ended.timedOut) {
        outcome.failure = "it took longer than --timeout.\n";
    } else if (!WIFEXITED(status) ||
               (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != kCheckNotMet &&
                WEXITSTATUS(status) != kCheckRefused)) {
        outcome.failure = readRankFile(log, 64 * 1024);
    } else {
        outcome.code = WEXITSTATUS(status);
        outcome.verdict = printable(readRankFile((folder.check / "verdict.txt").string(), 1 << 20));
    }
    return outcome;
}

} // namespace rankstep::cli
