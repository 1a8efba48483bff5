// SPDX-License-Identifier: MIT
#include "state.h"

#include <algorithm>

namespace rankstep::replay {
namespace {

void applyChange(RankState &rank, const core::ChangeLog &log, const core::StorageChange &change)
{
    std::vector<MapEntry> &map = rank.maps[std::size_t(change.map)];
    const auto it = std::find_if(map.begin(), map.end(),
                                 [&](const MapEntry &e) { return e.key() == change.key; });
    if (!change.isSet()) {
        if (it != map.end())
            map.erase(it);
    } else if (it != map.end()) {
        *it = MapEntry{&change, log.object(change)}; // a set keeps the key's place
    } else {
        map.push_back(MapEntry{&change, log.object(change)});
    }
    rank.memory = change.memoryAfter;
    rank.line = change.line;
}

} // namespace

RunState stateAt(const core::Trace &trace, const Cursor &cursor)
{
    RunState state;
    state.position = cursor.position();
    state.event = cursor.lastEvent();
    state.cut = cursor.cut();
    state.time = cursor.time();
    state.ranks.resize(std::size_t(std::max(trace.config.ranks, 0)));
    std::vector<RankCut> cuts;
    for (int r = 0; r < int(state.ranks.size()); ++r)
        cuts.push_back(cursor.rankCut(r));
    std::size_t change = 0;
    for (std::size_t event = 0; event <= trace.events.size(); ++event) {
        // Changes recorded before `event`, then the event itself, each within its rank's cut.
        for (; change < trace.changes.size() && trace.changes[change].eventCount <= event;
             ++change) {
            const core::StorageChange &c = trace.changes[change];
            if (change < cuts[std::size_t(c.rank)].changes)
                applyChange(state.ranks[std::size_t(c.rank)], trace.changes, c);
        }
        if (event == trace.events.size())
            break;
        const core::Event &e = trace.events[event];
        if (event >= cuts[std::size_t(e.rank)].events)
            continue;
        RankState &rank = state.ranks[std::size_t(e.rank)];
        rank.event = event;
        // The line of whichever came last: a change after this event sets its own.
        rank.line = e.line;
    }
    for (std::size_t r = 0; r < state.ranks.size(); ++r) {
        RankState &rank = state.ranks[r];
        rank.running = cuts[r].running;
        if (cursor.cut())
            rank.clock = *cursor.cut();
        else if (rank.event)
            rank.clock =
                rank.running ? trace.events[*rank.event].start : trace.events[*rank.event].end();
    }
    return state;
}

} // namespace rankstep::replay
