// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace rankstep::io {

// The costliest unit a trace's cost model may name (the engine's own are at most 1 step).
inline constexpr core::SimTime kMaxUnitCost = core::SimTime::steps(1000);
// The same for a real-scale cost model, whose ticks are microseconds: an hour.
inline constexpr core::SimTime kMaxRealUnitCost = core::SimTime::fromTicks(3'600'000'000LL);
// The most memory any figure or event may name, in bytes (2^53: exact in the views' doubles).
inline constexpr std::int64_t kMaxTraceMemory = std::int64_t(1) << 53;

// Checks a decoded trace against what a run of its configuration can produce, so that a damaged
// or hostile file cannot make a view size itself by 2^31 steps:
//  - each cost of the cost model at most kMaxUnitCost;
//  - each event's duration at most the costliest operation the configuration allows (the
//    largest unit cost times the batch count);
//  - every time (event ends, figures, per-rank totals) at most the sum of all durations, the
//    longest a run of these events can last (some rank is busy until the run ends);
//  - every memory figure at most kMaxTraceMemory.
// Returns the first field outside, named ("event 12 (rank 1): duration: ..."), or nothing.
std::optional<std::string> checkTraceLimits(const core::Trace &trace);

// What the check reads of each of Trace::events and of each storage change, gathered while a
// reader makes them, on the thread that decodes them: at 16,384 ranks a pass over the 18
// million events and 20.6 million changes again took most of a second after the decode.
struct RecordTally {
    void addEvent(const core::Event &event)
    {
        // A negative duration is refused by the check on its own (shortest), so the sum leaves it
        // out: added, it could take the sum below zero, and the room left above it past the
        // largest time.
        const std::int64_t room = std::numeric_limits<std::int64_t>::max() - total.ticks();
        const std::int64_t added = std::max<std::int64_t>(0, event.duration.ticks());
        total = core::SimTime::fromTicks(total.ticks() + std::min(room, added));
        earliestStart = std::min(earliestStart, event.start);
        latestStart = std::max(latestStart, event.start);
        shortest = std::min(shortest, event.duration);
        longest = std::max(longest, event.duration);
        mostMemory = std::max(mostMemory, event.memory);
    }
    void addChange(const core::StorageChange &change)
    {
        mostMemoryAfter = std::max(mostMemoryAfter, change.memoryAfter);
    }
    core::SimTime total; // the sum of the durations not negative, kept at the largest time when it
                         // would overflow
    core::SimTime earliestStart, latestStart, shortest, longest; // of no event: 0
    std::int64_t mostMemory = 0;
    std::int64_t mostMemoryAfter = 0;
};
// The same check, with `tally` made from every one of the trace's events and changes in order:
// the same answer, reading the events and changes again only to name the first one outside.
std::optional<std::string> checkTraceLimits(const core::Trace &trace, const RecordTally &tally);

} // namespace rankstep::io
