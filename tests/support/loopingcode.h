// SPDX-License-Identifier: MIT
// Endless learner code for the tests that stop a run, and a way to know that the run is in its
// loop (not still starting) without waiting for a stretch of time a loaded machine may not give.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rankstep::testsupport {

// The file the looping code leaves in its run folder (its working folder, where the sandbox
// lets it write) before it loops.
inline constexpr const char *kLoopingMarker = "looping";

// The body of a function that leaves kLoopingMarker and then loops forever.
inline std::string loopingBody()
{
    return std::string("    open('") + kLoopingMarker + "', 'w').close()\n" +
           "    while True:\n        pass\n";
}

// `async def name(model):` (or a plain def) with loopingBody.
inline std::string loopingFunction(const std::string &name, bool async = true)
{
    return std::string(async ? "async " : "") + "def " + name + "(model):\n" + loopingBody();
}

// The live processes below `ancestor` (its children, theirs, and so on), from /proc.
inline std::vector<pid_t> descendantsOf(pid_t ancestor)
{
    std::vector<std::pair<pid_t, pid_t>> parents; // (pid, parent)
    std::error_code error;
    for (const auto &entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream file(entry.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        const auto close = stat.rfind(')');
        if (close == std::string::npos || close + 2 >= stat.size())
            continue;
        std::istringstream fields(stat.substr(close + 2)); // state, then the parent's pid
        std::string state;
        long parent = 0;
        fields >> state >> parent;
        if (state != "Z" && state != "X")
            parents.emplace_back(pid_t(std::stol(name)), pid_t(parent));
    }
    std::vector<pid_t> found{ancestor};
    for (std::size_t i = 0; i < found.size(); ++i)
        for (const auto &[pid, parent] : parents)
            if (parent == found[i])
                found.push_back(pid);
    found.erase(found.begin());
    return found;
}

// How many runs of processes below `ancestor` are in the loop of loopingBody: their run folders
// (Rankstep-run-PID-... in the temporary folder, named after the run's supervisor) hold the marker.
inline std::size_t runsInTheirLoops(pid_t ancestor)
{
    std::size_t looping = 0;
    std::error_code error;
    const std::filesystem::path temp = std::filesystem::temp_directory_path(error);
    for (pid_t pid : descendantsOf(ancestor)) {
        const std::string prefix = "Rankstep-run-" + std::to_string(pid) + "-";
        for (const auto &entry : std::filesystem::directory_iterator(temp, error))
            if (entry.path().filename().string().rfind(prefix, 0) == 0 &&
                std::filesystem::exists(entry.path() / kLoopingMarker, error))
                ++looping;
    }
    return looping;
}

} // namespace rankstep::testsupport
