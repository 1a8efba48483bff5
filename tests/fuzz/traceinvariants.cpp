// SPDX-License-Identifier: MIT
#include "traceinvariants.h"

#include <cstdio>
#include <cstdlib>

namespace rankstep::fuzz {

void broken(const std::string &what)
{
    std::fprintf(stderr, "fuzzer: invariant broken: %s\n", what.c_str());
    std::abort();
}

std::vector<core::Storage> replayChanges(const core::Trace &trace)
{
    const int ranks = std::max(trace.config.ranks, 0);
    std::vector<core::Storage> replayed(std::size_t(ranks), core::Storage(trace.config.cost.sizes));
    for (const core::StorageChange &change : trace.changes) {
        if (change.rank < 0 || change.rank >= ranks)
            broken("a storage change of rank " + std::to_string(change.rank));
        core::Storage &storage = replayed[std::size_t(change.rank)];
        if (const core::Object *object = trace.changes.object(change))
            storage.set(change.map, change.key, object);
        else if (!storage.erase(change.map, change.key))
            broken("a recorded delete of a key that was not there");
        if (storage.memory() != change.memoryAfter)
            broken("a change's memoryAfter differs from its replay");
    }
    return replayed;
}

void checkTrace(const core::Trace &trace)
{
    std::vector<core::SimTime> clock(std::size_t(std::max(trace.config.ranks, 0)));
    for (const core::Event &event : trace.events) {
        if (event.rank < 0 || event.rank >= int(clock.size()))
            broken("an event of rank " + std::to_string(event.rank));
        if (event.start < clock[std::size_t(event.rank)])
            broken("rank " + std::to_string(event.rank) +
                   ": an event starts before its previous one ended");
        clock[std::size_t(event.rank)] = event.end();
    }
    std::size_t next = 0;
    for (const core::Slice &slice : trace.slices) {
        if (slice.eventBegin != next || slice.eventEnd < slice.eventBegin)
            broken("slices do not cover the events in order");
        next = slice.eventEnd;
    }
    if (!trace.slices.empty() && next != trace.events.size())
        broken("the last slice does not end at the last event");
    if ((trace.status == core::RunStatus::Ok) != !trace.error)
        broken("status and error disagree");
}

} // namespace rankstep::fuzz
