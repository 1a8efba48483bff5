// SPDX-License-Identifier: MIT
// `rankstep-cli real`: the learner's program on real processes (docs/command-line.md,
// "Running it for real"), to check that a simulated program trains as it says. Three steps, each a
// child process: the simulation (the same rules and messages as every run, and the groups the
// program uses), one Python process per rank (rankstep_real.rank, joined by torch.distributed), and
// the check against one process (rankstep_real.verify).
#include "realcommand.h"

#include "arguments.h"
#include "childprocess.h"
#include "core/io/jsonparser.h"
#include "core/io/tracebinary.h"
#include "core/lessons/builtin.h"
#include "core/sentences.h"
#include "runcommand.h"
#include "runreport.h"
#include "runsupport.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kUnavailable = 69; // EX_UNAVAILABLE: PyTorch is not installed

struct RealOptions {
    std::string file, function, backend, json, profile, python, masterAddr;
    int ranks = 1, layers = 2, batches = 4, hidden = 512, length = 256, seed = 0;
    int nnodes = 1, nodeRank = 0, masterPort = 0;
    double timeout = 120;
};

RealOptions parse(const std::vector<std::string> &args)
{
    const Arguments a(
        args,
        {"function", "ranks", "layers", "batches", "hidden", "length", "seed", "backend", "json",
         "profile", "timeout", "nnodes", "node-rank", "master-addr", "master-port"},
        {});
    if (a.positional().size() != 1)
        throw UsageError{"real: give exactly one FILE"};
    RealOptions o;
    o.file = a.positional()[0];
    o.function = a.text("function");
    if (o.function.empty())
        throw UsageError{"real: --function NAME is needed (the rank function to run)"};
    o.ranks = int(a.integer("ranks", 1, 1, 64));
    o.layers = int(a.integer("layers", 2, 1, 256));
    o.batches = int(a.integer("batches", 4, 1, 1024));
    o.hidden = int(a.integer("hidden", 512, 1, 4096));
    o.length = int(a.integer("length", 256, 1, 4096));
    o.seed = int(a.integer("seed", 0, 0, 1'000'000'000));
    o.backend = a.text("backend", "gloo");
    if (o.backend != "gloo" && o.backend != "nccl")
        throw UsageError{"real: --backend is gloo or nccl, not '" + o.backend + "'"};
    o.json = a.text("json");
    o.profile = a.text("profile");
    o.timeout = a.seconds("timeout", 120);
    o.nnodes = int(a.integer("nnodes", 1, 1, 64));
    o.nodeRank = int(a.integer("node-rank", 0, 0, 63));
    o.masterAddr = a.text("master-addr", "127.0.0.1");
    o.masterPort = int(a.integer("master-port", 0, 0, 65535));
    if (o.nodeRank >= o.nnodes)
        throw UsageError{"real: --node-rank must be below --nnodes"};
    if (o.ranks % o.nnodes != 0)
        throw UsageError{"real: --ranks must be a multiple of --nnodes (the same ranks per node)"};
    if (o.nnodes > 1 && o.masterPort == 0)
        throw UsageError{"real: across nodes every node needs the same --master-port"};
    const char *python = std::getenv("RANKSTEP_PYTHON");
    o.python = python && *python ? python : "/usr/bin/python3";
    return o;
}

// The model both the ranks and the check against one process build, as their arguments.
std::vector<std::string> modelArguments(const RealOptions &o)
{
    return {"--layers", std::to_string(o.layers), "--batches", std::to_string(o.batches),
            "--hidden", std::to_string(o.hidden), "--length",  std::to_string(o.length),
            "--seed",   std::to_string(o.seed)};
}

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

std::string slurp(const fs::path &path)
{
    try {
        return readFile(path.string(), std::size_t(256) << 20);
    } catch (const UsageError &) {
        return {};
    }
}

// The groups the simulated run's collectives used, other than every rank, in the order they
// first appear: "0,1;2,3". Each rank process makes them all, in this order, before the learner's
// code runs (torch.distributed.new_group is called by every process alike).
std::string groupsOf(const core::Trace &trace)
{
    std::map<std::int64_t, std::set<int>> byCollective;
    std::vector<std::int64_t> order;
    for (const core::Event &event : trace.events) {
        if (!core::isCollective(event.op))
            continue;
        auto [it, fresh] = byCollective.try_emplace(event.link);
        if (fresh)
            order.push_back(event.link);
        it->second.insert(event.rank);
    }
    std::set<std::set<int>> seen;
    std::string text;
    for (std::int64_t link : order) {
        const std::set<int> &members = byCollective[link];
        if (int(members.size()) == trace.config.ranks || !seen.insert(members).second)
            continue;
        if (!text.empty())
            text += ';';
        bool first = true;
        for (int rank : members) {
            if (!first)
                text += ',';
            text += std::to_string(rank);
            first = false;
        }
    }
    return text;
}

void writeSmallFile(const char *path, const std::string &text)
{
    const int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        [[maybe_unused]] const ssize_t written = write(fd, text.data(), text.size());
        close(fd);
    }
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

// Set by SIGTERM, SIGINT or SIGHUP (the app's Stop, Ctrl+C, a closed terminal): the ranks are
// ended at once and the run's folder removed, as after the timeout.
volatile std::sig_atomic_t g_stopRequested = 0;

void onStopSignal(int)
{
    g_stopRequested = 1;
}

void catchStopSignals()
{
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    for (int signal : {SIGTERM, SIGINT, SIGHUP})
        sigaction(signal, &action, nullptr);
}

struct Launched {
    std::vector<pid_t> pids;
    pid_t group = 0;
};

// The words after `__real-rank` of a puzzle's rank (rankstep_real.rank).
std::vector<std::string> puzzleRankWords(const RealOptions &o, const std::string &groups,
                                         const fs::path &out)
{
    std::vector<std::string> words{"--file",        (out / "learner.py").string(),
                                   "--source-name", fs::absolute(o.file).string(),
                                   "--function",    o.function,
                                   "--backend",     o.backend,
                                   "--groups",      groups,
                                   "--timeout",     std::to_string(int(o.timeout) + 5),
                                   "--out",         out.string()};
    const std::vector<std::string> model = modelArguments(o);
    words.insert(words.end(), model.begin(), model.end());
    if (!o.profile.empty())
        words.emplace_back("--profile");
    return words;
}

// Starts one `rankstep-cli __real-rank WORDS` per rank of this node, in one process group, each
// with torch.distributed's environment and its output in DIR/rank-R.log.
Launched launchRanks(const RealOptions &o, const std::vector<std::string> &rankWords,
                     const fs::path &out, int port)
{
    const int perNode = o.ranks / o.nnodes;
    // The caller's environment, less what says which rank a process is and where its code is.
    const auto ours = [](const std::string &entry) {
        for (const char *name :
             {"RANK=", "WORLD_SIZE=", "MASTER_ADDR=", "MASTER_PORT=", "PYTHONPATH=", "LOCAL_RANK="})
            if (entry.rfind(name, 0) == 0)
                return true;
        return false;
    };
    std::vector<std::string> baseEnv;
    for (char **e = environ; *e; ++e)
        if (!ours(*e))
            baseEnv.emplace_back(*e);
    baseEnv.push_back("PYTHONPATH=" + realPackageDir());
    baseEnv.push_back("MASTER_ADDR=" + o.masterAddr);
    baseEnv.push_back("MASTER_PORT=" + std::to_string(port));
    baseEnv.push_back("WORLD_SIZE=" + std::to_string(o.ranks));
    baseEnv.push_back("OMP_NUM_THREADS=1");
    if (o.nnodes == 1) // the run's own network has this device only
        baseEnv.push_back("GLOO_SOCKET_IFNAME=lo");
    Launched launched;
    for (int local = 0; local < perNode; ++local) {
        const int rank = o.nodeRank * perNode + local;
        std::vector<std::string> env = baseEnv;
        env.push_back("RANK=" + std::to_string(rank));
        env.push_back("LOCAL_RANK=" + std::to_string(local));
        std::vector<std::string> words{currentExecutable(), "__real-rank"};
        words.insert(words.end(), rankWords.begin(), rankWords.end());
        std::vector<char *> argv, envp;
        for (std::string &word : words)
            argv.push_back(word.data());
        argv.push_back(nullptr);
        for (std::string &entry : env)
            envp.push_back(entry.data());
        envp.push_back(nullptr);
        const std::string log = (out / ("rank-" + std::to_string(rank) + ".log")).string();
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, launched.group); // 0: the first starts the group
        pid_t pid = 0;
        const int failed =
            posix_spawn(&pid, argv[0], &actions, &attributes, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        if (failed != 0) {
            if (launched.group > 0)
                killpg(launched.group, SIGKILL);
            throw UsageError{"real: cannot start a rank (" + std::string(std::strerror(failed)) +
                             ")"};
        }
        if (launched.group == 0)
            launched.group = pid;
        launched.pids.push_back(pid);
    }
    return launched;
}

struct Ended {
    bool timedOut = false;
    bool stopped = false;
    std::map<pid_t, int> status;
    double seconds = 0;
};

// How long starting the ranks may take (importing torch, joining the group) before the timeout
// counts anyway: on a busy machine four ranks took over 20 s to start, which a learner's
// `--timeout 20` must not be spent on.
constexpr double kJoinSeconds = 120;

// Waits for every rank. The timeout counts from the moment `joined` first says every rank has
// joined (or from kJoinSeconds on, whichever is sooner); without `joined`, from the start. When one
// fails the others wait in a collective that will never complete: they get 3 s to end on their
// own, then the whole group is killed, as it is after the timeout. No process of the group
// outlives this function.
Ended waitForRanks(const Launched &launched, double timeout,
                   const std::function<bool()> &joined = nullptr)
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
    bool failing = false;
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
        const pid_t pid = waitpid(-launched.group, &status, WNOHANG);
        if (pid > 0) {
            ended.status[pid] = status;
            if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && !failing) {
                failing = true;
                deadline =
                    std::min<Clock::time_point>(deadline, Clock::now() + std::chrono::seconds(3));
            }
            continue;
        }
        if (pid < 0 && errno != EINTR)
            break;
        if (g_stopRequested || Clock::now() >= deadline) {
            ended.stopped = g_stopRequested != 0;
            ended.timedOut = !failing && !ended.stopped;
            killpg(launched.group, SIGKILL);
            while (waitpid(-launched.group, &status, 0) > 0 || errno == EINTR) {
            }
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    killpg(launched.group, SIGKILL); // a grandchild the learner's code may have left
    ended.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return ended;
}

// The first learner error among the ranks' reports (by the time it happened), as a text.
std::string firstRankError(const fs::path &out, int ranks)
{
    double earliest = 1e300;
    std::string text;
    for (int rank = 0; rank < ranks; ++rank) {
        const auto parsed = io::parseJson(slurp(out / ("rank-" + std::to_string(rank) + ".json")));
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

namespace {

// The last line of a rank's progress file (rankstep_real.lib Recorder): where it stood.
struct RankProgress {
    bool any = false;     // it made a call at all
    bool waiting = false; // inside a communication call
    std::string call;     // "allreduce(layer 0)", "receive from rank 2"
    std::string line;
};

RankProgress progressOf(const fs::path &file)
{
    RankProgress progress;
    std::istringstream lines(slurp(file));
    std::string text, last;
    while (std::getline(lines, text))
        if (!text.empty())
            last = text; // a line cut by the kill has no newline and does not parse: skipped
    const auto parsed = io::parseJson(last);
    if (!parsed || !parsed->isObject())
        return progress;
    const io::JsonValue *at = parsed->find("at");
    const io::JsonValue *op = parsed->find("op");
    const io::JsonValue *layer = parsed->find("layer");
    const io::JsonValue *peer = parsed->find("peer");
    const io::JsonValue *line = parsed->find("line");
    if (!at || !op)
        return progress;
    progress.any = true;
    progress.waiting = at->text == "in";
    progress.call = op->text;
    if (op->text == "receive")
        progress.call += peer && !peer->isNull() ? " from rank " + peer->text : " from any rank";
    else if (op->text == "pass_to" && peer && !peer->isNull())
        progress.call += " to rank " + peer->text;
    else if (layer && layer->text != "-1")
        progress.call += "(layer " + layer->text + ")";
    progress.line = line ? line->text : "0";
    return progress;
}

} // namespace

std::string realTimeoutDiagnosis(const std::string &folder, int firstRank, int ranks)
{
    std::vector<RankProgress> progress;
    std::map<std::string, int> waitingIn;
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        progress.push_back(
            progressOf(fs::path(folder) / ("rank-" + std::to_string(rank) + ".progress")));
        if (progress.back().waiting)
            ++waitingIn[progress.back().call];
    }
    // The collective most ranks wait in, and who never called it: the simulator's words.
    std::string collective;
    int most = 0;
    for (const auto &[call, count] : waitingIn)
        if (count > most && call.find(" rank") == std::string::npos) {
            collective = call;
            most = count;
        }
    std::string text;
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        const RankProgress &p = progress[std::size_t(rank - firstRank)];
        if (!collective.empty() && !(p.waiting && p.call == collective))
            text += "rank " + std::to_string(rank) + " never called " + collective + ".\n";
    }
    text += "Where each rank stood:\n";
    for (int rank = firstRank; rank < firstRank + ranks; ++rank) {
        const RankProgress &p = progress[std::size_t(rank - firstRank)];
        text += "  rank " + std::to_string(rank) + ": ";
        if (!p.any)
            text += "made no call of the puzzle\n";
        else if (p.waiting)
            text += "waits in " + p.call + " (line " + p.line + ")\n";
        else
            text += "finished " + p.call + " (line " + p.line + ") and ran on in its own code\n";
    }
    return text;
}

std::string realPackageDir()
{
    if (const char *dir = std::getenv("RANKSTEP_REAL_DIR"); dir && *dir)
        return dir;
    const fs::path installed =
        fs::path(currentExecutable()).parent_path().parent_path() / "share/rankstep/python";
    if (fs::exists(installed / "rankstep_real"))
        return installed.string();
    return RANKSTEP_REAL_SOURCE_DIR;
}

// What ended the ranks, when not every one finishing: a stop, the timeout (`timedOut` says why),
// a learner's error (the first, by time), a crash. Its exit code, having said it; nothing when
// every rank finished.
std::optional<int> endOfRanks(const Ended &ended, const fs::path &out, int ranks,
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
    if (const std::string error = firstRankError(out, ranks); !error.empty()) {
        std::cout << error << (ranks > 1 ? "Every rank process was stopped.\n" : "");
        return kLearnerError;
    }
    for (const auto &[pid, status] : ended.status) {
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            std::cout << "A rank process ended unexpectedly; its output:\n"
                      << slurp(out / "rank-0.log") << "\n";
            return kInternal;
        }
    }
    return std::nullopt;
}

