// SPDX-License-Identifier: MIT
#include "patterntrace.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

namespace rankstep::gui::testing {
namespace {

// Small ids (the table by id), huge ones past the events' count (the map), none (-1).
std::int32_t randomLink(std::mt19937 &random)
{
    switch (random() % 4) {
        case 0:
            return -1;
        case 1:
            return std::int32_t(1) << 30 | std::int32_t(random() % 3);
        default:
            return std::int32_t(random() % 6);
    }
}

std::vector<core::Event> randomPattern(std::mt19937 &random, int calls, bool kindsAndLinks)
{
    std::vector<core::Event> pattern;
    std::int64_t clock = 0;
    for (int i = 0; i < calls; ++i) {
        core::Event event;
        clock += std::int64_t(random() % 3) * 250;
        event.start = core::SimTime::fromTicks(clock);
        event.duration = core::SimTime::fromTicks(std::int64_t(random() % 3) * 250);
        clock += event.duration.ticks();
        event.memory = std::int64_t(random() % 3) * 100;
        if (kindsAndLinks) {
            const core::OpKind ops[] = {core::OpKind::Forward, core::OpKind::PassTo,
                                        core::OpKind::Receive, core::OpKind::AllReduce,
                                        core::OpKind::BackwardInput};
            event.op = ops[random() % std::size(ops)];
            event.link = randomLink(random);
        }
        pattern.push_back(event);
    }
    return pattern;
}

} // namespace

core::Trace patternTrace(std::mt19937 &random, const PatternTraceShape &shape)
{
    core::Trace trace;
    trace.config.ranks = 2 + int(random() % unsigned(shape.extraRanks));
    const int patterns = 1 + int(random() % 3);
    const int calls = 1 + int(random() % unsigned(shape.mostCalls));
    std::vector<std::vector<core::Event>> byPattern;
    for (int i = 0; i < patterns; ++i)
        byPattern.push_back(randomPattern(random, calls, shape.kindsAndLinks));
    std::vector<std::vector<core::Event>> byRank;
    for (int rank = 0; rank < trace.config.ranks; ++rank) {
        std::vector<core::Event> events = byPattern[random() % unsigned(patterns)];
        for (core::Event &event : events)
            event.rank = rank;
        if (random() % 4 == 0) // one call holds something else
            events[random() % events.size()].memory += 50;
        if (!shape.inOrder && random() % 3 == 0)
            std::swap(events.front(), events.back());
        byRank.push_back(std::move(events));
    }
    std::vector<std::size_t> next(byRank.size(), 0);
    for (std::size_t left = std::size_t(trace.config.ranks) * std::size_t(calls); left > 0;
         --left) {
        std::size_t rank = random() % byRank.size();
        while (next[rank] == byRank[rank].size())
            rank = (rank + 1) % byRank.size();
        trace.events.push_back(byRank[rank][next[rank]++]);
        trace.figures.endTime = std::max(trace.figures.endTime, trace.events.back().end());
        if (random() % 3 == 0) { // a change after this call, which may be the rank's last
            core::StorageChange change;
            change.rank = trace.events.back().rank;
            change.eventCount = std::uint32_t(trace.events.size());
            change.memoryAfter = std::int64_t(random() % 2) * 100;
            trace.changes.append(change, std::nullopt);
        }
    }
    return trace;
}

} // namespace rankstep::gui::testing
