// SPDX-License-Identifier: MIT
#include "runreport.h"

#include "core/memoryformat.h"
#include "core/terminaltext.h"

#include <cstdio>

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

std::string formatFigures(const core::Trace &trace)
{
    const core::Figures &f = trace.figures;
    if (!f.hasEvents)
        return "No operation took simulated time.\n";
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
               " time: " + seconds(f.maxMemoryTime) + "\nEnd time: " + seconds(f.endTime) + "\n";
    }
    std::string text = "Timesteps: " + f.timesteps.toString() + "\n";
    text += "Maximum Memory: " + std::to_string(f.maxMemory) +
            " at GPU: " + std::to_string(f.maxMemoryRank) + " time: " + f.maxMemoryTime.toString() +
            "\n";
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
    std::string text;
    for (const core::Warning &w : trace.warnings) {
        text += "Warning";
        if (w.rank >= 0)
            text += " (rank " + std::to_string(w.rank) + ", line " + std::to_string(w.line) + ")";
        text += ": " + core::terminalText(w.message) + "\n";
    }
    return text;
}

} // namespace rankstep::cli
