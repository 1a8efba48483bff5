// SPDX-License-Identifier: MIT
#pragma once

#include "arguments.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>

namespace rankstep::cli {

// Options of `run` and `lesson` that draw figures: --svg and --png (the timeline above the memory
// plot), --state-png (every rank's state) and --at EVENT|end (where: after the EVENT-th event,
// counted from 1 as the app's step bar does; 0 is before the first; default the end). They are
// among kRunOptions (runsupport.h).

// `explain --png OUT / --svg OUT` draw the explanation slide instead; they reach the drawing as
// "explain-png" and "explain-svg".

// What a figure says besides the trace.
struct FigureCaption {
    std::string title; // "ddp (lessons/30-ddp/solution.py)"
    std::optional<std::int64_t> memoryTarget;
};

// Draws the figures the arguments ask for, in a QGuiApplication made for the purpose (offscreen
// unless QT_QPA_PLATFORM says otherwise, so no display is needed). Without such options it does
// nothing and needs no Qt at all. A bad --at or a failed write is a UsageError.
void writeFigureFiles(const Arguments &args, const core::Trace &trace,
                      const FigureCaption &caption);

} // namespace rankstep::cli
