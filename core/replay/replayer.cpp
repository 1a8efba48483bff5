// SPDX-License-Identifier: MIT
#include "replayer.h"

#include "frontsearch.h"

#include <algorithm>
#include <utility>

namespace rankstep::replay {
namespace {

// The last element of a sorted list below `bound`, if any (searched from the front: the first
// step from the start rebuilds every rank near it).
template <typename Index>
std::optional<std::size_t> lastBelow(const std::vector<Index> &sorted, std::size_t bound)
{
    const auto it = lowerBoundFromFront(sorted, bound);
    if (it == sorted.begin())
        return std::nullopt;
    return *std::prev(it);
}

} // namespace

Replayer::Link Replayer::link(int rank, std::size_t own) const
{
    const std::size_t at = m_linkStart[std::size_t(rank)] + own;
    if (m_wide)
        return Link{m_links[2 * at], m_links[2 * at + 1]};
    const std::uint32_t packed = m_links[at];
    return Link{packed >> 16, packed & 0xffffU};
}

std::uint32_t Replayer::value(const Part &part, std::size_t at) const
{
    const std::uint16_t *values = part.values.get();
    if (m_wide)
        return std::uint32_t(values[2 * at]) | std::uint32_t(values[2 * at + 1]) << 16;
    return values[at];
}

void Replayer::restore(int rank, const Snapshot &snapshot)
{
    const Part &part = m_parts[m_rankSnapshots[std::size_t(rank)].part];
    std::size_t at = snapshot.offset;
    for (std::vector<Slot> &map : m_work[std::size_t(rank)]) {
        map.resize(value(part, at++));
        for (Slot &slot : map) {
            slot.change = value(part, at++);
            slot.order = link(rank, slot.change).order;
        }
    }
    m_at[std::size_t(rank)] = snapshot.at;
}

void Replayer::apply(int rank, std::size_t own)
{
    const core::StorageChange &c = m_trace->changes[m_stops->rankChanges(rank)[own]];
    const Link link = this->link(rank, own);
    std::vector<Slot> &map = m_work[std::size_t(rank)][std::size_t(c.map)];
    const auto self = std::uint32_t(own);
    if (link.previous == self) {
        if (c.isSet())
            map.push_back(Slot{self, self});
        return;
    }
    const auto it = slotOf(map, link.order);
    if (c.isSet())
        it->change = self;
    else
        map.erase(it);
}

void Replayer::undo(int rank, std::size_t own)
{
    const core::StorageChange &c = m_trace->changes[m_stops->rankChanges(rank)[own]];
    const Link link = this->link(rank, own);
    std::vector<Slot> &map = m_work[std::size_t(rank)][std::size_t(c.map)];
    if (link.previous == std::uint32_t(own)) {
        if (c.isSet())
            map.pop_back(); // undone in reverse order, the newest key is the last one
        return;
    }
    const auto it = slotOf(map, link.order);
    if (c.isSet())
        it->change = link.previous;
    else
        map.insert(it, Slot{link.order, link.previous});
}

void Replayer::moveRank(int rank, std::size_t own)
{
    const auto r = std::size_t(rank);
    const RankSnapshots &mine = m_rankSnapshots[r];
    const Snapshot *first = m_parts[mine.part].snapshots.get() + mine.first;
    const Snapshot *last = m_parts[mine.part].snapshots.get() + mine.end;
    const Snapshot *after = std::upper_bound(
        first, last, own, [](std::size_t n, const Snapshot &snapshot) { return n < snapshot.at; });
    // The nearest snapshot, the start (no entries) before the first.
    const Snapshot *best = after == first ? nullptr : after - 1;
    std::size_t distance = own - (best ? best->at : 0);
    if (after != last && after->at - own < distance) {
        best = after;
        distance = after->at - own;
    }
    const std::size_t fromHere = m_at[r] > own ? m_at[r] - own : own - m_at[r];
    if (distance < fromHere) {
        if (best) {
            restore(rank, *best);
        } else {
            for (std::vector<Slot> &map : m_work[r])
                map.clear();
            m_at[r] = 0;
        }
    }
    for (std::size_t i = m_at[r]; i < own; ++i)
        apply(rank, i);
    for (std::size_t i = m_at[r]; i > own; --i)
        undo(rank, i - 1);
    m_at[r] = std::uint32_t(own);
}

RunState Replayer::stateAt(const Cursor &cursor)
{
    RunState state;
    stateAt(cursor, state);
    return state;
}

void Replayer::stateAt(const Cursor &cursor, RunState &state)
{
    state.position = cursor.position();
    state.event = cursor.lastEvent();
    state.cut = cursor.cut();
    state.time = cursor.time();
    state.ranks.resize(m_work.size());
    for (std::size_t r = 0; r < m_work.size(); ++r)
        fillRank(state.ranks[r], cursor, int(r), cursor.rankCut(int(r)));
}

void Replayer::followState(const Cursor &cursor, RunState &state, const CutFront &front,
                           const std::vector<int> *moved)
{
    state.position = cursor.position();
    state.event = cursor.lastEvent();
    state.cut = cursor.cut();
    state.time = cursor.time();
    const bool fresh = state.ranks.size() != m_work.size() || m_followed.size() != m_work.size();
    state.ranks.resize(m_work.size());
    m_followed.resize(m_work.size());
    // A draw() names the line of its rank: that rank's line is looked up again then and after.
    const auto mark = cursor.mark();
    const int drawing = mark ? m_trace->marks[*mark].rank : -1;
    if (fresh || !moved) {
        for (std::size_t r = 0; r < m_work.size(); ++r)
            followRank(state.ranks[r], cursor, int(r), front.rankCut(int(r)), fresh, drawing);
    } else {
        // Every other rank keeps what it holds: at a cut only its clock moves, to the cut's time;
        // at a prefix (reached from a prefix: from a cut every rank moved) nothing.
        if (const auto time = cursor.cut())
            for (RankState &rank : state.ranks)
                rank.clock = *time;
        for (const int r : *moved)
            followRank(state.ranks[std::size_t(r)], cursor, r, front.rankCut(r), false, drawing);
        for (const int r : {drawing, m_followedDrawing})
            if (r >= 0 && std::size_t(r) < m_work.size())
                followRank(state.ranks[std::size_t(r)], cursor, r, front.rankCut(r), false,
                           drawing);
    }
    m_followedDrawing = drawing;
}

void Replayer::followRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut,
                          bool fresh, int drawing)
{
    RankCut &followed = m_followed[std::size_t(rank)];
    if (fresh || !(cut == followed))
        fillRank(state, cursor, rank, cut);
    else if (rank == drawing || rank == m_followedDrawing)
        placeRank(state, cursor, rank, cut);
    else if (const auto time = cursor.cut()) // the same cut of this rank at another time
        state.clock = *time;
    else
        placeRank(state, cursor, rank, cut);
    followed = cut;
}

