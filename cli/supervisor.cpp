// SPDX-License-Identifier: MIT
#include "supervisor.h"

#include "arguments.h"
#include "childprocess.h"
#include "core/io/tracebinary.h"
#include "descriptors.h"
#include "runfolder.h"
#include "runreport.h"
#include "terminalstream.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The signal that asked the supervisor to stop (SIGTERM also arrives when its parent dies).
volatile std::sig_atomic_t g_stopSignal = 0;
constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

// More than any report a run can produce (a trace of a million events is about 40 MB): a runner
// that writes more is not reporting.
constexpr std::size_t kMaxReportBytes = std::size_t(1) << 31;

extern "C" void onStopSignal(int signal)
{
    g_stopSignal = signal;
}

std::string crashName(int signal)
{
    switch (signal) {
        case SIGSEGV:
            return "a segmentation fault";
        case SIGBUS:
            return "a bus error";
        case SIGILL:
            return "an illegal instruction";
        case SIGFPE:
            return "an arithmetic fault";
        case SIGABRT:
            return "an abort";
        default:
            return std::string("signal ") + strsignal(signal);
    }
}

// A fault of the process itself, as ctypes or a broken C extension cause; other signals come from a
// kill or a timer.
bool isCrash(int signal)
{
    return signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE ||
           signal == SIGABRT || signal == SIGSYS;
}

// What the learner reads when the child ended without a report.
int reportUnfinished(int status)
{
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
        std::cerr << "Error: the run was killed from outside (signal 9), often because the "
                     "machine ran out of memory. Your code file is unchanged.\n";
        return kStopped;
    }
    if (WIFSIGNALED(status) && !isCrash(WTERMSIG(status))) {
        const int signal = WTERMSIG(status);
        std::cerr << "Error: the process that runs the code was ended by signal " << signal << " ("
                  << strsignal(signal) << "), which the code sent or set up itself "
                  << "(signal.alarm, os.kill or a timer, for example). Nothing of the run can be "
                     "shown. Your code file is unchanged.\n";
        return kLearnerError;
    }
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        std::cerr << "Error: the code crashed the process that runs it (" << crashName(signal)
                  << ", signal " << signal << "), for example in a C extension. "
                  << "Nothing of the run can be shown. Your code file is unchanged.\n";
        return kLearnerError;
    }
    std::cerr << "Error: the code ended the process that runs it (exit code "
              << (WIFEXITED(status) ? WEXITSTATUS(status) : -1)
              << ", as os._exit or os.abort do) before the run finished. Nothing of the run can "
                 "be shown. Your code file is unchanged.\n";
    return kLearnerError;
}

// Blocks the stop signals (they are taken only while waiting, in ppoll) and catches them.
void catchStopSignals(sigset_t &previous)
{
    sigset_t stops;
    sigemptyset(&stops);
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    for (int signal : kStopSignals) {
        sigaddset(&stops, signal);
        sigaction(signal, &action, nullptr);
    }
    sigprocmask(SIG_BLOCK, &stops, &previous);
}

void releaseStopSignals(const sigset_t &previous)
{
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    for (int signal : kStopSignals)
        sigaction(signal, &action, nullptr);
    sigprocmask(SIG_SETMASK, &previous, nullptr);
}

// Reads what is there now into `bytes` (at most `limit` bytes kept); false at end of file.
bool drain(int fd, std::string &bytes, std::size_t limit)
{
    char buffer[65536];
    for (;;) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got > 0) {
            if (bytes.size() > limit)
                continue;
            // Grown once to what the report's head announces (at most `limit`), not by doubling:
            // a large run's report is hundreds of MB, and each doubling copies it to fresh pages.
            if (bytes.size() + std::size_t(got) > bytes.capacity())
                if (const std::size_t announced = std::min(reportSizeHint(bytes), limit);
                    announced > bytes.size() + std::size_t(got))
                    bytes.reserve(announced);
            bytes.append(buffer, std::size_t(got));
            continue;
        }
        return got < 0 && (errno == EAGAIN || errno == EINTR);
    }
}

// A descriptor that becomes readable when `child` ends (Linux 5.3), so the wait below wakes at
// once instead of at its next tick; -1 where the kernel has none (the tick alone then).
int childEndDescriptor(pid_t child)
{
#ifdef SYS_pidfd_open
    return int(syscall(SYS_pidfd_open, child, 0));
#else
    (void)child;
    return -1;
#endif
}

// The bytes and files beneath `folder`, counted without following links; stops counting once
// either passes its quota.
struct FolderUse {
    std::int64_t bytes = 0;
    std::int64_t files = 0;
    bool over() const { return bytes > kRunFolderQuotaBytes || files > kRunFolderQuotaFiles; }
};

