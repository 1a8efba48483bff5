// SPDX-License-Identifier: MIT
// A large trace made without running anything, for the binary trace's size test and benchmark.
#pragma once

#include "core/trace.h"

#include <cstddef>

namespace rankstep::testing {

// Exactly `events` events (at least one) and `changes` storage changes over 64 ranks and 32
// layers, shaped like an FSDP run: each rank gathers, computes and scatters layer by layer in
// slices of eight events, passes messages to its neighbour, and stores an activation or deletes a
// gradient as it goes. Slices, a few warnings and marks, final weights, figures and the check are
// filled in too.
core::Trace syntheticTrace(std::size_t events, std::size_t changes);

} // namespace rankstep::testing
