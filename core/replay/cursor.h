// SPDX-License-Identifier: MIT
#pragma once

#include "position.h"

#include <cstddef>
#include <optional>

namespace rankstep::replay {

// Where a learner stands in a finished run. A value: every step returns a new cursor. Each step
// mode moves to the next (previous) stop of its own subset, and home and end belong to every
// subset, so previousX(nextX(c)) == c whenever c is one of mode X's stops.
// Every mode but the slice stands at one simulated time that every rank shares (a cut), so that
// every view shows the same moment (docs/simulation.md, "Stepping"):
//   operation: one more event started, in the order of simulated start, ties by rank
//              (OrderKey): every rank at that event's start, the events ordered before it
//              started (the latest running), nothing after it.
//   time:      to the next event boundary t (any event's start or end): every rank at
//              simulated time t with every event that starts by then started.
//   snapshot:  to the next draw() mark, one stop per mark even when several share a position
//              (nothing happened between the draws); mark() names the one stood at. Every rank
//              at the drawing rank's clock when it called draw() (StopPoints::markCuts).
//   slice:     to the end of the coroutine slice running now (or the next one): the order the
//              scheduler ran the ranks in, each rank at its own clock. The one mode that is a
//              prefix of the trace rather than a moment; the step bar calls it "by scheduler
//              turn".
// cut() names a cut's time; stop() is the shortest prefix of the trace holding all of it.
class Cursor
{
public:
    explicit Cursor(const StopPoints &stops, std::size_t stop = 0);
    // At draw() mark `mark`, which must be < stops.markStops().size().
    static Cursor atMark(const StopPoints &stops, std::size_t mark);
    // Every rank at simulated time `time` (the end from the last boundary on).
    static Cursor atCut(const StopPoints &stops, core::SimTime time);
    // With `count` operations started in the order of simulated start (home at 0, the end
    // past the last).
    static Cursor atOperation(const StopPoints &stops, std::size_t count);

    const StopPoints &stops() const { return *m_stops; }
    // A cut's prefix is found when first asked (a search a rank: at 16,384 ranks most of a
    // step), not when the cut is made; a CutFront that follows the cursor knows it already and
    // hands the cursor back with it (CutFront::cursor).
    std::size_t stop() const { return m_stop != kUnresolved ? m_stop : cutStop(); }
    Position position() const { return m_stops->position(stop()); }
    bool atHome() const { return stop() == 0; }
    // Everything applied, and no draw() after this one: the walk-through's last draws come after
    // its last operation and change, and each is still a step on. A cut before the last event
    // ends leaves that event's rank short of its end though it may need every stop: a rank whose
    // one turn ran all its events holds them in the stops before a later rank's turn, and the
    // cut's prefix holds that later turn whole.
    bool atEnd() const
    {
        const auto &boundaries = m_stops->boundaries();
        if (m_cut && !boundaries.empty() && *m_cut < boundaries.back())
            return false;
        return stop() == m_stops->last() && (!m_mark || *m_mark + 1 >= m_stops->markStops().size());
    }
    // Whether stop() is known without a search (always but at a cut made by a step or a jump).
    bool stopKnown() const { return m_stop != kUnresolved; }
    // The draw() mark stood at (reached by a snapshot step or toMark); nullopt elsewhere.
    std::optional<std::size_t> mark() const { return m_mark; }
    // The simulated time every rank stands at (a time, operation or snapshot step, toCut,
    // toEvent); nullopt at a prefix (home, a slice step).
    std::optional<core::SimTime> cut() const { return m_cut; }
    // The bound of the cut's events (every event ordered before it has started).
    const OrderKey &bound() const { return m_bound; }
    // How far `rank` has come: its cut at cut(), else the prefix position (running when the
    // rank's event is the last item applied).
    RankCut rankCut(int rank) const;

    // The event applied last (the one to highlight): at a cut the latest in the order of
    // simulated start, at a prefix the scheduler's last; nullopt before the first.
    std::optional<std::size_t> lastEvent() const;
    // How many operations have started: at a cut, the ones ordered before its bound; at a
    // prefix, its events.
    std::size_t operations() const;
    // Where `rank` stands in simulated time: the cut's time, else the end of its last applied
    // event, or that event's start while it runs (0 before its first).
    core::SimTime clock(int rank) const;
    // The rank that moved last: the rank of the last event at an operation step, the drawing
    // rank at a mark, the rank whose item was applied last at a prefix; nullopt at a time cut
    // and at home.
    std::optional<int> movedRank() const;
    // The slice that made the item applied last; nullopt at home.
    std::optional<std::size_t> slice() const { return m_stops->sliceAt(m_stop); }
    // The one time of the cursor: the cut; at the end the end of the run; at another prefix (a
    // scheduler turn) the clock of the rank that moved last; nullopt at home.
    std::optional<core::SimTime> time() const;
    // 0 at home, 1 at the end (also 1 for a trace with nothing in it).
    double fraction() const;

    // By operation from anywhere: to the first operation not started yet (back: to the last
    // started, or the one before when standing at it).
    Cursor nextOperation() const;
    Cursor previousOperation() const;
    Cursor nextSlice() const;
    Cursor previousSlice() const;
    // From a prefix: to the first boundary after its time (back to the last at or before).
    Cursor nextTime() const;
    Cursor previousTime() const;
    // From a mark to the next (previous) one; from elsewhere to the first mark at or after (the
    // last at or before) this stop. End (home) when there is none; the end (home) stays.
    Cursor nextSnapshot() const;
    Cursor previousSnapshot() const;
    Cursor home() const { return at(0); }
    // For a deadlock or a mismatch: the point where no rank could go on.
    Cursor end() const { return at(m_stops->last()); }

    // At the operation step that starts event `event` (the end when past the trace).
    Cursor toEvent(std::size_t event) const;
    // Every rank at the last boundary at or before `time` (home before the first).
    Cursor toCut(core::SimTime time) const;
    // Where draw() mark `mark` was taken (the end when there is no such mark).
    Cursor toMark(std::size_t mark) const;
    Cursor toPosition(Position position) const { return at(StopPoints::stopOf(position)); }
    // The stop nearest to fraction * last(); fraction is clamped to [0, 1].
    Cursor fromFraction(double fraction) const;

    // A cut's time, bound and mark decide its prefix: two cuts are equal without finding it.
    bool operator==(const Cursor &other) const
    {
        return m_stops == other.m_stops && m_mark == other.m_mark && m_cut == other.m_cut &&
               (m_cut ? m_bound == other.m_bound : m_stop == other.m_stop);
    }

private:
    friend class CutFront; // hands a cut's prefix over (CutFront::cursor)
    static constexpr std::size_t kUnresolved = static_cast<std::size_t>(-1);
    // The shortest prefix holding every rank's part of the cut (a search a rank).
    std::size_t cutStop() const;

    Cursor at(std::size_t stop) const { return Cursor(*m_stops, stop); }
    // Every rank at `time` with the events ordered before `bound` started.
    static Cursor cutAt(const StopPoints &stops, core::SimTime time, const OrderKey &bound);

    const StopPoints *m_stops;
    std::size_t m_stop; // kUnresolved: a cut's, found when asked
    std::optional<std::size_t> m_mark;
    std::optional<core::SimTime> m_cut;
    OrderKey m_bound;
};

} // namespace rankstep::replay
