// SPDX-License-Identifier: MIT
#include "statechanges.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace rankstep::gui {
namespace {

// A map's entries by key: comparing two maps of n entries costs O(n), not O(n^2).
class KeyIndex
{
public:
    explicit KeyIndex(const std::vector<replay::MapEntry> &entries)
    {
        m_byKey.reserve(entries.size());
        for (const auto &entry : entries)
            m_byKey.emplace(entry.key(), &entry);
    }
    const replay::MapEntry *find(const core::Key &key) const
    {
        const auto it = m_byKey.find(key);
        return it == m_byKey.end() ? nullptr : it->second;
    }

private:
    std::unordered_map<core::Key, const replay::MapEntry *, core::KeyHash> m_byKey;
};

std::vector<int> allRanks(const replay::RunState &state)
{
    std::vector<int> ranks(state.ranks.size());
    std::iota(ranks.begin(), ranks.end(), 0);
    return ranks;
}

// Whether the rank's last event before the change was communication (looking back a bounded
// number of events: other ranks' events can sit in between when a collective completes).
bool cameByCommunication(const core::Trace &trace, const core::StorageChange &change)
{
    constexpr std::size_t kLookBack = 512;
    std::size_t e = std::min(std::size_t(change.eventCount), trace.events.size());
    for (std::size_t steps = 0; e > 0 && steps < kLookBack; --e, ++steps)
        if (trace.events[e - 1].rank == change.rank)
            return core::isCommunication(trace.events[e - 1].op);
    return false;
}

} // namespace

StateChanges::StateChanges(const replay::RunState &before, const replay::RunState &now,
                           const core::Trace *trace)
    : StateChanges(before, now, trace, allRanks(now))
{}

StateChanges::StateChanges(const replay::RunState &before, const replay::RunState &now,
                           const core::Trace *trace, const std::vector<int> &ranks)
    : m_fresh(now.ranks.size())
    , m_gone(before.ranks.size())
    , m_arrived(now.ranks.size())
    , m_rankChanged(now.ranks.size())
    , m_any(before.ranks.size() != now.ranks.size())
{
    for (int rank : ranks) {
        const auto r = std::size_t(rank);
        if (rank >= 0 && r < now.ranks.size())
            compare(r, r < before.ranks.size() ? &before.ranks[r] : nullptr, now.ranks[r], trace);
    }
}

void StateChanges::compare(std::size_t rank, const replay::RankState *before,
                           const replay::RankState &now, const core::Trace *trace)
{
    for (std::size_t m = 0; m < std::size_t(core::kMapCount); ++m) {
        const auto &entries = now.maps[m];
        const std::optional<KeyIndex> beforeIndex =
            before ? std::optional<KeyIndex>(before->maps[m]) : std::nullopt;
        for (const auto &entry : entries) {
            const replay::MapEntry *old = beforeIndex ? beforeIndex->find(entry.key()) : nullptr;
            const bool fresh = !old || old->change != entry.change;
            m_fresh[rank][m].push_back(fresh);
            m_arrived[rank][m].push_back(fresh && trace &&
                                         cameByCommunication(*trace, *entry.change));
            m_any = m_any || fresh;
            m_count += fresh;
            m_rankChanged[rank] = m_rankChanged[rank] || fresh;
        }
        if (!before)
            continue;
        const KeyIndex nowIndex(entries);
        for (const auto &entry : before->maps[m]) {
            const replay::MapEntry *current = nowIndex.find(entry.key());
            const bool gone = !current || current->change != entry.change;
            m_gone[rank][m].push_back(gone);
            m_any = m_any || gone;
            m_count += gone;
            m_rankChanged[rank] = m_rankChanged[rank] || gone;
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

bool StateChanges::anyFor(int rank) const
{
    return rank >= 0 && std::size_t(rank) < m_rankChanged.size() &&
           m_rankChanged[std::size_t(rank)];
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
