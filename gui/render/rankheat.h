// SPDX-License-Identifier: MIT
// The rank overview's figures: how much of each stretch of the run every rank spent computing,
// communicating or idle, and the rows the overview folds its ranks into (a pipeline stage, one
// data-parallel replica of it, a rank), so that 16,384 ranks read at a glance.
#pragma once

#include "core/layout.h"
#include "core/simtime.h"
#include "core/trace.h"

#include <cstdint>
#include <set>
#include <vector>

namespace rankstep::gui {

// Each rank's share of each of `bins` equal stretches of [0, end) it spent computing (forward,
// backward, loss, update) and communicating (collectives, pass and receive); the rest is idle.
// Shares are in [0, 1]; a run without events has end 0 and every share 0.
struct RankHeat {
    int ranks = 0;
    int bins = 0;
    core::SimTime end;
    // bins x ranks, a bin's ranks together: the events the trace holds together run at about one
    // time on many ranks, and their cells then lie together too (a rank's bins together took a
    // miss of the cache for nearly every event at 16,384 ranks).
    std::vector<float> busy;
    std::vector<float> comm;

    float busyAt(int rank, int bin) const { return busy[std::size_t(bin) * ranks + rank]; }
    float commAt(int rank, int bin) const { return comm[std::size_t(bin) * ranks + rank]; }
    // The bin that holds `time` (the last one for the end itself); 0 for an empty run.
    int binOf(core::SimTime time) const;
    core::SimTime binStart(int bin) const; // rounded down to a tick
};

// Two passes over the events: linear in events plus ranks x bins (bins at least 1).
RankHeat rankHeat(const core::Trace &trace, int bins);
// The same with the latest end of an event known (scanTrace): one pass.
RankHeat rankHeat(const core::Trace &trace, int bins, core::SimTime end);

// The shares of a group of ranks: the mean of its ranks' shares, bin by bin.
struct RowHeat {
    std::vector<float> busy;
    std::vector<float> comm;
};
RowHeat rowHeat(const RankHeat &heat, const std::vector<int> &ranks);

// What a row of the overview holds.
enum class RowKind {
    Stage,   // every rank of one pipeline stage
    Replica, // one data-parallel replica's ranks (its tensor and context group) in one stage
    Block,   // a block of neighbouring ranks of a run laid out for data parallelism alone
    Rank,
};

// A row and where it sits in the fold: `key` names a folded row across foldings (its kind and its
// first rank), `depth` indents it.
struct OverviewRow {
    RowKind kind = RowKind::Rank;
    int depth = 0;
    std::vector<int> ranks; // ascending; one for a Rank row
    bool open = false;      // a group whose rows are shown below it
    std::int64_t key() const { return std::int64_t(kind) << 32 | std::int64_t(ranks.front()); }
};

// The runs of at most this many ranks show a row per rank and fold nothing.
inline constexpr int kOverviewUnfoldedRanks = 32;
// A run laid out for data parallelism alone folds its ranks into blocks of this many.
inline constexpr int kOverviewBlockRanks = 64;

// The rows of a run's layout with the groups whose keys are in `open` opened: pipeline stages,
// then (within an open stage) its data-parallel replicas when a replica holds several ranks, then
// ranks. A layout without pipeline stages starts at replicas; a plain one at blocks of
// kOverviewBlockRanks; a run of at most kOverviewUnfoldedRanks ranks at its ranks.
std::vector<OverviewRow> overviewRows(const core::RankLayout &layout,
                                      const std::set<std::int64_t> &open);

// The ranks the timeline and the state view show for `rank` chosen in the overview: the rank,
// its tensor (and context) group and its pipeline group, ascending, at most `most` (the rank's
// nearest first).
std::vector<int> ranksAround(const core::RankLayout &layout, int rank, int most);

} // namespace rankstep::gui
