// SPDX-License-Identifier: MIT
// Every rank's place at the cursor, kept as the cursor moves, so that a step of a run of 16,384
// ranks costs what it changed rather than a search per rank.
#pragma once

#include "cursor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace rankstep::replay {

// Follows one cursor through a run. At a cut (every rank at one time: the time, operation and
// snapshot steps) it keeps per rank how many of its events have started, and over all ranks
// how many run and how many are done; a move updates them for the events it starts or takes
// back (a Fenwick tree over the run's boundaries counts the ranks whose last started event
// ended by the time), from the last cut it stood at or from the cut with nothing started,
// whichever is nearer, and a jump past more events than there are ranks from both recounts
// instead. At a prefix (home, a scheduler turn) each answer is cheap anyway and is read from the
// cursor; the counts of the last cut stay for the next.
// The cut's prefix (the largest stop a rank's cut needs) is kept the same way: per rank the stop
// its cut holds, in a tree of maxima that a step updates for the ranks whose cut it changed
// (the ones it starts or takes back an event of, and the ones whose running event it sees end
// or, back, not end yet: a set ordered by the end of each rank's last started event).
// The ranks a move changed are named (movedRanks) between two cuts, between two prefixes (the
// ranks of the items between them, and the ranks running at either), and from home to a cut (the
// ones it starts an event of, and those whose changes before their first event it shows);
// between a cut and another prefix every rank moved.
// Every answer equals the full recount over the ranks (Cursor::rankCut, Cursor::stop); tests
// hold it to that. Keeps a reference to the stop points: they must outlive it.
class CutFront
{
public:
    explicit CutFront(const StopPoints &stops);

    void moveTo(const Cursor &cursor);
    // The cursor moved to, with its prefix (Cursor::stop) known.
    const std::optional<Cursor> &cursor() const { return m_cursor; }
    // The ranks whose cut the last move changed in what it holds (the rank's own events and
    // changes applied, and whether its last event runs), each once, in no order; every rank
    // after a recount or a move between a cut and a prefix other than home (allMoved()).
    const std::vector<int> &movedRanks() const { return m_moved; }
    bool allMoved() const { return m_allMoved; }

    // Cursor::rankCut(rank), in constant time at a cut. Needs a cursor (moveTo).
    RankCut rankCut(int rank) const;
    // The rank's event that has started and not finished at the cursor; nullopt when none.
    std::optional<std::size_t> runningEvent(int rank) const;
    // How many events run at the cursor (at most one a rank) and how many have finished.
    std::size_t running() const { return m_running; }
    std::size_t done() const { return m_done; }
    // Ranks recounted whole, for tests: a step must not recount.
    std::size_t recounts() const { return m_recounts; }

private:
    void moveToPrefix(const Cursor &cursor);
    void recount(const Cursor &cursor);
    // The counts of the cut with nothing started (kept from construction).
    void countNothing();
    // The rank whose event is the last item applied at a prefix; -1 when none.
    int runningAtPrefix(const Cursor &cursor) const;
    // Rank `rank`'s started events go from m_started[rank] to `started`.
    void setStarted(int rank, std::size_t started);
    void countAt(); // the running and done counts at the cut
    // The ranks whose running event ends in [from, to) of the boundaries (or back) change cut.
    void markEnding(std::size_t from, std::size_t to);
    void markMoved(int rank);
    // The prefix of the cut: per rank the stop its cut holds (the mark's clip aside), their
    // largest in a tree of maxima.
    std::size_t holding(int rank) const;
    void setHolding(int rank, std::size_t stop);
    std::size_t largestHolding(int except) const; // over every rank but `except` (-1: none)
    std::size_t cutStop() const;
    // The rank's cut at the cursor's cut, before a draw()'s clip (rankCut).
    RankCut cutAt(int rank) const;
    // The Fenwick tree: how many ranks' last started event ends at each boundary.
    void addEnd(std::size_t boundary, int delta);
    std::size_t endsUpTo(std::size_t boundaries) const; // in the first `boundaries` boundaries
    std::size_t boundaryOf(core::SimTime end) const;

    const StopPoints *m_stops;
    std::optional<Cursor> m_cursor;
    // m_started, the trees and the counts hold a cut: m_cursor's when it is one (m_atCut), else
    // the last cut stood at, or the one with nothing started.
    bool m_atCut = false;
    std::size_t m_operations = 0;       // started at the counts' cut (Cursor::operations)
    std::vector<std::size_t> m_started; // per rank, its started events (a prefix of them)
    std::vector<std::uint32_t> m_tree;  // Fenwick, over m_stops->boundaries()
    std::size_t m_upTo = 0;             // boundaries at or before the cut's time
    // (the boundary of its last started event's end, rank) for every rank with one started
    std::set<std::pair<std::size_t, int>> m_ends;
    std::vector<std::size_t> m_endOf;   // per rank, that boundary (when started)
    std::vector<std::size_t> m_holding; // the tree of maxima: ranks' stops at [ranks, 2 ranks)
    std::vector<std::size_t> m_nothingHolding; // that tree with nothing started
    // The ranks that hold something with nothing started: changes before their first event.
    std::vector<int> m_loaded;
    std::vector<int> m_moved;
    std::vector<char> m_isMoved; // per rank, in m_moved
    bool m_allMoved = true;
    bool m_recounting = false;      // every rank moves: none is listed
    std::size_t m_ranksStarted = 0; // ranks with an event started
    std::size_t m_running = 0;
    std::size_t m_done = 0;
    std::size_t m_recounts = 0;
};

} // namespace rankstep::replay
