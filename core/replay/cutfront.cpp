// SPDX-License-Identifier: MIT
#include "cutfront.h"

#include <algorithm>
#include <iterator>

namespace rankstep::replay {

CutFront::CutFront(const StopPoints &stops)
    : m_stops(&stops)
    , m_started(std::size_t(std::max(stops.trace().config.ranks, 0)), 0)
    , m_tree(stops.boundaries().size() + 1, 0)
{}

void CutFront::moveTo(const Cursor &cursor)
{
    if (!cursor.cut()) {
        // A prefix: only the rank whose event is the last item applied runs.
        m_cursor = cursor;
        m_atCut = false;
        const Position at = cursor.position();
        m_running = at.events > 0 && m_stops->afterEvent(at.events - 1) == cursor.stop() ? 1 : 0;
        m_done = at.events - m_running;
        return;
    }
    const std::size_t operations = m_stops->operationsBefore(cursor.bound());
    const std::size_t apart =
        operations > m_operations ? operations - m_operations : m_operations - operations;
    m_cursor = cursor;
    if (!m_atCut || apart > m_started.size()) {
        recount(cursor);
    } else {
        // The operations between the two bounds, in the order of simulated start: each starts
        // (or is taken back from) the next event of its rank.
        const std::vector<std::size_t> &order = m_stops->operations();
        const auto &events = m_stops->trace().events;
        for (std::size_t k = m_operations; k < operations; ++k) {
            const auto rank = std::size_t(events[order[k]].rank);
            setStarted(int(rank), m_started[rank] + 1);
        }
        for (std::size_t k = m_operations; k > operations; --k) {
            const auto rank = std::size_t(events[order[k - 1]].rank);
            setStarted(int(rank), m_started[rank] - 1);
        }
    }
    m_atCut = true;
    m_operations = operations;
    countAt(cursor);
}

void CutFront::recount(const Cursor &cursor)
{
    ++m_recounts;
    std::fill(m_tree.begin(), m_tree.end(), 0);
    m_ranksStarted = 0;
    for (std::size_t rank = 0; rank < m_started.size(); ++rank) {
        const std::vector<std::size_t> &events = m_stops->rankEvents(int(rank));
        const auto started = std::partition_point(events.begin(), events.end(), [&](std::size_t e) {
            return m_stops->key(e) < cursor.bound();
        });
        m_started[rank] = 0;
        setStarted(int(rank), std::size_t(started - events.begin()));
    }
}

void CutFront::setStarted(int rank, std::size_t started)
{
    const std::vector<std::size_t> &events = m_stops->rankEvents(rank);
    const auto &trace = m_stops->trace().events;
    std::size_t &now = m_started[std::size_t(rank)];
    if (now > 0)
        addEnd(boundaryOf(trace[events[now - 1]].end()), -1);
    else if (started > 0)
        ++m_ranksStarted;
    if (started > 0)
        addEnd(boundaryOf(trace[events[started - 1]].end()), 1);
    else if (now > 0)
        --m_ranksStarted;
    now = started;
}

void CutFront::countAt(const Cursor &cursor)
{
    // Every started event of a rank but its last has ended by the cut (the next one started
    // after it ended, by then); the last runs when it ends after the cut's time.
    const std::vector<core::SimTime> &boundaries = m_stops->boundaries();
    const auto upTo = std::upper_bound(boundaries.begin(), boundaries.end(), *cursor.cut());
    m_running = m_ranksStarted - endsUpTo(std::size_t(upTo - boundaries.begin()));
    m_done = m_operations - m_running;
}

RankCut CutFront::rankCut(int rank) const
{
    if (!m_atCut)
        return m_cursor->rankCut(rank);
    const std::vector<std::size_t> &events = m_stops->rankEvents(rank);
    const std::size_t started = m_started[std::size_t(rank)];
    const core::Trace &trace = m_stops->trace();
    // The changes made before an event was recorded: the stop after it, less the events.
    const auto changesBefore = [this](std::size_t event) {
        return m_stops->afterEvent(event) - event - 1;
    };
    RankCut cut;
    if (started > 0 && *m_cursor->cut() < trace.events[events[started - 1]].end()) {
        const std::size_t last = events[started - 1];
        cut = RankCut{last + 1, changesBefore(last), true};
    } else if (started == events.size()) {
        cut = RankCut{trace.events.size(), trace.changes.size(), false};
    } else {
        cut = RankCut{events[started], changesBefore(events[started]), false};
    }
    // At a draw(), the drawing rank's changes up to the call (as Cursor::rankCut).
    if (const auto mark = m_cursor->mark(); mark && trace.marks[*mark].rank == rank)
        cut.changes = std::min(cut.changes, trace.marks[*mark].changeCount);
    return cut;
}

std::optional<std::size_t> CutFront::runningEvent(int rank) const
{
    const RankCut cut = rankCut(rank);
    if (!cut.running)
        return std::nullopt;
    const std::vector<std::size_t> &events = m_stops->rankEvents(rank);
    const auto last = std::lower_bound(events.begin(), events.end(), cut.events);
    if (last == events.begin())
        return std::nullopt;
    return *std::prev(last);
}

void CutFront::addEnd(std::size_t boundary, int delta)
{
    for (std::size_t i = boundary + 1; i < m_tree.size(); i += i & (~i + 1))
        m_tree[i] = std::uint32_t(int(m_tree[i]) + delta);
}

std::size_t CutFront::endsUpTo(std::size_t boundaries) const
{
    std::size_t sum = 0;
    for (std::size_t i = std::min(boundaries, m_tree.size() - 1); i > 0; i -= i & (~i + 1))
        sum += m_tree[i];
    return sum;
}

std::size_t CutFront::boundaryOf(core::SimTime end) const
{
    const std::vector<core::SimTime> &boundaries = m_stops->boundaries();
    return std::size_t(std::lower_bound(boundaries.begin(), boundaries.end(), end) -
                       boundaries.begin());
}

} // namespace rankstep::replay
