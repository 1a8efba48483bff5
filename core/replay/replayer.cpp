// SPDX-License-Identifier: MIT
#include "replayer.h"

#include "frontsearch.h"

#include <algorithm>
#include <utility>

namespace rankstep::replay {
namespace {

constexpr auto kMaps = std::size_t(core::kMapCount);

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

Replayer::Replayer(const StopPoints &stops, std::size_t minCheckpointGap)
    : m_stops(&stops), m_trace(&stops.trace())
{
    m_work.resize(std::size_t(std::max(m_trace->config.ranks, 0)));
    buildLinks();
    buildCheckpoints(std::max<std::size_t>(minCheckpointGap, 1));
}

void Replayer::buildLinks()
{
    // Every rank's live keys in one open-addressing table (linear probing, a deletion shifts
    // the entries after it back): a hash map of nodes per rank and map took an allocation per key
    // set and a quarter of an open of 16,384 ranks. An entry names the change that set its key
    // last, whose key it compares with.
    struct Live {
        std::uint64_t hash = 0;
        std::uint32_t order = 0;
        std::uint32_t current = kNone; // kNone: an empty place
    };
    const auto &changes = m_trace->changes;
    const auto hashOf = [](const core::StorageChange &change) {
        std::uint64_t h = core::KeyHash{}(change.key);
        h ^= (std::uint64_t(unsigned(change.rank)) << 8 | std::uint64_t(change.map)) *
             0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9ULL;
        return h ^ (h >> 32);
    };
    std::vector<Live> table(1024);
    std::size_t mask = table.size() - 1;
    std::size_t used = 0;
    const auto grow = [&] {
        std::vector<Live> wider(table.size() * 2);
        mask = wider.size() - 1;
        for (const Live &live : table) {
            if (live.current == kNone)
                continue;
            std::size_t slot = live.hash & mask;
            while (wider[slot].current != kNone)
                slot = (slot + 1) & mask;
            wider[slot] = live;
        }
        table.swap(wider);
    };
    const auto erase = [&](std::size_t hole) {
        for (std::size_t next = hole;;) {
            table[hole].current = kNone;
            for (;;) {
                next = (next + 1) & mask;
                if (table[next].current == kNone)
                    return;
                // An entry stays when its own place lies cyclically in (hole, next].
                const std::size_t home = table[next].hash & mask;
                const bool stays =
                    hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
                if (!stays)
                    break;
            }
            table[hole] = table[next];
            hole = next;
        }
    };
    m_links.resize(changes.size());
    for (std::size_t c = 0; c < m_links.size(); ++c) {
        const core::StorageChange &change = changes[c];
        const std::uint64_t hash = hashOf(change);
        std::size_t slot = hash & mask;
        bool found = false;
        for (; table[slot].current != kNone; slot = (slot + 1) & mask) {
            if (table[slot].hash != hash)
                continue;
            const core::StorageChange &last = changes[table[slot].current];
            if (last.rank == change.rank && last.map == change.map && last.key == change.key) {
                found = true;
                break;
            }
        }
        const auto self = std::uint32_t(c);
        if (!found) {
            m_links[c] = Link{self, kNone}; // a new key (or deleting a missing one: no effect)
            if (change.object) {
                table[slot] = Live{hash, self, self};
                if (++used * 2 > table.size())
                    grow();
            }
            continue;
        }
        m_links[c] = Link{table[slot].order, table[slot].current};
        if (change.object) {
            table[slot].current = self;
        } else {
            erase(slot);
            --used;
        }
    }
}

void Replayer::buildCheckpoints(std::size_t minGap)
{
    m_checkpoints.push_back(snapshot(0, m_work));
    std::size_t live = 0;
    std::size_t since = 0;
    for (std::size_t c = 0; c < m_links.size(); ++c) {
        apply(c);
        const bool set = m_trace->changes[c].object != nullptr;
        if (m_links[c].previous == kNone && set)
            ++live;
        else if (m_links[c].previous != kNone && !set)
            --live;
        if (++since >= std::max(minGap, live / 4)) {
            m_checkpoints.push_back(snapshot(c + 1, m_work));
            since = 0;
        }
    }
    m_at.assign(m_work.size(), m_links.size());
}

Replayer::Checkpoint Replayer::snapshot(std::size_t changes, const std::vector<Maps> &work)
{
    Checkpoint checkpoint{changes, {}, {}};
    std::size_t entries = 0;
    for (const Maps &maps : work)
        for (const std::vector<Slot> &map : maps)
            entries += map.size();
    checkpoint.entries.reserve(entries);
    checkpoint.ends.reserve(work.size() * kMaps);
    for (const Maps &maps : work)
        for (const std::vector<Slot> &map : maps) {
            for (const Slot &slot : map)
                checkpoint.entries.push_back(slot.change);
            // A map holds at most one entry per change: a trace's changes count in 32 bits.
            checkpoint.ends.push_back(std::uint32_t(checkpoint.entries.size()));
        }
    return checkpoint;
}

void Replayer::apply(std::size_t change)
{
    const core::StorageChange &c = m_trace->changes[change];
    const Link link = m_links[change];
    std::vector<Slot> &map = m_work[std::size_t(c.rank)][std::size_t(c.map)];
    if (link.previous == kNone) {
        if (c.object)
            map.push_back(Slot{std::uint32_t(change), std::uint32_t(change)});
        return;
    }
    const auto it =
        std::lower_bound(map.begin(), map.end(), link.order,
                         [](const Slot &s, std::uint32_t order) { return s.order < order; });
    if (c.object)
        it->change = std::uint32_t(change);
    else
        map.erase(it);
}

void Replayer::undo(std::size_t change)
{
    const core::StorageChange &c = m_trace->changes[change];
    const Link link = m_links[change];
    std::vector<Slot> &map = m_work[std::size_t(c.rank)][std::size_t(c.map)];
    if (link.previous == kNone) {
        if (c.object)
            map.pop_back(); // undone in reverse order, the newest key is the last one
        return;
    }
    const auto it =
        std::lower_bound(map.begin(), map.end(), link.order,
                         [](const Slot &s, std::uint32_t order) { return s.order < order; });
    if (c.object)
        it->change = link.previous;
    else
        map.insert(it, Slot{link.order, link.previous});
}

void Replayer::moveRank(int rank, std::size_t changes)
{
    const auto r = std::size_t(rank);
    const auto after = std::upper_bound(
        m_checkpoints.begin(), m_checkpoints.end(), changes,
        [](std::size_t n, const Checkpoint &checkpoint) { return n < checkpoint.changes; });
    const Checkpoint *best = &*std::prev(after); // the first checkpoint is at 0
    std::size_t distance = changes - best->changes;
    if (after != m_checkpoints.end() && after->changes - changes < distance) {
        best = &*after;
        distance = after->changes - changes;
    }
    const std::size_t fromHere = m_at[r] > changes ? m_at[r] - changes : changes - m_at[r];
    if (distance < fromHere) {
        for (std::size_t m = 0; m < kMaps; ++m) {
            const std::size_t at = r * kMaps + m;
            std::vector<Slot> &map = m_work[r][m];
            map.clear();
            for (std::size_t e = at == 0 ? 0 : best->ends[at - 1]; e < best->ends[at]; ++e) {
                const std::uint32_t change = best->entries[e];
                map.push_back(Slot{m_links[change].order, change});
            }
        }
        m_at[r] = best->changes;
    }
    // Only this rank's changes touch its maps.
    const std::vector<std::uint32_t> &own = m_stops->rankChanges(rank);
    auto it = lowerBoundFromFront(own, m_at[r]);
    for (; it != own.end() && *it < changes; ++it)
        apply(*it);
    for (; it != own.begin() && *std::prev(it) >= changes; --it)
        undo(*std::prev(it));
    m_at[r] = changes;
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
    moveRank(rank, cut.changes);
    const Maps &maps = m_work[std::size_t(rank)];
    for (std::size_t m = 0; m < maps.size(); ++m) {
        state.maps[m].resize(maps[m].size());
        for (std::size_t i = 0; i < maps[m].size(); ++i)
            state.maps[m][i].change = &m_trace->changes[maps[m][i].change];
    }
    const auto change = lastBelow(m_stops->rankChanges(rank), cut.changes);
    state.memory = change ? m_trace->changes[*change].memoryAfter : 0;
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
