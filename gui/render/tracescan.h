// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"

#include <cstdint>
#include <vector>

namespace rankstep::gui {

// What one pass over a run's events tells several views before they make their parts: how many
// events each rank has (indexByRank), when the last one ends (rankHeat) and which kinds the legend
// names (hasSplitBackward, hasAllToAll). At 16,384 ranks a pass over the 18 million events takes
// about a sixth of a second; each view made its own.
struct TraceScan {
    std::vector<std::uint32_t> eventsOfRank; // config.ranks of them, or more if events say so
    core::SimTime end;                       // the latest end of an event; 0 without events
    bool splitBackward = false;              // hasSplitBackward
    bool allToAll = false;                   // hasAllToAll
};

TraceScan scanTrace(const core::Trace &trace);

} // namespace rankstep::gui
