// SPDX-License-Identifier: MIT
#pragma once

#include "core/error.h"
#include "core/trace.h"

#include <string_view>

namespace rankstep::io {

// A Chrome Trace Event Format file read as a run: what `rankstep-cli real --profile` writes
// (torch.profiler's trace of every rank, a process per rank named "rank N") or `run
// --chrome-trace` (process "Rankstep", a thread per rank named "rank N").
struct ChromeRun {
    core::Trace trace;
    // True for Rankstep's own export, whose microseconds are thousandths of a simulated step;
    // false for a profile of real processes, whose ticks are microseconds of wall-clock time.
    bool simulated = false;
};

// The most ranks and events such a file may hold; more is refused before anything is built.
inline constexpr int kMaxChromeRanks = 16384;
inline constexpr std::size_t kMaxChromeEvents = std::size_t(1) << 22;

// Reads the file's complete events ("ph": "X", "ts" and "dur" in microseconds) as the ranks'
// events at their times from the earliest. A rank is the process (or, in Rankstep's export, the
// thread) named "rank N"; without such names, the pid. Only each rank's outermost operations are
// kept (torch.profiler nests aten::mm in aten::linear), in time order. When the file names the
// puzzle's operations ("forward L0", "allreduce L1", "loss": Rankstep's export, or a profile whose
// real run named its calls, core/real/rankstep_real/lib.py), only those are kept, exactly; a
// "pass_to L1 to 2" names its receiver and a "from 1" inside a receive its sender, and the n-th
// message from a rank to a peer joins the peer's n-th receive from it.
// Otherwise an event is classified by its name: torch's collectives
// ("gloo:all_reduce", "nccl:all_gather", "c10d::reduce_scatter_") as allreduce, allgather and
// scatterreduce, send and recv as pass_to and receive (no peer is known), autograd's "...Backward"
// as backward, the optimizer's step as update, a loss function as loss, and every other operator
// as forward. Memory is not read (0). A damaged file, one of another kind, or one past the limits
// above is an Error of kind Usage naming the event.
core::Result<ChromeRun> runFromChromeJson(std::string_view text);

} // namespace rankstep::io
