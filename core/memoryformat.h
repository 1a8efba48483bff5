// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace rankstep::core {

// The one way Rankstep writes an amount of simulated memory, in bytes: decimal units with at
// most two decimals, "2.62 MB", "256 kB", "900 B", "0 B". Used by the CLI, the results
// panel, the memory chart and the state headers.
std::string formatMemory(std::int64_t bytes);

// Where a figure is compared with a target: the exact bytes first, "2621440 B (2.62 MB)";
// below 1 kB only "900 B".
std::string formatMemoryExact(std::int64_t bytes);

} // namespace rankstep::core
