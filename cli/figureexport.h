// SPDX-License-Identifier: MIT
#pragma once

#include "arguments.h"
#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

// Draws the figures the arguments ask for. Without such options it does nothing. The drawing
// happens in the program rankstep-figures (cli/figuresmain.cpp), started for it with the trace on
// its stdin, so that this process links no GUI library. A bad --at is a UsageError, a file that
// could not be written an OutputError (no part of it is left), each with rankstep-figures'
// message; a missing or failing rankstep-figures a std::runtime_error.
void writeFigureFiles(const Arguments &args, const core::Trace &trace,
                      const FigureCaption &caption);
// The same from the trace already in io::traceToBinary's form, the options as option name and
// value ("png" -> path, "at" -> "12").
void writeFigureFiles(const std::vector<std::pair<std::string, std::string>> &options,
                      const std::string &binaryTrace, const FigureCaption &caption);

// Where rankstep-figures is: beside this executable (the build tree) or in
// ../libexec/rankstep/ from it (an installed tree); empty when neither exists.
std::string figuresProgram();

} // namespace rankstep::cli
