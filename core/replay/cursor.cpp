// SPDX-License-Identifier: MIT
#include "cursor.h"

#include <algorithm>
#include <cmath>

namespace rankstep::replay {

Cursor::Cursor(const StopPoints &stops, std::size_t stop)
    : m_stops(&stops), m_stop(std::min(stop, stops.last()))
{}

Cursor Cursor::atMark(const StopPoints &stops, std::size_t mark)
{
    Cursor cursor(stops, stops.markStops()[mark]);
    cursor.m_mark = mark;
    return cursor;
}

Cursor Cursor::atCut(const StopPoints &stops, core::SimTime time)
{
    const auto &boundaries = stops.boundaries();
    const bool end = boundaries.empty() || time >= boundaries.back();
    Cursor cursor(stops, end ? stops.last() : stops.cutStop(time));
    cursor.m_cut = end && !boundaries.empty() ? boundaries.back() : time;
    return cursor;
}

RankCut Cursor::rankCut(int rank) const
{
    if (m_cut)
        return m_stops->rankCut(rank, *m_cut);
    const Position at = position();
    const auto &events = m_stops->rankEvents(rank);
    const auto last = std::lower_bound(events.begin(), events.end(), at.events);
    const bool running = last != events.begin() && m_stops->afterEvent(*std::prev(last)) == m_stop;
    return RankCut{at.events, at.changes, running};
}

std::optional<std::size_t> Cursor::lastEvent() const
{
    const std::size_t events = position().events;
    if (events == 0)
        return std::nullopt;
    return events - 1;
}

double Cursor::fraction() const
{
    const std::size_t last = m_stops->last();
    return last == 0 ? 1.0 : double(m_stop) / double(last);
}

Cursor Cursor::nextOperation() const
{
    return at(nextStop(m_stops->eventStops(), m_stop, m_stops->last()));
}

Cursor Cursor::previousOperation() const
{
    return at(previousStop(m_stops->eventStops(), m_stop));
}

Cursor Cursor::nextSlice() const
{
    return at(nextStop(m_stops->sliceStops(), m_stop, m_stops->last()));
}

Cursor Cursor::previousSlice() const
{
    return at(previousStop(m_stops->sliceStops(), m_stop));
}

Cursor Cursor::nextTime() const
{
    const auto &boundaries = m_stops->boundaries();
    if (atEnd() || boundaries.empty())
        return atEnd() ? *this : end();
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
    const auto it = std::lower_bound(marks.begin(), marks.end(), m_stop);
    return it == marks.end() ? end() : atMark(*m_stops, std::size_t(it - marks.begin()));
}

Cursor Cursor::previousSnapshot() const
{
    const auto &marks = m_stops->markStops();
    if (m_mark)
        return *m_mark > 0 ? atMark(*m_stops, *m_mark - 1) : home();
    if (atHome())
        return *this;
    const auto it = std::upper_bound(marks.begin(), marks.end(), m_stop);
    return it == marks.begin() ? home() : atMark(*m_stops, std::size_t(it - marks.begin()) - 1);
}

Cursor Cursor::toEvent(std::size_t event) const
{
    if (event >= m_stops->eventStops().size())
        return end();
    return at(m_stops->afterEvent(event));
}

Cursor Cursor::toTime(core::SimTime time) const
{
    return at(m_stops->stopForTime(time));
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
