// SPDX-License-Identifier: MIT
#include "childprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::cli {
namespace {

std::string readStart(const std::string &path, std::size_t limit)
{
    std::ifstream in(path, std::ios::binary);
    std::string text(limit, '\0');
    in.read(text.data(), std::streamsize(limit));
    text.resize(std::size_t(in.gcount()));
    return text;
}

// Waits for `pid` until `deadline` (or `stop`); false when that came first.
bool waitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline, int &status,
               const std::atomic<bool> *stop = nullptr)
{
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            return true;
        if (std::chrono::steady_clock::now() >= deadline || (stop && stop->load()))
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

ChildOutcome runChild(const std::string &program, const std::vector<std::string> &args,
                      double timeoutSeconds, const std::string &stderrPath,
                      const std::atomic<bool> *stop)
{
    std::vector<std::string> words{program};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);

    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int spawned =
        posix_spawn(&pid, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ChildOutcome outcome;
    if (spawned != 0)
        return outcome;

    const auto limit = std::chrono::duration<double>(timeoutSeconds > 0 ? timeoutSeconds : 1e9);
    int status = 0;
    if (!waitUntil(pid, start + std::chrono::duration_cast<std::chrono::nanoseconds>(limit), status,
                   stop)) {
        // SIGTERM first: a rankstep-cli then ends its run's processes and removes its folder.
        kill(pid, SIGTERM);
        if (!waitUntil(pid, std::chrono::steady_clock::now() + std::chrono::seconds(2), status))
            kill(-pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        outcome.end =
            stop && stop->load() ? ChildOutcome::End::Stopped : ChildOutcome::End::TimedOut;
    } else if (WIFSIGNALED(status)) {
        outcome.end = ChildOutcome::End::Signaled;
        outcome.code = WTERMSIG(status);
    } else {
        outcome.end = ChildOutcome::End::Exited;
        outcome.code = WEXITSTATUS(status);
    }
    outcome.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    outcome.stderrText = readStart(stderrPath, 64 * 1024);
    return outcome;
}

std::string currentExecutable()
{
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    return error ? std::string() : self.string();
}

} // namespace rankstep::cli
