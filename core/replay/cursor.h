// SPDX-License-Identifier: MIT
#pragma once

#include "position.h"

#include <cstddef>
#include <optional>

namespace rankstep::replay {

// Where a learner stands in a finished run: one stop of a StopPoints (which must outlive it).
// A value: every step returns a new cursor. Each step mode moves to the next (previous) stop of
// its own subset, and home and end belong to every subset, so previousX(nextX(c)) == c whenever
// c is one of mode X's stops.
//   operation: after one more event, in the scheduler's order across ranks, with the storage
//              changes made before it.
//   slice:     to the end of the coroutine slice running now (or the next one): the way the
//              ranks really took turns.
//   time:      to the next event boundary t (any event's start or end): every rank at
//              simulated time t (StopPoints::rankCut), each at its own prefix of the trace,
//              since the scheduler runs a rank until it waits. cut() names the t; stop() is
//              the shortest prefix holding all of it.
//   snapshot:  to the next draw() mark, one stop per mark even when several share a position
//              (nothing happened between the draws); mark() names the one stood at.
class Cursor
{
public:
    explicit Cursor(const StopPoints &stops, std::size_t stop = 0);
    // At draw() mark `mark`, which must be < stops.markStops().size().
    static Cursor atMark(const StopPoints &stops, std::size_t mark);
    // Every rank at simulated time `time` (the end from the last boundary on).
    static Cursor atCut(const StopPoints &stops, core::SimTime time);

    const StopPoints &stops() const { return *m_stops; }
    std::size_t stop() const { return m_stop; }
    Position position() const { return m_stops->position(m_stop); }
    bool atHome() const { return m_stop == 0; }
    bool atEnd() const { return m_stop == m_stops->last(); }
    // The draw() mark stood at (reached by a snapshot step or toMark); nullopt elsewhere.
    std::optional<std::size_t> mark() const { return m_mark; }
    // The simulated time every rank stands at (a time step or toCut); nullopt at a prefix.
    std::optional<core::SimTime> cut() const { return m_cut; }
    // How far `rank` has come: its cut at cut(), else the prefix position (running when the
    // rank's event is the last item applied).
    RankCut rankCut(int rank) const;

    // The event applied last (the one to highlight); nullopt before the first.
    std::optional<std::size_t> lastEvent() const;
    // The slice that made the item applied last; nullopt at home.
    std::optional<std::size_t> slice() const { return m_stops->sliceAt(m_stop); }
    // The cut, else the time every event starting at or before is applied
    // (StopPoints::completeTime).
    std::optional<core::SimTime> time() const
    {
        return m_cut ? m_cut : m_stops->completeTime(m_stop);
    }
    // 0 at home, 1 at the end (also 1 for a trace with nothing in it).
    double fraction() const;

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

    // Event `event` applied last (the end when past the trace).
    Cursor toEvent(std::size_t event) const;
    // Every event that starts at or before `time` applied (StopPoints::stopForTime).
    Cursor toTime(core::SimTime time) const;
    // Every rank at the last boundary at or before `time` (home before the first).
    Cursor toCut(core::SimTime time) const;
    // Where draw() mark `mark` was taken (the end when there is no such mark).
    Cursor toMark(std::size_t mark) const;
    Cursor toPosition(Position position) const { return at(StopPoints::stopOf(position)); }
    // The stop nearest to fraction * last(); fraction is clamped to [0, 1].
    Cursor fromFraction(double fraction) const;

    bool operator==(const Cursor &other) const
    {
        return m_stops == other.m_stops && m_stop == other.m_stop && m_mark == other.m_mark &&
               m_cut == other.m_cut;
    }

private:
    Cursor at(std::size_t stop) const { return Cursor(*m_stops, stop); }

    const StopPoints *m_stops;
    std::size_t m_stop;
    std::optional<std::size_t> m_mark;
    std::optional<core::SimTime> m_cut;
};

} // namespace rankstep::replay
