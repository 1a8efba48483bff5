// SPDX-License-Identifier: MIT
#include "runreport.h"

#include "core/indexset.h"
#include "core/memoryformat.h"
#include "core/terminaltext.h"

#include <cstdio>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

namespace rankstep::cli {

ExitCode exitCodeFor(const core::Trace &trace)
{
    switch (trace.status) {
        case core::RunStatus::Ok:
            return trace.check.passed ? kSolved : kNotSolved;
        case core::RunStatus::Deadlock:
            return kHang;
        case core::RunStatus::Stopped:
            return kStopped;
        case core::RunStatus::Error:
            break;
    }
    if (!trace.error)
        return kInternal;
    switch (trace.error->kind) {
        case core::ErrorKind::Usage:
            return kUsage;
        case core::ErrorKind::Internal:
            return kInternal;
        default:
            return kLearnerError;
    }
}

std::string formatDeviceFit(const core::Trace &trace)
{
    const std::int64_t device = trace.config.cost.deviceMemory;
    if (device <= 0 || !trace.figures.hasEvents)
        return {};
    const std::int64_t spare = device - trace.figures.maxMemory;
    return spare >= 0
               ? "fits " + core::formatMemory(device) + ", " + core::formatMemory(spare) +
                     " to spare"
               : core::formatMemory(-spare) + " over the " + core::formatMemory(device) + " device";
}

std::string formatFigures(const core::Trace &trace)
{
    const core::Figures &f = trace.figures;
    if (!f.hasEvents)
        return "No operation took simulated time.\n";
    const std::string fit = formatDeviceFit(trace);
    const std::string device = fit.empty() ? std::string() : ", " + fit;
    if (trace.config.cost.realScale()) {
        // A real-scale cost model (docs/cost-models.md): a step is a millisecond.
        const auto seconds = [](core::SimTime t) {
            char text[32];
            std::snprintf(text, sizeof text, "%.3f s", double(t.ticks()) / 1e6);
            return std::string(text);
        };
        return "Cost model: " + trace.config.cost.name + "\nTimesteps: " + seconds(f.timesteps) +
               "\nMaximum Memory: " + core::formatMemory(f.maxMemory) + " (" +
               std::to_string(f.maxMemory) + " bytes) at GPU: " + std::to_string(f.maxMemoryRank) +
               " time: " + seconds(f.maxMemoryTime) + device + "\nEnd time: " + seconds(f.endTime) +
               "\n";
    }
    std::string text = "Timesteps: " + f.timesteps.toString() + "\n";
    text += "Maximum Memory: " + std::to_string(f.maxMemory) +
            " at GPU: " + std::to_string(f.maxMemoryRank) + " time: " + f.maxMemoryTime.toString() +
            device + "\n";
    text += "End time: " + f.endTime.toString() + "\n";
    return text;
}

std::string formatError(const core::Error &error)
{
    std::string where;
    if (error.rank >= 0)
        where = "rank " + std::to_string(error.rank);
    if (error.line > 0)
        where += (where.empty() ? "" : ", ") + std::string("line ") + std::to_string(error.line);
    std::string text = "Error";
    if (!where.empty())
        text += " (" + where + ")";
    // The message and traceback are the learner's code's words: printed as text, never as
    // escape sequences that could erase or forge a line of the terminal (core/terminaltext.h).
    text += ": " + core::terminalText(error.message) + "\n";
    if (!error.traceback.empty())
        text += core::terminalText(error.traceback) + "\n";
    return text;
}

std::string formatWarnings(const core::Trace &trace)
{
    // The same warning of the same line from several ranks is said once, with the ranks: a
    // handle never awaited warns on every rank that started it (24 lines for four ranks' six).
    struct Said {
        const core::Warning *first = nullptr;
        std::vector<int> ranks;
    };
    std::vector<Said> said;
    std::map<std::pair<int, std::string_view>, std::size_t> found;
    for (const core::Warning &w : trace.warnings) {
        if (w.rank < 0) {
            said.push_back({&w, {}});
            continue;
        }
        const auto [at, added] = found.try_emplace({w.line, w.message}, said.size());
        if (added)
            said.push_back({&w, {}});
        said[at->second].ranks.push_back(w.rank);
    }
    std::string text;
    for (const Said &s : said) {
        text += "Warning";
        if (!s.ranks.empty())
            text += " (" + core::describeSet(core::IndexSet::fromVector(s.ranks), "rank", "ranks") +
                    ", line " + std::to_string(s.first->line) + ")";
        text += ": " + core::terminalText(s.first->message) + "\n";
    }
    return text;
}

} // namespace rankstep::cli
