// SPDX-License-Identifier: MIT
#include "state.h"

#include <algorithm>

namespace rankstep::replay {
namespace {

void applyChange(RankState &rank, const core::StorageChange &change)
{
    std::vector<MapEntry> &map = rank.maps[std::size_t(change.map)];
    const auto it = std::find_if(map.begin(), map.end(),
                                 [&](const MapEntry &e) { return e.key() == change.key; });
    if (!change.object) {
        if (it != map.end())
            map.erase(it);
    } else if (it != map.end()) {
        it->change = &change; // a set keeps the key's place
    } else {
        map.push_back(MapEntry{&change});
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
    state.ranks.resize(std::size_t(std::max(trace.config.ranks, 0)));
    std::size_t change = 0;
    bool eventLast = false; // the last applied item is an event
    for (std::size_t event = 0; event <= state.position.events; ++event) {
        // Changes recorded before `event`, then the event itself.
        for (; change < state.position.changes && trace.changes[change].eventCount <= event;
             ++change) {
            const core::StorageChange &c = trace.changes[change];
            applyChange(state.ranks[std::size_t(c.rank)], c);
            eventLast = false;
        }
        if (event == state.position.events)
            break;
        const core::Event &e = trace.events[event];
        RankState &rank = state.ranks[std::size_t(e.rank)];
        rank.event = event;
        rank.line = e.line;
        eventLast = true;
    }
    for (RankState &rank : state.ranks) {
        if (!rank.event)
            continue;
        const core::Event &e = trace.events[*rank.event];
        rank.running = eventLast && rank.event == state.event;
        rank.clock = rank.running ? e.start : e.end();
    }
    return state;
}

} // namespace rankstep::replay
