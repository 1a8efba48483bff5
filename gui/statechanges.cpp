// SPDX-License-Identifier: MIT
#include "statechanges.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

const replay::MapEntry *findKey(const std::vector<replay::MapEntry> &entries, const core::Key &key)
{
    for (const auto &entry : entries)
        if (entry.key() == key)
            return &entry;
    return nullptr;
}

// Whether the rank's last event before the change was communication (looking back a bounded
// number of events: other ranks' events can sit in between when a collective completes).
bool cameByCommunication(const core::Trace &trace, const core::StorageChange &change)
{
    constexpr std::size_t kLookBack = 512;
    std::size_t e = std::min(change.eventCount, trace.events.size());
    for (std::size_t steps = 0; e > 0 && steps < kLookBack; --e, ++steps)
        if (trace.events[e - 1].rank == change.rank)
            return core::isCommunication(trace.events[e - 1].op);
    return false;
}

} // namespace

StateChanges::StateChanges(const replay::RunState &before, const replay::RunState &now,
                           const core::Trace *trace)
    : m_fresh(now.ranks.size())
    , m_gone(before.ranks.size())
    , m_arrived(now.ranks.size())
    , m_any(before.ranks.size() != now.ranks.size())
{
    for (std::size_t r = 0; r < now.ranks.size(); ++r)
        compare(r, r < before.ranks.size() ? &before.ranks[r] : nullptr, now.ranks[r], trace);
}

void StateChanges::compare(std::size_t rank, const replay::RankState *before,
                           const replay::RankState &now, const core::Trace *trace)
{
    for (std::size_t m = 0; m < std::size_t(core::kMapCount); ++m) {
        const auto &entries = now.maps[m];
        for (const auto &entry : entries) {
            const replay::MapEntry *old = before ? findKey(before->maps[m], entry.key()) : nullptr;
            const bool fresh = !old || old->change != entry.change;
            m_fresh[rank][m].push_back(fresh);
            m_arrived[rank][m].push_back(fresh && trace &&
                                         cameByCommunication(*trace, *entry.change));
            m_any = m_any || fresh;
        }
        if (!before)
            continue;
        for (const auto &entry : before->maps[m]) {
            const replay::MapEntry *current = findKey(entries, entry.key());
            const bool gone = !current || current->change != entry.change;
            m_gone[rank][m].push_back(gone);
            m_any = m_any || gone;
        }
    }
}

bool StateChanges::flag(const std::vector<Flags> &flags, int rank, core::MapKind map,
                        std::size_t index)
{
    if (rank < 0 || std::size_t(rank) >= flags.size())
        return false;
    const std::vector<bool> &list = flags[std::size_t(rank)][std::size_t(map)];
    return index < list.size() && list[index];
}

bool StateChanges::fresh(int rank, core::MapKind map, std::size_t index) const
{
    return flag(m_fresh, rank, map, index);
}

bool StateChanges::gone(int rank, core::MapKind map, std::size_t index) const
{
    return flag(m_gone, rank, map, index);
}

bool StateChanges::arrived(int rank, core::MapKind map, std::size_t index) const
{
    return flag(m_arrived, rank, map, index);
}

} // namespace rankstep::gui
