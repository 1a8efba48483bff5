// SPDX-License-Identifier: MIT
// The Replayer's build: every rank's changes linked and its maps' snapshots taken, rank after rank.
#include "replayer.h"

#include "core/bigblocks.h"

#include <algorithm>
#include <bit>
#include <exception>
#include <new>
#include <system_error>
#include <thread>
#include <utility>

namespace rankstep::replay {
namespace {

constexpr auto kMaps = std::size_t(core::kMapCount);
// How many changes ahead of the one it links the build asks for: a rank's changes lie far
// apart in the trace, each in a line of its own.
constexpr std::size_t kAhead = 8;

std::uint64_t hashOf(const core::StorageChange &change)
{
    std::uint64_t h = core::KeyHash{}(change.key);
    h ^= (std::uint64_t(change.map) + 1) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

} // namespace

void *Replayer::mapRoom(std::size_t bytes)
{
    return core::mapUnwritten(bytes);
}

void Replayer::Unmap::operator()(void *list) const noexcept
{
    core::releaseBig(list, bytes);
}

// Links one rank's changes and takes its snapshots, its live keys in an open-addressing table
// (linear probing, a deletion shifts the entries after it back) that stays in the cache while
// the rank is built: one table of every rank's keys read two cold lines a change and took the
// largest part of the stepping's build at 16,384 ranks.
class Replayer::RankBuilder
{
public:
    RankBuilder(Replayer &replayer, Part &part, std::size_t minGap)
        : m_replayer(replayer), m_part(part), m_minGap(minGap)
    {}

    void build(int rank)
    {
        const auto &own = m_replayer.m_stops->rankChanges(rank);
        const core::ChangeLog &changes = m_replayer.m_trace->changes;
        Maps &maps = m_replayer.m_work[std::size_t(rank)];
        m_replayer.m_rankSnapshots[std::size_t(rank)] = {
            std::uint32_t(&m_part - m_replayer.m_parts.data()), m_part.snapshotCount, 0};
        clear(own.size());
        const std::size_t linkStart = m_replayer.m_linkStart[std::size_t(rank)];
        std::size_t live = 0;
        std::size_t since = 0;
        for (std::size_t i = 0; i < own.size(); ++i) {
            if (i + kAhead < own.size())
                __builtin_prefetch(&changes[own[i + kAhead]]);
            const core::StorageChange &change = changes[own[i]];
            const auto self = std::uint32_t(i);
            const std::uint64_t hash = hashOf(change);
            const std::size_t slot = find(hash, change);
            std::vector<Slot> &map = maps[std::size_t(change.map)];
            Live &found = m_table[slot];
            if (found.change == nullptr) {
                m_replayer.setLink(linkStart + i, Link{self, self});
                if (change.isSet()) {
                    found = Live{hash, &change, self, self};
                    map.push_back(Slot{self, self});
                    ++live;
                    if (++m_used * 2 > m_table.size())
                        grow();
                }
            } else {
                m_replayer.setLink(linkStart + i, Link{found.order, found.current});
                const auto it = slotOf(map, found.order);
                if (change.isSet()) {
                    found.current = self;
                    found.change = &change;
                    it->change = self;
                } else {
                    map.erase(it);
                    erase(slot);
                    --m_used;
                    --live;
                }
            }
            // Half as many snapshots as at a quarter: at 16,384 ranks 0.1 GB less to make, and a
            // step still within a frame.
            if (++since >= std::max(m_minGap, live / 2)) {
                snapshot(self + 1, maps);
                since = 0;
            }
        }
        m_replayer.m_rankSnapshots[std::size_t(rank)].end = m_part.snapshotCount;
        m_replayer.m_at[std::size_t(rank)] = std::uint32_t(own.size());
    }

private:
    struct Live {
        std::uint64_t hash = 0;
        const core::StorageChange *change = nullptr; // the key's last change; none: an empty place
        std::uint32_t order = 0;
        std::uint32_t current = 0;
    };

    // A table of about twice the rank's keys (as many as its changes, at most): cleared for each
    // rank in a time its changes bound.
    void clear(std::size_t changes)
    {
        const std::size_t size = std::bit_ceil(std::clamp<std::size_t>(2 * changes, 16, 1024));
        m_table.assign(size, Live{});
        m_mask = size - 1;
        m_used = 0;
    }

    // The place of `change`'s key, or the empty place where it would go.
    std::size_t find(std::uint64_t hash, const core::StorageChange &change) const
    {
        std::size_t slot = hash & m_mask;
        for (; m_table[slot].change != nullptr; slot = (slot + 1) & m_mask) {
            const Live &live = m_table[slot];
            if (live.hash == hash && live.change->map == change.map &&
                live.change->key == change.key)
                break;
        }
        return slot;
    }

    void grow()
    {
        m_wider.assign(m_table.size() * 2, Live{});
        m_mask = m_wider.size() - 1;
        for (const Live &live : m_table) {
            if (live.change == nullptr)
                continue;
            std::size_t slot = live.hash & m_mask;
            while (m_wider[slot].change != nullptr)
                slot = (slot + 1) & m_mask;
            m_wider[slot] = live;
        }
        m_table.swap(m_wider); // both keep their room for the next ranks
    }

