// SPDX-License-Identifier: MIT
#include "clilaunch.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

extern char **environ; // NOLINT(readability-redundant-declaration): POSIX leaves it undeclared

namespace rankstep::hostile {

pid_t startCli(const Launch &launch, const std::string &out, const std::string &err)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, launch.input.c_str(),
                                     O_RDWR | O_NOCTTY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!launch.workingFolder.empty())
        posix_spawn_file_actions_addchdir_np(&actions, launch.workingFolder.c_str());
    std::string program = RANKSTEP_CLI;
    std::vector<std::string> words = launch.args;
    std::vector<char *> argv{program.data()};
    for (std::string &word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    std::vector<std::string> variables = launch.environment;
    std::vector<char *> envp;
    for (char **entry = environ; *entry; ++entry)
        envp.push_back(*entry);
    for (std::string &variable : variables)
        envp.push_back(variable.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data()) != 0)
        pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

testsupport::ProcessResult runCli(const Launch &launch, const testsupport::TempDir &dir)
{
    const std::string out = (dir.path() / "cli-stdout.txt").string();
    const std::string err = (dir.path() / "cli-stderr.txt").string();
    testsupport::ProcessResult result;
    const pid_t pid = startCli(launch, out, err);
    if (pid < 0)
        return result;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    result.out = testsupport::readFileText(out);
    result.err = testsupport::readFileText(err);
    return result;
}

bool isGone(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(stat, line))
        return true;
    const std::size_t close = line.rfind(')');
    return close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z';
}

bool waitGone(pid_t pid, double seconds)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!isGone(pid)) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

std::vector<pid_t> printedPids(const std::string &text, const std::string &marker)
{
    std::vector<pid_t> pids;
    for (std::size_t at = text.find(marker); at != std::string::npos;
         at = text.find(marker, at + 1))
        pids.push_back(pid_t(std::atol(text.c_str() + at + marker.size())));
    return pids;
}

std::vector<std::string> runFoldersOf(pid_t supervisor)
{
    std::vector<std::string> found;
    const std::string prefix = "Rankstep-run-" + std::to_string(supervisor) + "-";
    std::error_code error;
    for (const auto &entry :
         std::filesystem::directory_iterator(std::filesystem::temp_directory_path(), error))
        if (entry.path().filename().string().rfind(prefix, 0) == 0)
            found.push_back(entry.path().string());
    return found;
}

} // namespace rankstep::hostile
