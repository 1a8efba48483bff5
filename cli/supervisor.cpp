// SPDX-License-Identifier: MIT
#include "supervisor.h"

#include "runreport.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

namespace rankstep::cli {
namespace {

// The write end of the pipe the child reports its exit code through; -1 outside a child.
std::atomic<int> g_finishedPipe{-1};

std::string crashName(int signal)
{
    switch (signal) {
    case SIGSEGV: return "a segmentation fault";
    case SIGBUS: return "a bus error";
    case SIGILL: return "an illegal instruction";
    case SIGFPE: return "an arithmetic fault";
    case SIGABRT: return "an abort";
    default: return std::string("signal ") + strsignal(signal);
    }
}

// A fault of the process itself, as ctypes or a broken C extension cause; other signals come
// from a kill or a timer.
bool isCrash(int signal)
{
    return signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE ||
           signal == SIGABRT || signal == SIGSYS;
}

// What the learner reads when the child ended without reaching an exit code of its own.
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

int waitForChild(pid_t child)
{
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// After the child reported its code, it only tears down; give it a moment, then end it (code
// that left a thread running could keep the interpreter's shutdown waiting forever).
void reapFinished(pid_t child)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
        const pid_t done = waitpid(child, &status, WNOHANG);
        if (done == child || (done < 0 && errno != EINTR))
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(child, SIGKILL);
    waitForChild(child);
}

[[noreturn]] void runChild(const std::function<int()> &body, int pipeOut, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); // killing rankstep-cli (the app's Esc) ends the run too
    if (getppid() != parent)
        std::_Exit(kStopped);
    g_finishedPipe = pipeOut;
    const int code = body();
    std::cout.flush();
    std::cerr.flush();
    markFinished(code);
    std::exit(code);
}

} // namespace

void markFinished(int exitCode)
{
    const int fd = g_finishedPipe.exchange(-1);
    if (fd < 0)
        return;
    const auto byte = static_cast<unsigned char>(exitCode);
    while (write(fd, &byte, 1) < 0 && errno == EINTR) {
    }
    close(fd);
}

int superviseInChild(const std::function<int()> &body)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return body();
    std::cout.flush();
    std::cerr.flush();
    const pid_t parent = getpid();
    const pid_t child = fork();
    if (child < 0) {
        close(fds[0]);
        close(fds[1]);
        return body();
    }
    if (child == 0) {
        close(fds[0]);
        runChild(body, fds[1], parent);
    }
    close(fds[1]);
    unsigned char byte = 0;
    ssize_t got = 0;
    do {
        got = read(fds[0], &byte, 1);
    } while (got < 0 && errno == EINTR);
    close(fds[0]);
    if (got == 1) {
        reapFinished(child);
        return byte;
    }
    return reportUnfinished(waitForChild(child));
}

} // namespace rankstep::cli
