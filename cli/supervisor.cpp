// SPDX-License-Identifier: MIT
#include "supervisor.h"

#include "arguments.h"
#include "descriptors.h"
#include "figureexport.h"
#include "runchannel.h"
#include "runcommand.h"
#include "runfolder.h"
#include "runreport.h"
#include "sandbox.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

namespace rankstep::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The child's end of the channel (-1 outside a child), its token and its folder.
std::atomic<int> g_channel{-1};
ChannelToken g_token{};
std::string g_runFolder;
bool g_sandboxed = false;

// The signal that asked the supervisor to stop (SIGTERM also arrives when its parent dies).
volatile std::sig_atomic_t g_stopSignal = 0;
constexpr int kStopSignals[] = {SIGTERM, SIGINT, SIGHUP};

// More than any trace a run can produce: a child that writes more is not reporting.
constexpr std::size_t kMaxReportBytes = std::size_t(1) << 30;

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

// A fault of the process itself, as ctypes or a broken C extension cause; other signals come
// from a kill or a timer.
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
                  << ", signal " << signal << "), for example through ctypes or a C extension. "
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

// Reads what is there now; false at end of file.
bool drain(int fd, std::string &bytes)
{
    char buffer[65536];
    for (;;) {
        const ssize_t got = read(fd, buffer, sizeof buffer);
        if (got > 0) {
            bytes.append(buffer, std::size_t(got));
            if (bytes.size() > kMaxReportBytes)
                return false;
            continue;
        }
        return got < 0 && (errno == EAGAIN || errno == EINTR);
    }
}

struct Watched {
    std::string bytes;
    int status = 0;
    bool exited = false;
};

// Collects the channel's bytes until the child ends (or, once it closed the channel, a few seconds
// of teardown later: code that left a thread running could keep the shutdown waiting forever).
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

Watched watch(pid_t child, int channel, const sigset_t &waiting)
{
    Watched seen;
    bool open = true;
    Clock::time_point closedAt{};
    const int ended = childEndDescriptor(child);
    while (g_stopSignal == 0) {
        pollfd polled[2] = {{ended, POLLIN, 0}, {channel, POLLIN, 0}};
        const timespec tick{0, 20'000'000};
        ppoll(polled, open ? 2 : 1, &tick, &waiting); // a negative fd is skipped
        if (open && !drain(channel, seen.bytes)) {
            open = false;
            closedAt = Clock::now();
        }
        const pid_t done = waitpid(child, &seen.status, WNOHANG);
        if (done == child || (done < 0 && errno == ECHILD)) {
            seen.exited = done == child;
            if (open)
                drain(channel, seen.bytes);
            break;
        }
        if (!open && Clock::now() - closedAt > std::chrono::seconds(3))
            break;
    }
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

// The figures the run asked for, drawn from the trace it reported (by rankstep-figures, which
// reads the trace as the run encoded it).
void drawFigures(const FigureJob &job)
{
    writeFigureFiles(job.options, job.trace, {job.title, job.memoryTarget});
}

int conclude(const Watched &seen, const std::vector<std::string> &outputs, const timespec &start)
{
    const ChannelReading reading = decodeReport(g_token, seen.bytes);
    if (reading.report) {
        return reportingErrors([&reading] {
            for (const auto &[path, contents] : reading.report->files)
                writeFile(path, contents);
            if (reading.report->figures)
                drawFigures(*reading.report->figures);
            return reading.report->exitCode;
        });
    }
    removeChangedOutputs(outputs, start);
    if (reading.tampered) {
        std::cerr << "Error: the code wrote into the channel the runner reports its result "
                     "through, so this run does not count. Your code file is unchanged.\n";
        return kLearnerError;
    }
    if (!seen.exited) {
        std::cerr << "Error: the code closed the channel the runner reports its result through, "
                     "so this run does not count. Your code file is unchanged.\n";
        return kLearnerError;
    }
    return reportUnfinished(seen.status);
}

[[noreturn]] void runChild(const std::function<int()> &body, int channel, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); // killing rankstep-cli (the app's Esc) ends the run too
    if (getppid() != parent)
        std::_Exit(kStopped);
    g_channel = channel;
    keepDeliveredFiles();
    const int code = body();
    std::cout.flush();
    std::cerr.flush();
    markFinished(code);
    std::exit(code);
}

} // namespace

void markFinished(int exitCode)
{
    const int fd = g_channel.exchange(-1);
    if (fd < 0)
        return;
    writeFully(fd, encodeReport(g_token, takeDelivered(exitCode)));
    close(fd);
}

std::string runFolder()
{
    return g_runFolder;
}

void enterSandbox()
{
    if (g_sandboxed)
        return;
    g_sandboxed = true;
    if (g_channel < 0) {
        std::cerr << "rankstep-cli: warning: no separate process could be started for the run, so "
                     "the code runs without a sandbox.\n";
        return;
    }
    if (!g_runFolder.empty() && chdir(g_runFolder.c_str()) == 0)
        setenv("TMPDIR", g_runFolder.c_str(), 1);
    std::cerr << describeMissing(lockDown(g_runFolder));
}

int superviseInChild(const std::function<int()> &body, const std::vector<std::string> &outputs)
{
    const pid_t parent = getppid();
    prctl(PR_SET_CHILD_SUBREAPER, 1); // processes the run leaves behind come back to this one
    prctl(PR_SET_PDEATHSIG, SIGTERM); // the app killed: end the run and clean up
    if (getppid() != parent)
        return kStopped;
    sigset_t previous;
    catchStopSignals(previous);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        releaseStopSignals(previous);
        return body();
    }
    g_token = newChannelToken();
    g_runFolder = makeRunFolder();
    timespec start{};
    clock_gettime(CLOCK_REALTIME, &start);
    std::cout.flush();
    std::cerr.flush();
    const pid_t self = getpid();
    const pid_t child = fork();
    if (child == 0) {
        setpgid(0, 0);
        releaseStopSignals(previous);
        close(fds[0]);
        runChild(body, fds[1], self);
    }
    close(fds[1]);
    if (child < 0) {
        close(fds[0]);
        removeRunFolder(g_runFolder);
        g_runFolder.clear();
        releaseStopSignals(previous);
        return body();
    }
    setpgid(child, child);
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    const Watched seen = watch(child, fds[0], previous);
    close(fds[0]);
    endRunProcesses(child);
    removeRunFolder(g_runFolder);
    if (g_stopSignal != 0) {
        std::cerr << "Error: the run was stopped from outside (signal " << g_stopSignal
                  << ": the program that started it ended, or asked it to stop). Your code file "
                     "is unchanged.\n";
        return kStopped;
    }
    return conclude(seen, outputs, start);
}

} // namespace rankstep::cli