    void erase(std::size_t hole)
    {
        for (std::size_t next = hole;;) {
            m_table[hole].change = nullptr;
            for (;;) {
                next = (next + 1) & m_mask;
                if (m_table[next].change == nullptr)
                    return;
                // An entry stays when its own place lies cyclically in (hole, next].
                const std::size_t home = m_table[next].hash & m_mask;
                const bool stays =
                    hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
                if (!stays)
                    break;
            }
            m_table[hole] = m_table[next];
            hole = next;
        }
    }

    void snapshot(std::uint32_t at, const Maps &maps)
    {
        m_part.snapshots[m_part.snapshotCount++] = Snapshot{at, m_part.valueCount};
        for (const std::vector<Slot> &map : maps) {
            put(std::uint32_t(map.size()));
            for (const Slot &slot : map)
                put(slot.change);
        }
    }

    void put(std::uint32_t value)
    {
        std::uint16_t *values = m_part.values.get();
        if (m_replayer.m_wide) {
            values[2 * m_part.valueCount] = std::uint16_t(value);
            values[2 * m_part.valueCount + 1] = std::uint16_t(value >> 16);
        } else {
            values[m_part.valueCount] = std::uint16_t(value);
        }
        ++m_part.valueCount;
    }

    Replayer &m_replayer;
    Part &m_part;
    std::size_t m_minGap;
    std::vector<Live> m_table, m_wider;
    std::size_t m_mask = 0;
    std::size_t m_used = 0;
};

Replayer::Replayer(const StopPoints &stops, std::size_t minCheckpointGap, unsigned threads)
    : m_stops(&stops), m_trace(&stops.trace())
{
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    m_work.resize(ranks);
    m_at.assign(ranks, 0);
    m_rankSnapshots.resize(ranks);
    buildParts(std::max<std::size_t>(minCheckpointGap, 1), std::max(threads, 1U));
}

void Replayer::buildParts(std::size_t minGap, unsigned threads)
{
    const std::size_t ranks = m_work.size();
    m_linkStart.resize(ranks + 1);
    std::size_t most = 0;
    for (std::size_t r = 0; r < ranks; ++r) {
        const std::size_t own = m_stops->rankChanges(int(r)).size();
        m_linkStart[r + 1] = m_linkStart[r] + own;
        most = std::max(most, own);
    }
    const std::size_t total = m_linkStart[ranks];
    m_wide = most > 0xffff;
    m_links = makeRoom<std::uint32_t>(m_wide ? 2 * total : total);
    // Ranks split into parts of about equal changes, each part's lists given the room their
    // largest size needs: a snapshot follows at least minGap of its rank's changes and holds at
    // most 4 entries a change since the last one, and 3 more, and a size per map.
    const std::size_t parts = std::min<std::size_t>(threads, std::max<std::size_t>(ranks, 1));
    m_parts.resize(parts);
    int rank = 0;
    for (std::size_t p = 0; p < parts; ++p) {
        Part &part = m_parts[p];
        part.firstRank = rank;
        const std::size_t until = p + 1 == parts ? total : total * (p + 1) / parts;
        std::size_t snapshots = 0, values = 0;
        for (; std::size_t(rank) < ranks &&
               (m_linkStart[std::size_t(rank)] < until || p + 1 == parts);
             ++rank) {
            const std::size_t own = m_stops->rankChanges(rank).size();
            snapshots += own / minGap;
            values += 4 * own + (3 + kMaps) * (own / minGap);
        }
        part.endRank = rank;
        part.snapshots = makeRoom<Snapshot>(snapshots);
        part.values = makeRoom<std::uint16_t>(m_wide ? 2 * values : values);
    }
    const auto buildPart = [this, minGap](Part &part) {
        RankBuilder builder(*this, part, minGap);
        for (int r = part.firstRank; r < part.endRank; ++r)
            builder.build(r);
    };
    // The first part on this thread, the others each on a thread of its own (or here, when the
    // system has none to give).
    std::vector<std::thread> helpers;
    helpers.reserve(parts - 1);
    std::vector<std::exception_ptr> errors(parts);
    std::vector<bool> started(parts, false);
    for (std::size_t p = 1; p < parts; ++p) {
        try {
            helpers.emplace_back([&buildPart, &errors, part = &m_parts[p], p] {
                try {
                    buildPart(*part);
                } catch (...) {
                    errors[p] = std::current_exception();
                }
            });
            started[p] = true;
        } catch (const std::system_error &) {
        }
    }
    for (std::size_t p = 0; p < parts; ++p) {
        if (p > 0 && started[p])
            continue;
        try {
            buildPart(m_parts[p]);
        } catch (...) {
            errors[p] = std::current_exception();
        }
    }
    for (std::thread &helper : helpers)
        helper.join();
    for (const std::exception_ptr &error : errors)
        if (error)
            std::rethrow_exception(error);
    for (const Part &part : m_parts)
        m_snapshotCount += part.snapshotCount;
}

void Replayer::setLink(std::size_t at, Link link)
{
    if (m_wide) {
        m_links[2 * at] = link.order;
        m_links[2 * at + 1] = link.previous;
    } else {
        m_links[at] = link.order << 16 | link.previous;
    }
}

} // namespace rankstep::replay