void measure(const std::string &folder, FolderUse &use, int depth)
{
    DIR *dir = opendir(folder.c_str());
    if (!dir)
        return;
    while (const dirent *entry = readdir(dir)) {
        if (use.over())
            break;
        if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0)
            continue;
        const std::string path = folder + "/" + entry->d_name;
        struct stat info {};
        if (lstat(path.c_str(), &info) != 0)
            continue;
        ++use.files;
        use.bytes += std::int64_t(info.st_blocks) * 512;
        if (S_ISDIR(info.st_mode) && depth < 64)
            measure(path, use, depth + 1);
    }
    closedir(dir);
}

struct Pipes {
    int report = -1; // the runner's report
    int out = -1;    // the runner's stdout
    int err = -1;    // the runner's stderr
};

struct Watched {
    std::string report;
    int status = 0;
    bool exited = false;
    bool overQuota = false;
};

// Collects the report and passes the runner's output on until the runner ends (or, once it closed
// the channel, a few seconds of teardown later: code that left a thread running could keep the
// shutdown waiting forever). Stops the run when its folder grows past the quota.
Watched watch(pid_t child, const Pipes &pipes, const std::string &folder, const sigset_t &waiting)
{
    Watched seen;
    TerminalStream out(std::cout), err(std::cerr);
    bool reportOpen = true, outOpen = true, errOpen = true;
    Clock::time_point closedAt{};
    Clock::time_point measuredAt = Clock::now();
    const int ended = childEndDescriptor(child);
    // Every byte the runner printed goes on at once (the app keeps what it shows within bounds).
    const auto pass = [](int fd, bool &open, TerminalStream &stream) {
        char buffer[65536];
        while (open) {
            const ssize_t got = read(fd, buffer, sizeof buffer);
            if (got > 0)
                stream.write(std::string_view(buffer, std::size_t(got)));
            else if (got == 0 || (errno != EAGAIN && errno != EINTR))
                open = false;
            else if (errno == EAGAIN)
                return;
        }
    };
    while (g_stopSignal == 0) {
        pollfd polled[4] = {{ended, POLLIN, 0},
                            {reportOpen ? pipes.report : -1, POLLIN, 0},
                            {outOpen ? pipes.out : -1, POLLIN, 0},
                            {errOpen ? pipes.err : -1, POLLIN, 0}};
        const timespec tick{0, 50'000'000};
        ppoll(polled, 4, &tick, &waiting); // a negative fd is skipped
        if (reportOpen && !drain(pipes.report, seen.report, kMaxReportBytes)) {
            reportOpen = false;
            closedAt = Clock::now();
        }
        pass(pipes.out, outOpen, out);
        pass(pipes.err, errOpen, err);
        if (Clock::now() - measuredAt > std::chrono::milliseconds(250)) {
            FolderUse use;
            measure(folder, use, 0);
            measuredAt = Clock::now();
            if (use.over()) {
                seen.overQuota = true;
                break;
            }
        }
        const pid_t done = waitpid(child, &seen.status, WNOHANG);
        if (done == child || (done < 0 && errno == ECHILD)) {
            seen.exited = done == child;
            if (reportOpen)
                drain(pipes.report, seen.report, kMaxReportBytes);
            pass(pipes.out, outOpen, out);
            pass(pipes.err, errOpen, err);
            break;
        }
        if (!reportOpen && Clock::now() - closedAt > std::chrono::seconds(3))
            break;
    }
    out.finish();
    err.finish();
    if (ended >= 0)
        close(ended);
    return seen;
}

// An output file that changed after `start`: the run's code wrote it, not this process.
void removeChangedOutputs(const std::vector<std::string> &outputs, const timespec &start)
{
    for (const std::string &path : outputs) {
        struct stat info {};
        if (lstat(path.c_str(), &info) != 0)
            continue;
        const timespec &changed = info.st_mtim;
        if (changed.tv_sec > start.tv_sec ||
            (changed.tv_sec == start.tv_sec && changed.tv_nsec >= start.tv_nsec))
            unlink(path.c_str());
    }
}

} // namespace

std::vector<std::string> runnerEnvironment()
{
    std::vector<std::string> kept;
    for (char **entry = environ; *entry; ++entry) {
        const std::string_view text(*entry);
        const std::string_view name = text.substr(0, text.find('='));
        const bool locale = name == "LANG" || name == "LANGUAGE" || name.rfind("LC_", 0) == 0;
        const bool sanitizer = name == "ASAN_OPTIONS" || name == "LSAN_OPTIONS" ||
                               name == "UBSAN_OPTIONS" || name == "TSAN_OPTIONS";
        if (locale || sanitizer || name == "TZ" || name == "RANKSTEP_SANDBOX_SKIP")
            kept.emplace_back(text);
    }
    kept.emplace_back(kRunnerMallocSettings);
    return kept;
}

