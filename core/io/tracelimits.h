// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"

#include <cstdint>
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

} // namespace rankstep::io
