// SPDX-License-Identifier: MIT
// What happened in a run that left ranks waiting, from its trace alone: where each rank stands
// (stopped by an error, waiting, finished, never started) and what stopped the run (an error, a
// call one rank never made, a cycle of waits, a collective mismatch). The wait-for picture of the
// Why tab draws it; docs/explain.md.
#pragma once

#include "core/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rankstep::explain {

enum class Standing : std::uint8_t {
    Stopped,    // an error in its own code ended the run here
    Waiting,    // in a collective or a receive that never completed
    Finished,   // its code returned
    NotStarted, // it never ran: the run ended before its first turn
    Underway,   // it ran and could have gone on, but the run ended first (or, in a collective
                // mismatch, it had not reached the collective yet)
};

struct RankStanding {
    int rank = 0;
    Standing standing = Standing::Waiting;
    int line = 0; // Stopped: the error's line; Waiting: the call's; else the last line it ran (0)
    // Waiting: what it waits in ("allreduce(layer 0)", "receive from any rank"); Finished: the
    // call another rank waits in on it and it never made ("" when none).
    std::string call;
    // Waiting: the ranks it really waits on, in rank order: those stopped, finished or waiting
    // themselves. A rank that never started or was underway when an error ended the run is not
    // among them: the error, not that rank, kept the call from completing.
    std::vector<int> waitsOn;
    bool anySource = false; // Waiting in a receive from any rank: any of waitsOn would do
};

enum class HangKind : std::uint8_t {
    Error,      // an error in `rank`'s code at `line` ended the run while others waited
    MissedCall, // `rank` finished without making `call`, in which others wait
    Deadlock,   // the ranks of `cycle` wait on each other
    Mismatch,   // ranks reached one collective with different calls; `rank` made `call`
    Stuck,      // no rank can go on, and none of the above says why
};

struct Hang {
    HangKind kind = HangKind::Stuck;
    int rank = -1;          // Error, MissedCall, Mismatch: the rank it is about; else -1
    int line = 0;           // Error, Mismatch: the line; else 0
    std::string call;       // Error: the call that others wait in on `rank` ("" when none);
                            // MissedCall: the call never made; Mismatch: `rank`'s call
    std::string error;      // Error: the first line of the error's message
    std::vector<int> cycle; // Deadlock: the ranks of one cycle, each waiting on the next
    std::vector<RankStanding> ranks;                 // in the diagnosis's order
    const RankStanding *standingOf(int which) const; // null when the rank is not in the picture
};

// What happened, for a trace with a diagnosis; nullopt for one without.
std::optional<Hang> explainHang(const core::Trace &trace);

} // namespace rankstep::explain