namespace {

// Moves `fd` to `target` in the child between fork and exec (async-signal-safe calls only).
void placeDescriptor(int fd, int target)
{
    if (fd == target)
        fcntl(fd, F_SETFD, 0);
    else
        dup2(fd, target);
}

[[noreturn]] void execRunner(const std::string &program, const int (&fds)[5],
                             std::vector<char *> &environment)
{
    // stdin, stdout, stderr, request, report: first out of the way of the targets, then placed.
    int moved[5];
    for (int i = 0; i < 5; ++i)
        moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 16);
    for (int i = 0; i < 5; ++i)
        placeDescriptor(moved[i], i);
#ifdef SYS_close_range
    syscall(SYS_close_range, 5U, ~0U, 0U);
#endif
    char *argv[] = {const_cast<char *>("rankstep-runner"), nullptr};
    execve(program.c_str(), argv, environment.data());
    const char message[] = "rankstep-cli: cannot start rankstep-runner\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(kInternal);
}

struct Started {
    pid_t child = -1;
    Pipes pipes;
};

// Starts the runner in a session of its own (no controlling terminal: TIOCSTI has nothing to
// push into) and hands it the request.
Started startRunner(const std::string &program, const std::string &request)
{
    int requestPipe[2], reportPipe[2], outPipe[2], errPipe[2];
    if (pipe2(requestPipe, O_CLOEXEC) != 0 || pipe2(reportPipe, O_CLOEXEC) != 0 ||
        pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0)
        throw std::runtime_error("cannot start the run: no pipes left");
    const int devNull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    std::vector<std::string> environment = runnerEnvironment();
    std::vector<char *> envp;
    for (std::string &entry : environment)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child == 0) {
        // As the runner's first line does, but from the fork on: this process killed before the
        // runner reached that line would leave it running the code to its time limit.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            std::_Exit(kStopped);
        setsid();
        const int fds[5] = {devNull, outPipe[1], errPipe[1], requestPipe[0], reportPipe[1]};
        execRunner(program, fds, envp);
    }
    for (int fd : {devNull, requestPipe[0], reportPipe[1], outPipe[1], errPipe[1]})
        close(fd);
    if (child < 0) {
        for (int fd : {requestPipe[1], reportPipe[0], outPipe[0], errPipe[0]})
            close(fd);
        throw std::runtime_error("cannot start the run: no process can be started");
    }
    // The runner reads the whole request before anything else; one that dies first (a broken
    // install) closes the pipe, which must not end this process with SIGPIPE.
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous);
    writeFully(requestPipe[1], request);
    close(requestPipe[1]);
    sigaction(SIGPIPE, &previous, nullptr);
    Started started{child, {reportPipe[0], outPipe[0], errPipe[0]}};
    for (int fd : {started.pipes.report, started.pipes.out, started.pipes.err})
        fcntl(fd, F_SETFL, O_NONBLOCK);
    return started;
}

// A run that gave no trace; `code` says why (already said on stderr).
SandboxedRuns failed(int code)
{
    SandboxedRuns runs;
    runs.exitCode = code;
    return runs;
}

// The traces of a report, each decoded with the reader's checks and each of the job it answers.
SandboxedRuns checkedTraces(RunnerReport report, const std::vector<RunnerJob> &jobs)
{
    SandboxedRuns runs;
    if (report.exitCode == kUsage)
        throw UsageError{report.message};
    if (report.exitCode == kInternal)
        throw std::runtime_error(report.message);
    if (report.exitCode != kSolved) {
        runs.exitCode = report.exitCode;
        return runs;
    }
    const auto refuse = [](const std::string &why) -> SandboxedRuns {
        std::cerr << "Error: the report of the process that ran the code does not hold a trace of "
                     "the run it was asked for ("
                  << why
                  << "), so this run does not count. Your code file is unchanged. If your code "
                     "did not tamper with that process, this is a bug of Rankstep's.\n";
        return failed(kLearnerError);
    };
    if (report.traces.size() != jobs.size())
        return refuse(std::to_string(report.traces.size()) + " traces for " +
                      std::to_string(jobs.size()) + " runs");
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        io::TraceJsonOptions written;
        auto trace = io::traceFromBinary(report.traces[i], &written);
        if (!trace)
            return refuse(trace.error().message);
        const python::RunRequest &asked = jobs[i].request;
        const core::RunConfig &config = trace->config;
        if (config.ranks != asked.config.ranks || config.layers != asked.config.layers ||
            config.batches != asked.config.batches || written.file != asked.fileName ||
            (!jobs[i].chooseFunction && written.function != asked.function))
            return refuse("the trace is of another configuration, file or function");
        runs.traces.push_back(std::move(*trace));
        runs.functions.push_back(written.function);
        runs.encoded.push_back(std::move(report.traces[i]));
    }
    return runs;
}

