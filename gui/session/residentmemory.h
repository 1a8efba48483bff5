// SPDX-License-Identifier: MIT
// The process's resident memory for the open's debug lines (rankstep.open, gui/session/
// traceloader.cpp and tracederived.cpp): docs/benchmarks.md accounts for an open's memory with
// them.
#pragma once

#include <QString>

#include <fstream>
#include <string>

namespace rankstep::gui {

// "resident 3012 MiB, at most 3350 MiB": now and the most so far (Linux; empty elsewhere).
inline QString residentMemory()
{
    std::ifstream status("/proc/self/status");
    long long now = -1, most = -1;
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("VmRSS:", 0) == 0)
            now = std::stoll(line.substr(6));
        else if (line.rfind("VmHWM:", 0) == 0)
            most = std::stoll(line.substr(6));
    }
    if (now < 0 || most < 0)
        return {};
    return QStringLiteral("resident %1 MiB, at most %2 MiB").arg(now / 1024).arg(most / 1024);
}

} // namespace rankstep::gui
