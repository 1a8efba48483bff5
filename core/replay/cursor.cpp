// SPDX-License-Identifier: MIT
#include "cursor.h"

#include "frontsearch.h"

#include <algorithm>
#include <cmath>

namespace rankstep::replay {

Cursor::Cursor(const StopPoints &stops, std::size_t stop)
    : m_stops(&stops), m_stop(std::min(stop, stops.last()))
{}

Cursor Cursor::cutAt(const StopPoints &stops, core::SimTime time, const OrderKey &bound)
{
    Cursor cursor(stops);
    cursor.m_stop = kUnresolved;
    cursor.m_cut = time;
    cursor.m_bound = bound;
    return cursor;
}

Cursor Cursor::atMark(const StopPoints &stops, std::size_t mark)
{
    const StopPoints::MarkCut &at = stops.markCuts()[mark];
    Cursor cursor(stops);
    cursor.m_cut = at.time;
    cursor.m_bound = at.bound;
    cursor.m_mark = mark;
    cursor.m_stop = kUnresolved;
    return cursor;
}

std::size_t Cursor::cutStop() const
{
    if (!m_mark)
        return m_stops->cutStop(*m_cut, m_bound);
    // Every rank's part, the drawing rank's up to the call.
    std::size_t stop = 0;
    for (int rank = 0; rank < std::max(m_stops->trace().config.ranks, 0); ++rank)
        stop = std::max(stop, m_stops->stopHolding(rank, rankCut(rank)));
    return stop;
}

Cursor Cursor::atCut(const StopPoints &stops, core::SimTime time)
{
    const auto &boundaries = stops.boundaries();
    const bool end = boundaries.empty() || time >= boundaries.back();
    if (!end)
        return cutAt(stops, time, OrderKey::after(time));
    Cursor cursor(stops, stops.last());
    cursor.m_cut = boundaries.empty() ? time : boundaries.back();
    cursor.m_bound = OrderKey::after(*cursor.m_cut);
    return cursor;
}

Cursor Cursor::atOperation(const StopPoints &stops, std::size_t count)
{
    const auto &operations = stops.operations();
    if (count == 0)
        return Cursor(stops);
    if (count > operations.size())
        return Cursor(stops, stops.last());
    OrderKey bound = stops.key(operations[count - 1]);
    ++bound.event; // just after it: the next event of its rank has a larger index
    return cutAt(stops, bound.start, bound);
}

RankCut Cursor::rankCut(int rank) const
{
    if (m_cut) {
        RankCut cut = m_stops->rankCut(rank, *m_cut, m_bound);
        if (m_mark) {
            // The drawing rank's changes up to the call: those it made after it, before its
            // next event, come later in its code.
            const core::Mark &mark = m_stops->trace().marks[*m_mark];
            if (mark.rank == rank)
                cut.changes = std::min(cut.changes, mark.changeCount);
        }
        return cut;
    }
    const Position at = position();
    const auto &events = m_stops->rankEvents(rank);
    const auto last = lowerBoundFromFront(events, at.events); // home asks every rank
    const bool running = last != events.begin() && m_stops->afterEvent(*std::prev(last)) == stop();
    return RankCut{at.events, at.changes, running};
}

std::optional<std::size_t> Cursor::lastEvent() const
{
    if (m_cut) {
        const std::size_t started = operations();
        if (started == 0)
            return std::nullopt;
        return m_stops->operations()[started - 1];
    }
    const std::size_t events = position().events;
    if (events == 0)
        return std::nullopt;
    return events - 1;
}

std::optional<core::SimTime> Cursor::time() const
{
    if (m_cut)
        return m_cut;
    if (atHome())
        return std::nullopt;
    if (atEnd() && !m_stops->boundaries().empty())
        return m_stops->boundaries().back();
    if (const auto rank = movedRank())
        return clock(*rank);
    return m_stops->completeTime(stop());
}

std::size_t Cursor::operations() const
{
    if (m_cut)
        return m_stops->operationsBefore(m_bound);
    return position().events;
}

core::SimTime Cursor::clock(int rank) const
{
    if (m_cut)
        return *m_cut;
    const RankCut cut = rankCut(rank);
    const auto &events = m_stops->rankEvents(rank);
    const auto last = std::lower_bound(events.begin(), events.end(), cut.events);
    if (last == events.begin())
        return {};
    const core::Event &event = m_stops->trace().events[*std::prev(last)];
    return cut.running ? event.start : event.end();
}

std::optional<int> Cursor::movedRank() const
{
    const core::Trace &trace = m_stops->trace();
    if (m_mark)
        return trace.marks[*m_mark].rank >= 0 ? std::optional(trace.marks[*m_mark].rank)
                                              : std::nullopt;
    if (m_cut) {
        if (m_bound.rank == OrderKey::after(*m_cut).rank)
            return std::nullopt; // a time step: every rank moved to it
        return m_bound.rank;
    }
    if (atHome())
        return std::nullopt;
    const Position at = position();
    // The item applied last: an event when the stop is the one after it, else a change.
    if (at.events > 0 && m_stops->afterEvent(at.events - 1) == stop())
        return trace.events[at.events - 1].rank;
    if (at.changes > 0)
        return trace.changes[at.changes - 1].rank;
    return std::nullopt;
}

double Cursor::fraction() const
{
    const std::size_t last = m_stops->last();
    return last == 0 ? 1.0 : double(stop()) / double(last);
}

Cursor Cursor::nextOperation() const
{
    if (atEnd())
        return *this;
    return atOperation(*m_stops, operations() + 1);
}

Cursor Cursor::previousOperation() const
{
    if (atHome())
        return *this;
    // Standing elsewhere than at the step of the last operation started (a time, a snapshot,
    // the end): back to that step; standing at it, to the one before.
    const std::size_t started = operations();
    const Cursor last = atOperation(*m_stops, started);
    if (!(last == *this))
        return last;
    return atOperation(*m_stops, started - 1);
}

Cursor Cursor::nextSlice() const
{
    return at(nextStop(m_stops->sliceStops(), stop(), m_stops->last()));
}

Cursor Cursor::previousSlice() const
{
    return at(previousStop(m_stops->sliceStops(), stop()));
}

Cursor Cursor::nextTime() const
{
    const auto &boundaries = m_stops->boundaries();
    if (atEnd() || boundaries.empty())
        return atEnd() ? *this : end();
    // An operation or a snapshot stands at part of its time: first the whole of it.
    if (m_cut && !(m_bound == OrderKey::after(*m_cut))) {
        const Cursor whole = atCut(*m_stops, *m_cut);
        if (!(whole == *this))
            return whole;
    }
    const auto from = time();
    const auto it =
        from ? std::upper_bound(boundaries.begin(), boundaries.end(), *from) : boundaries.begin();
    return it == boundaries.end() ? atCut(*m_stops, boundaries.back()) : atCut(*m_stops, *it);
}

Cursor Cursor::previousTime() const
{
    const auto &boundaries = m_stops->boundaries();
    // The end stands at the last boundary.
    const bool cut = m_cut || (atEnd() && !boundaries.empty());
    const auto from = m_cut ? m_cut : (cut ? boundaries.back() : time());
    if (atHome() || !from)
        return home();
    // From a cut the boundary before it; from a prefix the cut at its own time.
    const auto it = cut ? std::lower_bound(boundaries.begin(), boundaries.end(), *from)
                        : std::upper_bound(boundaries.begin(), boundaries.end(), *from);
    return it == boundaries.begin() ? home() : atCut(*m_stops, *std::prev(it));
}

Cursor Cursor::nextSnapshot() const
{
    const auto &marks = m_stops->markStops();
    if (m_mark)
        return *m_mark + 1 < marks.size() ? atMark(*m_stops, *m_mark + 1) : end();
    if (atEnd())
        return *this;
    const auto it = std::lower_bound(marks.begin(), marks.end(), stop());
    return it == marks.end() ? end() : atMark(*m_stops, std::size_t(it - marks.begin()));
}

Cursor Cursor::previousSnapshot() const
{
    const auto &marks = m_stops->markStops();
    if (m_mark)
        return *m_mark > 0 ? atMark(*m_stops, *m_mark - 1) : home();
    if (atHome())
        return *this;
    const auto it = std::upper_bound(marks.begin(), marks.end(), stop());
    return it == marks.begin() ? home() : atMark(*m_stops, std::size_t(it - marks.begin()) - 1);
}

Cursor Cursor::toEvent(std::size_t event) const
{
    if (event >= m_stops->trace().events.size())
        return end();
    return atOperation(*m_stops, m_stops->operationsBefore(m_stops->key(event)) + 1);
}

Cursor Cursor::toCut(core::SimTime time) const
{
    const auto &boundaries = m_stops->boundaries();
    const auto it = std::upper_bound(boundaries.begin(), boundaries.end(), time);
    return it == boundaries.begin() ? home() : atCut(*m_stops, *std::prev(it));
}

Cursor Cursor::toMark(std::size_t mark) const
{
    if (mark >= m_stops->markStops().size())
        return end();
    return atMark(*m_stops, mark);
}

Cursor Cursor::fromFraction(double fraction) const
{
    const double clamped = std::isnan(fraction) ? 0.0 : std::clamp(fraction, 0.0, 1.0);
    return at(std::size_t(std::llround(clamped * double(m_stops->last()))));
}

} // namespace rankstep::replay