// A run's own folder under the temporary directory, removed with this object.
struct RunFolder {
    fs::path dir =
        fs::temp_directory_path() / ("rankstep-real-" + std::to_string(getpid()) + "-" +
                                     std::to_string(Clock::now().time_since_epoch().count()));
    RunFolder() { fs::create_directories(dir); }
    RunFolder(const RunFolder &) = delete;
    RunFolder &operator=(const RunFolder &) = delete;
    ~RunFolder()
    {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
    }
};

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

int realCommand(const std::vector<std::string> &args)
{
    const RealOptions o = parse(args);
    catchStopSignals();
    readFile(o.file); // a missing or unreadable file is a usage error before anything starts
    const RunFolder folder;
    const fs::path &out = folder.dir;
    if (!torchAvailable("real", o.python, out))
        return kUnavailable;

    // 1. The simulation: the same checks and messages as `run`, before any real process starts.
    const fs::path simulated = out / "simulated.rstb";
    const ChildOutcome simulation =
        runChild(currentExecutable(),
                 {"run", o.file, "--function", o.function, "--ranks", std::to_string(o.ranks),
                  "--layers", std::to_string(o.layers), "--batches", std::to_string(o.batches),
                  "--trace-out", simulated.string()},
                 o.timeout, (out / "simulated.err").string());
    auto trace = io::traceFromBinary(slurp(simulated));
    if (!trace) {
        std::cerr << "rankstep-cli real: the simulation did not finish"
                  << (simulation.stderrText.empty() ? "\n" : ":\n" + simulation.stderrText);
        return simulation.end == ChildOutcome::End::Exited ? simulation.code : kInternal;
    }
    if (!trace->correct()) {
        std::cout << "The simulation of this program does not solve the puzzle, so it was not "
                     "run for real:\n";
        std::cout << (trace->error ? formatError(*trace->error) : trace->check.message + "\n");
        return exitCodeFor(*trace);
    }
    std::cout << "Simulated: correct. Running " << o.ranks << " ranks for real (" << o.backend
              << ", HIDDEN " << o.hidden << ", LENGTH " << o.length << ")...\n"
              << std::flush;

    // 2. One process per rank of this node, on a loopback of their own when on one machine. Each
    // reads the learner's file from the run's folder, the one folder its sandbox shows it.
    fs::copy_file(o.file, out / "learner.py");
    if (o.nnodes == 1) {
        if (const std::string refused = privateLoopback(); !refused.empty())
            std::cerr << "rankstep-cli real: this system refused a network of the ranks' own ("
                      << refused << "): they run on the machine's network.\n";
    }
    const int port = o.masterPort > 0 ? o.masterPort : freePort();
    const Launched launched = launchRanks(o, puzzleRankWords(o, groupsOf(*trace), out), out, port);
    // A rank has joined the group once its progress file exists: it makes it after joining,
    // before any of the learner's code runs (rankstep_real.rank.run). Only the time is taken
    // from it; a learner's code that made another rank's file early would only shorten its own
    // run's time.
    const int firstRank = o.nodeRank * (o.ranks / o.nnodes);
    const auto everyRankJoined = [&] {
        for (int rank = firstRank; rank < firstRank + o.ranks / o.nnodes; ++rank)
            if (!fs::exists(out / ("rank-" + std::to_string(rank) + ".progress")))
                return false;
        return true;
    };
    const Ended ended = waitForRanks(launched, o.timeout, everyRankJoined);
    std::ostringstream timedOut; // with where each rank stood, from what they wrote as they went
    timedOut << "Stopped after " << o.timeout
             << " s (--timeout, counted once every rank had joined): every rank process was "
                "ended. The simulation finished, so "
                "a rank was slower than the time allowed, ran on where the simulation did "
                "not, or another node never joined.\n"
             << realTimeoutDiagnosis(out.string(), firstRank, o.ranks / o.nnodes);
    if (const auto code = endOfRanks(ended, out, o.ranks, timedOut.str()))
        return *code;

    // 3. The check against one process, and the report.
    std::vector<std::string> verify{"-m",
                                    "rankstep_real.verify",
                                    "--ranks",
                                    std::to_string(o.ranks),
                                    "--wall-seconds",
                                    std::to_string(ended.seconds),
                                    "--out",
                                    out.string()};
    const std::vector<std::string> model = modelArguments(o);
    verify.insert(verify.end(), model.begin(), model.end());
    if (!o.profile.empty())
        verify.insert(verify.end(), {"--profile", "yes"});
    setenv("PYTHONPATH", realPackageDir().c_str(), 1);
    const ChildOutcome verdict =
        runChild(o.python, verify, o.timeout, (out / "verify.err").string());
    // rankstep_real.verify: 0 the weights match, 3 they differ; anything else is its failure.
    constexpr int kWeightsDiffer = 3;
    if (verdict.end != ChildOutcome::End::Exited ||
        (verdict.code != 0 && verdict.code != kWeightsDiffer)) {
        std::cerr << "rankstep-cli real: the check against one process failed:\n"
                  << verdict.stderrText;
        return kInternal;
    }
    std::cout << slurp(out / "verdict.txt");
    if (!o.json.empty())
        writeFile(o.json, slurp(out / "report.json"));
    if (!o.profile.empty())
        writeFile(o.profile, slurp(out / "profile.json"));
    return verdict.code == 0 ? kSolved : kNotSolved;
}