SandboxedRuns conclude(Watched &seen, const ChannelToken &token, const std::vector<RunnerJob> &jobs)
{
    if (seen.overQuota) {
        std::cerr << "Error: the code wrote more than " << (kRunFolderQuotaBytes >> 20)
                  << " MiB or more than " << kRunFolderQuotaFiles
                  << " files into its run's folder, which is all a run may use, so the run was "
                     "stopped. Your code file is unchanged.\n";
        return failed(kLearnerError);
    }
    ChannelReading reading = decodeReport(token, std::move(seen.report));
    if (reading.report)
        return checkedTraces(std::move(*reading.report), jobs);
    if (reading.tampered) {
        std::cerr << "Error: the code wrote into the channel the runner reports its result "
                     "through, so this run does not count. Your code file is unchanged.\n";
        return failed(kLearnerError);
    }
    if (!seen.exited) {
        std::cerr << "Error: the code closed the channel the runner reports its result through, "
                     "so this run does not count. Your code file is unchanged.\n";
        return failed(kLearnerError);
    }
    return failed(reportUnfinished(seen.status));
}

} // namespace

std::string runnerProgram()
{
    const std::filesystem::path self = currentExecutable();
    if (self.empty())
        return {};
    for (const std::filesystem::path &candidate :
         {self.parent_path() / "rankstep-runner",
          self.parent_path() / ".." / "libexec" / "rankstep" / "rankstep-runner"}) {
        std::error_code error;
        if (std::filesystem::is_regular_file(candidate, error) &&
            access(candidate.c_str(), X_OK) == 0)
            return candidate.lexically_normal().string();
    }
    return {};
}

SandboxedRuns runSandboxed(std::vector<RunnerJob> jobs, long long memoryLimitMiB,
                           const std::vector<std::string> &outputs)
{
    const std::string program = runnerProgram();
    if (program.empty())
        throw std::runtime_error(
            "rankstep-runner, which runs the code, is not beside "
            "rankstep-cli nor in ../libexec/rankstep/ from it");
    const pid_t parent = getppid();
    prctl(PR_SET_CHILD_SUBREAPER, 1); // processes the run leaves behind come back to this one
    prctl(PR_SET_PDEATHSIG, SIGTERM); // the app killed: end the run and clean up
    if (getppid() != parent)
        return failed(kStopped);
    RunnerRequest request;
    request.token = newChannelToken();
    request.runFolder = makeRunFolder();
    if (request.runFolder.empty())
        throw std::runtime_error("cannot make a folder for the run in the temporary folder");
    request.memoryLimitMiB = memoryLimitMiB;
    request.jobs = std::move(jobs);
    timespec start{};
    clock_gettime(CLOCK_REALTIME, &start);
    sigset_t previous;
    catchStopSignals(previous);
    Started started;
    try {
        started = startRunner(program, encodeRequest(request));
    } catch (...) {
        removeRunFolder(request.runFolder);
        releaseStopSignals(previous);
        throw;
    }
    // The runner's own setsid() makes it the leader of its process group: no setpgid here (it
    // could come first and make that setsid fail).
    Watched seen = watch(started.child, started.pipes, request.runFolder, previous);
    for (int fd : {started.pipes.report, started.pipes.out, started.pipes.err})
        close(fd);
    endRunProcesses(started.child);
    removeRunFolder(request.runFolder);
    releaseStopSignals(previous);
    if (g_stopSignal != 0) {
        std::cerr << "Error: the run was stopped from outside (signal " << g_stopSignal
                  << ": the program that started it ended, or asked it to stop). Your code file "
                     "is unchanged.\n";
        return failed(kStopped);
    }
    SandboxedRuns runs = conclude(seen, request.token, request.jobs);
    if (runs.traces.empty())
        removeChangedOutputs(outputs, start);
    return runs;
}

int superviseInChild(const std::function<int()> &body)
{
    std::cout.flush();
    std::cerr.flush();
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child < 0)
        return body();
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // Killed between the fork and the line above, the parent sent no signal: the run it
        // asked for must not start (the app's Stop kills rankstep-cli at any moment).
        if (getppid() != parent)
            std::_Exit(kStopped);
        const int code = body();
        std::cout.flush();
        std::cerr.flush();
        std::_Exit(code);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    std::cerr << "Error: rankstep-cli crashed (" << crashName(WTERMSIG(status)) << ", signal "
              << WTERMSIG(status) << ").\n";
    return kInternal;
}

} // namespace rankstep::cli
