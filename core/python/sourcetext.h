// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"

#include <optional>
#include <string>

namespace rankstep::python {

// A Syntax error naming the line, when source is not text Python can read: a NUL byte (a binary
// file) or bytes that are not UTF-8. nullopt for text, however wrong as Python.
std::optional<core::Error> checkSourceText(const std::string &source);

// What the learner reads for a MemoryError: that the code ran out of memory, and the cap this
// process runs under (RLIMIT_AS), if any.
std::string outOfMemoryMessage();

} // namespace rankstep::python
