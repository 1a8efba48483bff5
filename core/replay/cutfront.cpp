// SPDX-License-Identifier: MIT
#include "cutfront.h"

#include <algorithm>
#include <iterator>

namespace rankstep::replay {

CutFront::CutFront(const StopPoints &stops)
    : m_stops(&stops)
    , m_started(std::size_t(std::max(stops.trace().config.ranks, 0)), 0)
    , m_tree(stops.boundaries().size() + 1, 0)
    , m_endOf(m_started.size(), 0)
    , m_holding(2 * m_started.size(), 0)
    , m_isMoved(m_started.size(), 0)
{
    // The counts start at the cut with nothing started: the first step from home goes on from
    // there instead of counting every rank.
    const std::size_t ranks = m_started.size();
    const auto &changes = stops.trace().changes;
    for (std::size_t rank = 0; rank < ranks; ++rank) {
        m_holding[ranks + rank] = holding(int(rank));
        const std::size_t before = cutAt(int(rank)).changes;
        const std::vector<std::uint32_t> &own = stops.rankChanges(int(rank));
        if (!own.empty() && own.front() < std::min(before, changes.size()))
            m_loaded.push_back(int(rank));
    }
    for (std::size_t i = ranks; i-- > 1;)
        m_holding[i] = std::max(m_holding[2 * i], m_holding[2 * i + 1]);
    m_nothingHolding = m_holding;
}

void CutFront::moveTo(const Cursor &cursor)
{
    for (const int rank : m_moved)
        m_isMoved[std::size_t(rank)] = 0;
    m_moved.clear();
    m_allMoved = false;
    if (!cursor.cut()) {
        moveToPrefix(cursor);
        return;
    }
    const std::size_t operations = m_stops->operationsBefore(cursor.bound());
    const std::size_t apart =
        operations > m_operations ? operations - m_operations : m_operations - operations;
    const std::vector<core::SimTime> &boundaries = m_stops->boundaries();
    const auto upTo = std::size_t(
        std::upper_bound(boundaries.begin(), boundaries.end(), *cursor.cut()) - boundaries.begin());
    // From nothing started when that is nearer than the counts' cut, or when the cursor stood at
    // home (and the cut is near the start). The ranks moved are the ones the counts' change
    // touches when the counts held the cursor's cut before, or when it stood at home and they go
    // on from nothing started (with the ranks that hold something then).
    const bool fromHome = m_cursor && !m_cursor->cut() && m_cursor->atHome();
    const bool reset =
        m_operations > 0 && operations <= m_started.size() && (operations < apart || fromHome);
    const bool fromNothing = reset || m_operations == 0;
    m_allMoved = !((m_atCut && !reset) || (fromNothing && fromHome));
    m_cursor = cursor;
    if (!reset && apart > m_started.size()) {
        recount(cursor);
    } else {
        if (reset)
            countNothing();
        // The operations between the two bounds, in the order of simulated start: each starts
        // (or is taken back from) the next event of its rank.
        const std::vector<std::uint32_t> &order = m_stops->operations();
        const auto &events = m_stops->trace().events;
        for (std::size_t k = m_operations; k < operations; ++k) {
            const auto rank = std::size_t(events[order[k]].rank);
            setStarted(int(rank), m_started[rank] + 1);
        }
        for (std::size_t k = m_operations; k > operations; --k) {
            const auto rank = std::size_t(events[order[k - 1]].rank);
            setStarted(int(rank), m_started[rank] - 1);
        }
        markEnding(m_upTo, upTo);
        for (const int rank : m_moved)
            setHolding(rank, holding(rank));
        if (fromNothing && fromHome)
            for (const int rank : m_loaded)
                markMoved(rank);
    }
    m_atCut = true;
    m_operations = operations;
    m_upTo = upTo;
    countAt();
    if (!cursor.stopKnown())
        m_cursor->m_stop = cutStop();
}

void CutFront::moveToPrefix(const Cursor &cursor)
{
    // Every rank's cut is the prefix: from another prefix the ranks of the items between the two
    // moved, and the ranks whose event was or is the last applied (it runs there).
    const bool fromPrefix = m_cursor && !m_cursor->cut();
    const Position to = cursor.position();
    if (fromPrefix) {
        const Position from = m_cursor->position();
        const auto [firstEvent, lastEvent] = std::minmax(from.events, to.events);
        const auto [firstChange, lastChange] = std::minmax(from.changes, to.changes);
        // Naming an item's rank costs little beside rebuilding a rank's state.
        if ((lastEvent - firstEvent) + (lastChange - firstChange) > 16 * m_started.size()) {
            m_allMoved = true;
        } else {
            const core::Trace &trace = m_stops->trace();
            for (std::size_t e = firstEvent; e < lastEvent; ++e)
                markMoved(trace.events[e].rank);
            for (std::size_t c = firstChange; c < lastChange; ++c)
                markMoved(trace.changes[c].rank);
            for (const int rank : {runningAtPrefix(*m_cursor), runningAtPrefix(cursor)})
                if (rank >= 0)
                    markMoved(rank);
        }
    } else {
        m_allMoved = true;
    }
    m_cursor = cursor;
    m_atCut = false;
    m_running = runningAtPrefix(cursor) >= 0 ? 1 : 0;
    m_done = to.events - m_running;
}

int CutFront::runningAtPrefix(const Cursor &cursor) const
{
    const Position at = cursor.position();
    if (at.events == 0 || m_stops->afterEvent(at.events - 1) != cursor.stop())
        return -1;
    return m_stops->trace().events[at.events - 1].rank;
}

void CutFront::countNothing()
{
    std::fill(m_started.begin(), m_started.end(), 0);
    std::fill(m_tree.begin(), m_tree.end(), 0);
    m_ends.clear();
    m_holding = m_nothingHolding;
    m_ranksStarted = 0;
    m_operations = 0;
    m_upTo = 0;
}

void CutFront::recount(const Cursor &cursor)
{
    ++m_recounts;
    m_allMoved = true;
    m_recounting = true;
    std::fill(m_tree.begin(), m_tree.end(), 0);
    m_ends.clear();
    m_ranksStarted = 0;
    const std::size_t ranks = m_started.size();
    for (std::size_t rank = 0; rank < ranks; ++rank) {
        const std::vector<std::uint32_t> &events = m_stops->rankEvents(int(rank));
        const auto started = std::partition_point(events.begin(), events.end(), [&](std::size_t e) {
            return m_stops->key(e) < cursor.bound();
        });
        m_started[rank] = 0;
        setStarted(int(rank), std::size_t(started - events.begin()));
        m_holding[ranks + rank] = holding(int(rank));
    }
    for (std::size_t i = ranks; i-- > 1;)
        m_holding[i] = std::max(m_holding[2 * i], m_holding[2 * i + 1]);
    m_recounting = false;
}

void CutFront::setStarted(int rank, std::size_t started)
{
    const std::vector<std::uint32_t> &events = m_stops->rankEvents(rank);
    const auto &trace = m_stops->trace().events;
    std::size_t &now = m_started[std::size_t(rank)];
    std::size_t &end = m_endOf[std::size_t(rank)];
    if (now > 0) {
        addEnd(end, -1);
        m_ends.erase({end, rank});
    } else if (started > 0) {
        ++m_ranksStarted;
    }
    if (started > 0) {
        end = boundaryOf(trace[events[started - 1]].end());
        addEnd(end, 1);
        m_ends.emplace(end, rank);
    } else if (now > 0) {
        --m_ranksStarted;
    }
    now = started;
    markMoved(rank);
}

void CutFront::markEnding(std::size_t from, std::size_t to)
{
    // A rank runs while its last started event ends after the cut's time: at a boundary at or
    // after `upTo`. Those whose end lies between the two cuts' stopped or started running.
    const auto [low, high] = std::minmax(from, to);
    for (auto it = m_ends.lower_bound({low, 0}); it != m_ends.end() && it->first < high; ++it)
        markMoved(it->second);
}

void CutFront::markMoved(int rank)
{
    // Listed even when every rank moved: the cut's prefix is updated for the ranks listed.
    if (m_recounting || m_isMoved[std::size_t(rank)])
        return;
    m_isMoved[std::size_t(rank)] = 1;
    m_moved.push_back(rank);
}

void CutFront::countAt()
{
    // Every started event of a rank but its last has ended by the cut (the next one started
    // after it ended, by then); the last runs when it ends after the cut's time.
    m_running = m_ranksStarted - endsUpTo(m_upTo);
    m_done = m_operations - m_running;
}

RankCut CutFront::rankCut(int rank) const
{
    if (!m_atCut)
        return m_cursor->rankCut(rank);
    RankCut cut = cutAt(rank);
    // At a draw(), the drawing rank's changes up to the call (as Cursor::rankCut).
    const core::Trace &trace = m_stops->trace();
    if (const auto mark = m_cursor->mark(); mark && trace.marks[*mark].rank == rank)
        cut.changes = std::min(cut.changes, trace.marks[*mark].changeCount);
    return cut;
}

RankCut CutFront::cutAt(int rank) const
{
    const std::vector<std::uint32_t> &events = m_stops->rankEvents(rank);
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
    return cut;
}

std::size_t CutFront::holding(int rank) const
{
    return m_stops->stopHolding(rank, cutAt(rank));
}

void CutFront::setHolding(int rank, std::size_t stop)
{
    std::size_t i = m_started.size() + std::size_t(rank);
    m_holding[i] = stop;
    for (i /= 2; i >= 1; i /= 2)
        m_holding[i] = std::max(m_holding[2 * i], m_holding[2 * i + 1]);
}

std::size_t CutFront::largestHolding(int except) const
{
    const std::size_t ranks = m_started.size();
    if (except < 0)
        return ranks == 0 ? 0 : m_holding[1];
    // The largest over [0, except) and (except, ranks), bottom up.
    const auto largest = [&](std::size_t low, std::size_t high) {
        std::size_t stop = 0;
        for (low += ranks, high += ranks; low < high; low /= 2, high /= 2) {
            if (low & 1)
                stop = std::max(stop, m_holding[low++]);
            if (high & 1)
                stop = std::max(stop, m_holding[--high]);
        }
        return stop;
    };
    return std::max(largest(0, std::size_t(except)), largest(std::size_t(except) + 1, ranks));
}

std::size_t CutFront::cutStop() const
{
    // At a draw(), the drawing rank's part ends at the call: its own stop, every other rank's
    // from the tree.
    const core::Trace &trace = m_stops->trace();
    const auto mark = m_cursor->mark();
    const int drawing = mark ? trace.marks[*mark].rank : -1;
    if (drawing < 0 || std::size_t(drawing) >= m_started.size())
        return largestHolding(-1);
    return std::max(largestHolding(drawing), m_stops->stopHolding(drawing, rankCut(drawing)));
}

std::optional<std::size_t> CutFront::runningEvent(int rank) const
{
    const RankCut cut = rankCut(rank);
    if (!cut.running)
        return std::nullopt;
    const std::vector<std::uint32_t> &events = m_stops->rankEvents(rank);
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
