// SPDX-License-Identifier: MIT
// Traces for the io tests: the reference solutions and small runs that end badly.
#pragma once

#include "core/io/tracejson.h"
#include "core/trace.h"

#include <string>

namespace rankstep::testing {

// The trace of the reference solution called `name` ("ddp", "wsdp", ...) with its published
// settings.
core::Trace referenceTrace(const std::string &name);

// Two ranks that both wait for a message: a deadlock with a diagnosis.
core::Trace deadlockTrace();
// Rank 0 calls allreduce where rank 1 calls allgather: a mismatch.
core::Trace mismatchTrace();
// One rank that counts a gradient twice (a warning) and then forwards with the wrong layer.
core::Trace checkErrorTrace();

// What a decode gave, comparable: the trace as JSON with its file and function, or "error: " and
// its message.
std::string decodeOutcome(const core::Result<core::Trace> &trace,
                          const io::TraceJsonOptions &options);

} // namespace rankstep::testing