int torchLessonCommand(const lessons::Lesson &lesson, const std::string &source,
                       const std::string &sourceName, const TorchLessonOptions &options)
{
    const lessons::TorchSettings &torch = *lesson.torch;
    RealOptions o;
    o.ranks = lesson.config.ranks;
    o.timeout = options.timeout;
    o.masterAddr = "127.0.0.1";
    const char *python = std::getenv("RANKSTEP_PYTHON");
    o.python = python && *python ? python : "/usr/bin/python3";
    catchStopSignals();
    const RunFolder folder;
    const fs::path &out = folder.dir;
    if (!torchAvailable("lesson", o.python, out))
        return kUnavailable;
    const int steps = options.steps > 0 ? options.steps : torch.steps;
    const int embd = options.embd > 0 ? options.embd : torch.embd;
    std::cout << "Lesson: " << lesson.title << " (" << lesson.id << ")\n"
              << "Running " << o.ranks << (o.ranks == 1 ? " process" : " processes")
              << " for real: " << steps << " steps"
              << (torch.accumulation > 1
                      ? " of " + std::to_string(torch.accumulation) + " micro-batches"
                      : std::string())
              << ", n_embd " << embd << "...\n"
              << std::flush;

    writeFile((out / "learner.py").string(), source);
    if (const std::string refused = privateLoopback(); !refused.empty())
        std::cerr << "rankstep-cli lesson: this system refused a network of the ranks' own ("
                  << refused << "): they run on the machine's network.\n";
    const std::vector<std::string> words{"--torch-lesson", torch.check,
                                         "--file",         (out / "learner.py").string(),
                                         "--source-name",  sourceName,
                                         "--function",     lesson.function,
                                         "--check",        torch.check,
                                         "--steps",        std::to_string(steps),
                                         "--accumulation", std::to_string(torch.accumulation),
                                         "--embd",         std::to_string(embd),
                                         "--timeout",      std::to_string(int(o.timeout) + 5),
                                         "--out",          out.string()};
    const Launched launched = launchRanks(o, words, out, freePort());
    const Ended ended = waitForRanks(launched, o.timeout);
    std::ostringstream timedOut;
    timedOut << "Stopped after " << o.timeout
             << " s (--timeout): every rank process was ended. A loop that never ends, or a "
                "rank waiting in a collective the others never reached, looks like this.\n";
    if (const auto code = endOfRanks(ended, out, o.ranks, timedOut.str()))
        return *code;
    setenv("PYTHONPATH", realPackageDir().c_str(), 1);
    const ChildOutcome verdict =
        runChild(o.python,
                 {"-m", "rankstep_real.torchlesson", "--summarize", "--out", out.string(),
                  "--ranks", std::to_string(o.ranks), "--check", torch.check, "--wall-seconds",
                  std::to_string(ended.seconds)},
                 o.timeout, (out / "summary.err").string());
    constexpr int kNotMet = 3; // rankstep_real.torchlesson --summarize: a check failed
    if (verdict.end != ChildOutcome::End::Exited ||
        (verdict.code != 0 && verdict.code != kNotMet)) {
        std::cerr << "rankstep-cli lesson: the lesson's checks failed to run:\n"
                  << verdict.stderrText;
        return kInternal;
    }
    std::cout << slurp(out / "verdict.txt");
    if (!options.json.empty())
        writeFile(options.json, slurp(out / "report.json"));
    return verdict.code == 0 ? kSolved : kNotSolved;
}

