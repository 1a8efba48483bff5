// SPDX-License-Identifier: MIT
#pragma once

#include "error.h"

#include <cstddef>
#include <string>

namespace rankstep::core {

// Size limits of the files Rankstep reads, in bytes.
inline constexpr std::size_t kMaxCodeFileBytes = std::size_t(32) << 20;  // a .py or .ipynb
inline constexpr std::size_t kMaxLessonFileBytes = std::size_t(1) << 20; // a lesson folder's file
inline constexpr std::size_t kMaxTraceFileBytes = std::size_t(1) << 30;  // a run's trace

// The whole of the file at `path`, read only after checking that it is a regular file (not a
// folder, FIFO, device or socket; symbolic links followed, a link loop refused) of at most
// `maxBytes`. Never blocks on a FIFO. Errors are ErrorKind::Usage with a message naming `path`.
Result<std::string> readRegularFile(const std::string &path, std::size_t maxBytes);

// The same check without reading: okStatus() when readRegularFile(path, maxBytes) would read it.
Status checkRegularFile(const std::string &path, std::size_t maxBytes);

} // namespace rankstep::core
