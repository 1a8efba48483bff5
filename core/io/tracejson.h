// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/trace.h"

#include <string>
#include <string_view>

namespace rankstep::io {

// What the trace alone does not know: where the learner's code came from. Written as
// config.file and config.function.
struct TraceJsonOptions {
    std::string file;     // "ddp.py", "" when the code was not read from a file
    std::string function; // the rank function that ran, "" when unknown
};

inline constexpr const char *kTraceFormatName = "rankstep-trace";
inline constexpr int kTraceFormatVersion = 1;

// The whole trace as Rankstep's JSON (docs/trace-format.md): times in simulated steps written as
// exact decimals ("19.9"), memory in bytes. The text ends with a newline.
std::string traceToJson(const core::Trace &trace, const TraceJsonOptions &options = {});

// Reads what traceToJson wrote. Writing the result again gives the same text. Anything else
// (truncated, not JSON, another format or version, a value out of range) is an Error of kind Usage
// whose message names the JSON line and column and the key, e.g. "ranks[0].events[3].start".
// Object.layers and Object.totalBatches, which the format does not carry, are taken from the
// config as the engine sets them.
core::Result<core::Trace> traceFromJson(std::string_view json);
// The same, also handing back the options that were written.
core::Result<core::Trace> traceFromJson(std::string_view json, TraceJsonOptions &options);

} // namespace rankstep::io
