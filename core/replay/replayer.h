// SPDX-License-Identifier: MIT
#pragma once

#include "cutfront.h"
#include "state.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace rankstep::replay {

// Rebuilds the state at any cursor of one trace quickly: each rank moves from where it stood, or
// from the nearest snapshot (checkpoint) of its own maps, applying or undoing its own changes (at a
// time cut every rank stands at its own prefix). A rank's snapshot is taken once 1/2 as many of
// its changes passed as its maps hold entries (at least `minCheckpointGap` of them), so a step
// replays at most 1/4 of a state's worth of changes, less than building the state it shows, and
// the snapshots hold at most 2 entries a change (2 bytes an entry, and a link 4 bytes a change,
// when every rank has fewer than 65,536 changes; twice that else). The build reads each rank's
// changes once, rank after rank, each rank's keys in a small table of its own, on `threads`
// threads at once (ranks split by their changes). Not thread-safe: stateAt moves the replayer.
class Replayer
{
public:
    static constexpr std::size_t kMinCheckpointGap = 16;
    explicit Replayer(const StopPoints &stops, std::size_t minCheckpointGap = kMinCheckpointGap,
                      unsigned threads = 1);

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
    // The snapshots of every rank, and the start (where every rank's maps are empty) as one.
    std::size_t checkpointCount() const { return m_snapshotCount + 1; }

private:
    // Every index below counts a rank's own changes (StopPoints::rankChanges): the rank's i-th.
    struct Slot {
        std::uint32_t order = 0;  // the change that inserted the key: iteration order
        std::uint32_t change = 0; // the change that set it last
    };
    using Maps = std::array<std::vector<Slot>, core::kMapCount>;
    // The change that inserted a change's key, and the one it replaces or deletes; both are the
    // change itself for a new key (or the delete of a missing one, which does nothing).
    struct Link {
        std::uint32_t order = 0;
        std::uint32_t previous = 0;
    };
    // A rank's maps after its first `at` changes: at `offset` in its part's values, each map's
    // size and then its entries, each by the change that set it last (order from its link).
    struct Snapshot { // no initializers: a list of them is made unwritten
        std::uint32_t at;
        std::size_t offset;
    };
    // Lists made at the largest size they may need, never read beyond what was written: only the
    // pages written are ever made, in huge pages where the kernel has them (core::mapUnwritten),
    // and none is zeroed first as a std::vector's would be.
    struct Unmap {
        std::size_t
            bytes; // no initializer: a Part, holding Rooms, is made before Replayer is whole
        void operator()(void *list) const noexcept;
    };
    template <typename T>
    using Room = std::unique_ptr<T[], Unmap>;
    static void *mapRoom(std::size_t bytes);
    template <typename T>
    static Room<T> makeRoom(std::size_t count)
    {
        const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
        return Room<T>(static_cast<T *>(mapRoom(bytes)), Unmap{bytes});
    }
    // The ranks one thread builds, and the snapshots and their values it wrote.
    struct Part {
        int firstRank = 0, endRank = 0;
        Room<Snapshot> snapshots;
        Room<std::uint16_t> values; // a value is one unit, or two when wide
        std::size_t snapshotCount = 0, valueCount = 0;
    };
    class RankBuilder;

    void buildParts(std::size_t minGap, unsigned threads);
    // The entry of a map whose key the change `order` inserted.
    static std::vector<Slot>::iterator slotOf(std::vector<Slot> &map, std::uint32_t order)
    {
        return std::lower_bound(map.begin(), map.end(), order,
                                [](const Slot &s, std::uint32_t o) { return s.order < o; });
    }
    Link link(int rank, std::size_t own) const;
    void setLink(std::size_t at, Link link); // at: m_linkStart[rank] + own
    std::uint32_t value(const Part &part, std::size_t at) const;
    // Moves one rank's maps to where its first `own` changes are applied.
    void moveRank(int rank, std::size_t own);
    void restore(int rank, const Snapshot &snapshot);
    void apply(int rank, std::size_t own);
    void undo(int rank, std::size_t own);
    void fillRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut);
    // The clock and line of a rank whose maps, event and running are filled for `cut`.
    void placeRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut) const;
    // One rank of followState.
    void followRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut,
                    bool fresh, int drawing);

    const StopPoints *m_stops;
    const core::Trace *m_trace;
    bool m_wide = false; // links and values in 32 bits (two units), else in 16
    // Per change, rank after rank: links of rank r from m_linkStart[r] (x2 units when wide).
    Room<std::uint32_t> m_links;
    std::vector<std::size_t> m_linkStart;
    std::vector<Part> m_parts;
    struct RankSnapshots {
        std::uint32_t part = 0;
        std::size_t first = 0, end = 0; // in its part's snapshots, ascending by `at`
    };
    std::vector<RankSnapshots> m_rankSnapshots;
    std::size_t m_snapshotCount = 0;
    std::vector<Maps> m_work; // every rank's maps, rank r's after m_at[r] of its changes
    std::vector<std::uint32_t> m_at;
    std::vector<RankCut> m_followed; // per rank, the cut followState filled it at last
    int m_followedDrawing = -1;      // the rank of the draw() followState stood at last
};

} // namespace rankstep::replay
