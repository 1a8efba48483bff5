// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/trace.h"

#include <optional>
#include <string>

namespace rankstep::python {

// A Syntax error naming the line, when source is not text Python can read: a NUL byte (a binary
// file) or bytes that are not UTF-8. nullopt for text, however wrong as Python.
std::optional<core::Error> checkSourceText(const std::string &source);

// What the learner reads for a MemoryError: that the code ran out of memory, and the cap this
// process runs under (RLIMIT_AS), if any.
std::string outOfMemoryMessage();
// The same when the simulation's own storage outgrew the cap: the run's size (ranks x layers x
// batches) is to blame, not the learner's line that asked for one more object.
std::string runTooLargeMessage(const core::RunConfig &config);

} // namespace rankstep::python
