// SPDX-License-Identifier: MIT
// The memory chart of a run too wide for a line per rank: a group's ranks (a pipeline stage's) as
// one band, their least, median and most memory over time, and the rank that reached the group's
// peak named.
#pragma once

#include "memoryseries.h"

#include <cstdint>
#include <vector>

namespace rankstep::gui {

struct MemoryBand {
    std::vector<core::SimTime> times;              // ascending, from 0 to the run's end
    std::vector<std::int64_t> least, median, most; // bytes, one per time
    int peakRank = -1;      // the group's rank that held the most memory first; -1: no rank
    core::SimTime peakTime; // when
    std::int64_t peak = 0;  // bytes
};

// The band of `ranks` over `series` (memorySeries: index = rank), sampled at `samples` equal
// steps of [0, end] (at least 2) and at every point where a rank of the group reached the peak, so
// the band's top touches it. Ranks outside the series are ignored; no rank gives an empty band.
MemoryBand memoryBand(const RankSeries &series, const std::vector<int> &ranks, core::SimTime end,
                      int samples);

} // namespace rankstep::gui
