// SPDX-License-Identifier: MIT
#pragma once

#include "cutfront.h"
#include "state.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankstep::replay {

// Rebuilds the state at any cursor of one trace quickly: it keeps snapshots (checkpoints) of
// every rank's maps and moves each rank from the nearest one, or from where it stood, applying or
// undoing that rank's changes (at a time cut every rank stands at its own prefix). A checkpoint is
// taken once 1/4 as many changes passed as the state has entries (at least `minCheckpointGap`):
// checkpoints cost at most 16 bytes per change (at 1/16, and 8 bytes an entry, they took 175 MB
// at FSDP 1024 ranks, the largest part of the app's memory for that run), and a step replays at
// most 1/8 of a state's worth of changes, less than building the state it shows. Not thread-safe:
// stateAt moves the replayer.
class Replayer
{
public:
    explicit Replayer(const StopPoints &stops, std::size_t minCheckpointGap = 1024);

    const StopPoints &stops() const { return *m_stops; }
    RunState stateAt(const Cursor &cursor);
    // The same into `state`, reusing its buffers: the cheapest way to follow a moving cursor.
    void stateAt(const Cursor &cursor, RunState &state);
    // The same with each rank's cut read from `front`, which follows `cursor` (no search per
    // rank), for a `state` that only this call fills: a rank whose cut is the one of the last
    // call keeps its maps, and only its clock and line are set again. With `moved`, the ranks
    // whose cut may have changed since the last call (CutFront::movedRanks, gathered over the
    // moves between, none of which moved every rank), only those are looked at: at 16,384 ranks
    // a step then costs the ranks it moved.
    void followState(const Cursor &cursor, RunState &state, const CutFront &front,
                     const std::vector<int> *moved = nullptr);
    RankState rankStateAt(const Cursor &cursor, int rank);
    // Bytes held by `rank` at the cursor, without rebuilding any map.
    std::int64_t memoryAt(const Cursor &cursor, int rank) const;
    std::size_t checkpointCount() const { return m_checkpoints.size(); }

private:
    struct Slot {
        std::uint32_t order = 0;  // the change that inserted the key: iteration order
        std::uint32_t change = 0; // the change that set it last
    };
    using Maps = std::array<std::vector<Slot>, core::kMapCount>;
    struct Link {
        std::uint32_t order = 0;
        std::uint32_t previous = kNone; // the change this one replaces or deletes
    };
    // Every rank's maps in one list (rank 0's maps in order, then rank 1's...), each entry by the
    // change that set it last, and where each map ends in it. At 16,384 ranks a list per rank and
    // map took 24 bytes and an allocation each, 2.6 MB a checkpoint before any entry; and an
    // entry's order is its change's (m_links), so it is not kept twice: 4 bytes an entry.
    struct Checkpoint {
        std::size_t changes = 0;
        std::vector<std::uint32_t> entries;
        std::vector<std::uint32_t> ends; // per rank and map, rank * kMapCount + map
    };
    static Checkpoint snapshot(std::size_t changes, const std::vector<Maps> &work);
    static constexpr std::uint32_t kNone = 0xffffffffU;

    void buildLinks();
    void buildCheckpoints(std::size_t minGap);
    // Moves one rank's maps to where its changes below `changes` are applied.
    void moveRank(int rank, std::size_t changes);
    void apply(std::size_t change);
    void undo(std::size_t change);
    void fillRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut);
    // The clock and line of a rank whose maps, event and running are filled for `cut`.
    void placeRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut) const;
    // One rank of followState.
    void followRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut,
                    bool fresh, int drawing);

    const StopPoints *m_stops;
    const core::Trace *m_trace;
    std::vector<Link> m_links;             // per change
    std::vector<Checkpoint> m_checkpoints; // ascending; the first at 0 changes
    std::vector<Maps> m_work;              // every rank's maps, rank r's after m_at[r] changes
    std::vector<std::size_t> m_at;
    std::vector<RankCut> m_followed; // per rank, the cut followState filled it at last
    int m_followedDrawing = -1;      // the rank of the draw() followState stood at last
};

} // namespace rankstep::replay