std::optional<int> runTorchLessonIfOne(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] != "lesson")
        return std::nullopt;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // The lesson's name decides; anything this cannot read is the ordinary command's to report.
    std::vector<std::string> valued = {"lessons", "steps", "embd"};
    valued.insert(valued.end(), kRunOptions.begin(), kRunOptions.end());
    std::vector<std::string> flags = {"solution", "starter"};
    flags.insert(flags.end(), kRunFlags.begin(), kRunFlags.end());
    std::optional<Arguments> parsed;
    try {
        parsed.emplace(rest, valued, flags);
    } catch (const UsageError &) {
        return std::nullopt;
    }
    const Arguments &a = *parsed;
    if (a.positional().empty())
        return std::nullopt;
    lessons::LessonSet set;
    if (a.text("lessons").empty()) {
        set = lessons::loadLessonsSkippingBroken(lessons::builtinLessonFiles());
    } else {
        auto files = lessons::readLessonFolder(a.text("lessons"));
        if (!files)
            return std::nullopt;
        set = lessons::loadLessonsSkippingBroken(*files);
    }
    const lessons::Lesson *lesson = lessons::findLesson(set.lessons, a.positional()[0]);
    if (!lesson || !lesson->isTorch())
        return std::nullopt;
    return reportingErrors([&] {
        for (const std::string &puzzleOnly : kRunOptions)
            if (a.has(puzzleOnly) && puzzleOnly != "json" && puzzleOnly != "timeout")
                throw UsageError{"lesson: --" + puzzleOnly + " is for simulated lessons; " +
                                 lesson->id +
                                 " runs real PyTorch (its options: --json, --timeout, --steps, "
                                 "--embd)"};
        const bool builtinCode = a.has("solution") || a.has("starter");
        if (a.positional().size() != (builtinCode ? 1U : 2U))
            throw UsageError{"lesson takes a lesson NAME and a FILE (or --solution or --starter)"};
        std::string source, name;
        if (builtinCode) {
            const bool solution = a.has("solution");
            source = solution ? lesson->solution : lesson->starter;
            name = lesson->folder + (solution ? "/solution.py" : "/starter.py");
        } else {
            source = readFile(a.positional()[1]);
            name = fs::absolute(a.positional()[1]).string();
        }
        TorchLessonOptions options;
        options.json = a.text("json");
        options.timeout = a.seconds("timeout", options.timeout);
        options.steps = int(a.integer("steps", 0, 1, 100000));
        options.embd = int(a.integer("embd", 0, 1, 8192));
        return torchLessonCommand(*lesson, source, name, options);
    });
}

int runReal(const std::vector<std::string> &args)
{
    if (std::find(args.begin(), args.end(), "--help") != args.end() ||
        std::find(args.begin(), args.end(), "-h") != args.end()) {
        std::cout << helpText();
        return kSolved;
    }
    return reportingErrors([&args] { return realCommand(args); });
}

} // namespace rankstep::cli
