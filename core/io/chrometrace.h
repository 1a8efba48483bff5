// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <string>

namespace rankstep::io {

// The trace in Chrome's Trace Event Format, for chrome://tracing, Perfetto (ui.perfetto.dev) and
// speedscope. Process "Rankstep" with one thread per rank ("rank N", tid N + 1); every event a
// complete event ("forward L0"); pass_to -> receive as flow arrows; the rank's memory as counter
// "memory rank N" (bytes). Timestamps are integers in microseconds with one simulated step =
// 1000 us, so a ts is exactly the time in SimTime ticks. See docs/trace-format.md.
std::string traceToChromeJson(const core::Trace &trace);

} // namespace rankstep::io
