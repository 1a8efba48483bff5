// SPDX-License-Identifier: MIT
#include "runfolder.h"

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace rankstep::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPrefix = "Rankstep-run-";

bool alive(pid_t pid)
{
    return kill(pid, 0) == 0 || errno == EPERM;
}

// Removes the run folders of this user whose supervisor no longer runs.
void sweepStale(const fs::path &temp)
{
    std::error_code error;
    for (const fs::directory_entry &entry : fs::directory_iterator(temp, error)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(kPrefix, 0) != 0)
            continue;
        struct stat info {};
        if (lstat(entry.path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
            info.st_uid != getuid())
            continue;
        const pid_t owner = pid_t(std::atol(name.c_str() + kPrefix.size()));
        if (owner > 0 && !alive(owner))
            fs::remove_all(entry.path(), error);
    }
}

// The processes whose parent is this one, read from /proc/<pid>/stat.
std::vector<pid_t> children()
{
    std::vector<pid_t> found;
    const pid_t self = getpid();
    DIR *proc = opendir("/proc");
    if (!proc)
        return found;
    while (const dirent *entry = readdir(proc)) {
        const pid_t pid = pid_t(std::atol(entry->d_name));
        if (pid <= 0)
            continue;
        std::ifstream stat("/proc/" + std::string(entry->d_name) + "/stat");
        std::string line;
        std::getline(stat, line);
        const std::size_t close = line.rfind(')'); // the name may hold spaces and parentheses
        if (close == std::string::npos)
            continue;
        char state = 0;
        long parent = 0;
        if (std::sscanf(line.c_str() + close + 1, " %c %ld", &state, &parent) == 2 &&
            parent == self)
            found.push_back(pid);
    }
    closedir(proc);
    return found;
}

} // namespace

std::string makeRunFolder()
{
    std::error_code error;
    const fs::path temp = fs::temp_directory_path(error);
    if (error)
        return {};
    sweepStale(temp);
    std::string name =
        (temp / (std::string(kPrefix) + std::to_string(getpid()) + "-XXXXXX")).string();
    if (!mkdtemp(name.data()))
        return {};
    return name;
}

void removeRunFolder(const std::string &folder)
{
    if (folder.empty())
        return;
    std::error_code error;
    fs::remove_all(folder, error);
}

void endRunProcesses(pid_t child)
{
    kill(-child, SIGKILL);
    kill(child, SIGKILL);
    for (;;) {
        for (const pid_t pid : children()) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
        int status = 0;
        pid_t reaped = 0;
        while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) {
        }
        if (reaped < 0 && errno == ECHILD)
            return;
        usleep(5000); // killed processes not yet reaped, or new ones reparented: look again
    }
}

} // namespace rankstep::cli
