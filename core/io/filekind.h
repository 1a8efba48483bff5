// SPDX-License-Identifier: MIT
#pragma once

#include <string_view>

namespace rankstep::io {

// What a file Rankstep may open holds, told from its first bytes, never from its name.
enum class FileKind {
    BinaryTrace,   // starts with "RSTB": `run --trace-out`
    TraceJson,     // "format": "rankstep-trace" (`run --json`)
    RealReport,    // the same format with "clock": "seconds" (`real --json`)
    ChromeTrace,   // a "traceEvents" list, or a bare list of events (`real --profile`,
                   // `run --chrome-trace`)
    Demonstration, // "format": "rankstep-demonstration"
    OtherJson,     // JSON of another kind (a notebook is one: the caller knows it by its name)
    Other,         // not JSON at all
};

// Looks only at the first 64 KiB: the writers above put "format" (or "traceEvents") first, and
// the reader of the kind found checks the whole file.
FileKind sniffFileKind(std::string_view head);

} // namespace rankstep::io
