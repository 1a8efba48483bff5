// SPDX-License-Identifier: MIT
// Invariants every finished trace keeps, whatever the program did; both fuzz targets check them.
#pragma once

#include "core/trace.h"

#include <string>
#include <vector>

namespace rankstep::fuzz {

// Prints what broke and aborts: libFuzzer saves the input as a crash.
[[noreturn]] void broken(const std::string &what);

// Replays the storage changes into fresh storages: every change's memoryAfter must equal the
// replayed memory. Returns the replayed storages (one per rank).
std::vector<core::Storage> replayChanges(const core::Trace &trace);

// Slices cover the events in order, each rank's clock never goes back, and the status agrees
// with the error.
void checkTrace(const core::Trace &trace);

} // namespace rankstep::fuzz