RankState Replayer::rankStateAt(const Cursor &cursor, int rank)
{
    RankState state;
    fillRank(state, cursor, rank, cursor.rankCut(rank));
    return state;
}

std::int64_t Replayer::memoryAt(const Cursor &cursor, int rank) const
{
    const auto change = lastBelow(m_stops->rankChanges(rank), cursor.rankCut(rank).changes);
    return change ? m_trace->changes[*change].memoryAfter : 0;
}

// The rank's maps moved to its cut, the rest looked up.
void Replayer::fillRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut)
{
    const std::vector<std::uint32_t> &own = m_stops->rankChanges(rank);
    const auto applied = std::size_t(lowerBoundFromFront(own, cut.changes) - own.begin());
    moveRank(rank, applied);
    const Maps &maps = m_work[std::size_t(rank)];
    for (std::size_t m = 0; m < maps.size(); ++m) {
        state.maps[m].resize(maps[m].size());
        for (std::size_t i = 0; i < maps[m].size(); ++i) {
            const core::StorageChange &change = m_trace->changes[own[maps[m][i].change]];
            state.maps[m][i] = MapEntry{&change, m_trace->changes.object(change)};
        }
    }
    state.memory = applied > 0 ? m_trace->changes[own[applied - 1]].memoryAfter : 0;
    state.event = lastBelow(m_stops->rankEvents(rank), cut.events);
    state.running = cut.running;
    placeRank(state, cursor, rank, cut);
}

void Replayer::placeRank(RankState &state, const Cursor &cursor, int rank, const RankCut &cut) const
{
    const std::optional<std::size_t> &event = state.event;
    const auto change = lastBelow(m_stops->rankChanges(rank), cut.changes);
    state.clock = core::SimTime();
    if (const auto time = cursor.cut())
        state.clock = *time; // every rank at the same simulated time
    else if (event)
        state.clock = state.running ? m_trace->events[*event].start : m_trace->events[*event].end();
    const bool eventIsLater =
        event && (!change || m_stops->afterEvent(*event) > m_stops->afterChange(*change));
    state.line = eventIsLater ? m_trace->events[*event].line
                 : change     ? m_trace->changes[*change].line
                              : 0;
    // At a draw() the rank stands at that call, whatever it did last.
    if (const auto mark = cursor.mark(); mark && m_trace->marks[*mark].rank == rank)
        state.line = m_trace->marks[*mark].line;
}

} // namespace rankstep::replay
