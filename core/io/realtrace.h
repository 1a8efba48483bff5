// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/trace.h"

#include <string_view>

namespace rankstep::io {

// A real run's clock on the simulator's: one tick is a microsecond, so what the views print as a
// "step" (1000 ticks, core/simtime.h) is a millisecond.
inline constexpr double kRealTicksPerSecond = 1e6;

// The report of `rankstep-cli real --json` (docs/command-line.md, "Running it for real") as a trace
// the views show like a simulated one: every rank's events and storage changes at their wall-clock
// times (seconds from the common start, in ticks above), memory in the bytes the real tensors held.
//
// Real ranks run side by side, so there is no scheduler order: the ranks' items are merged by
// time (each rank's own order kept), a change counts the events merged before it, and a slice is
// a run of one rank's items in that order (ending at a collective or a receive where one ends
// it). A collective's link joins the n-th call of one operation on one layer and group on every
// member; a message's joins the n-th pass_to from a rank to a peer with the peer's n-th receive
// from it. The figures are computed from the events; the check is the real one (the weights
// match one process). A damaged or foreign file is an Error of kind Usage naming the member.
core::Result<core::Trace> realTraceFromJson(std::string_view text);

} // namespace rankstep::io
