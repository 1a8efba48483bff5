// SPDX-License-Identifier: MIT
#pragma once

#include "tracejson.h"

#include <string>

namespace rankstep::io {

// Reads the trace file at `path`: checked first by core::readRegularFile (a regular file of at
// most core::kMaxTraceFileBytes; a FIFO, device, folder or link loop is refused without reading),
// then read as a binary trace when it starts with "RSTB", else as trace JSON. Every problem is
// an Error of kind Usage naming the path or the field.
core::Result<core::Trace> traceFromFile(const std::string &path,
                                        TraceJsonOptions *options = nullptr);

} // namespace rankstep::io
