// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"
#include "timelinegeometry.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rankstep::gui {

// What one pass over a run's events tells several views before they make their parts: how many
// events each rank has (indexByRank), when the last one ends (rankHeat) and which kinds the legend
// names (hasSplitBackward, hasAllToAll). At 16,384 ranks a pass over the 18 million events takes
// about a sixth of a second; each view made its own.
struct TraceScan {
    std::vector<std::uint32_t> eventsOfRank; // config.ranks of them, or more if events say so
    core::SimTime end;                       // the latest end of an event; 0 without events
    bool splitBackward = false;              // hasSplitBackward
    bool allToAll = false;                   // hasAllToAll
};

TraceScan scanTrace(const core::Trace &trace);

// The parts below are each made in one or two walks over the events, handed a range of events at
// a time (in order, each event once, from the first to the last): an open walks the 18 million
// events of 16,384 ranks in blocks that stay in the processor's cache while every part reads them,
// instead of reading them from memory once for each part (1.6 GB a walk).
inline constexpr std::size_t kWalkBlock = 2048; // events, 180 kB

// Calls walk(from, to) for the events [0, count) in ranges of at most `block` (at least 1).
template <typename Walk>
void walkInBlocks(std::size_t count, std::size_t block, Walk &&walk)
{
    block = std::max<std::size_t>(block, 1);
    for (std::size_t from = 0; from < count; from += std::min(block, count - from))
        walk(from, from + std::min(block, count - from));
}

// scanTrace in one walk.
class TraceScanner
{
public:
    explicit TraceScanner(const core::Trace &trace);
    void walk(std::size_t from, std::size_t to); // events [from, to)
    TraceScan finish();

private:
    const core::Trace &m_trace;
    TraceScan m_scan;
};

// indexByRank with each rank's count of events known, in one walk.
class RankIndexMaker
{
public:
    RankIndexMaker(const core::Trace &trace, const std::vector<std::uint32_t> &eventsOfRank);
    void walk(std::size_t from, std::size_t to); // events [from, to)
    std::vector<RankEvents> finish();

private:
    // Whether a rank's events start, and end, in the trace's order so far.
    struct Order {
        core::SimTime start, end; // the rank's last event's
        bool kept = true;
    };
    const core::Trace &m_trace;
    std::vector<std::vector<std::uint32_t>> m_indices;
    std::vector<Order> m_order;
};

// messageLinks in two walks: the first finds each message's pass_to, the second its receives.
class MessageLinkMaker
{
public:
    explicit MessageLinkMaker(const core::Trace &trace);
    void firstWalk(std::size_t from, std::size_t to);  // events [from, to)
    void secondWalk(std::size_t from, std::size_t to); // the same, after the first saw them all
    std::vector<std::pair<std::size_t, std::size_t>> finish();

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFU;
    void send(std::int64_t link, std::size_t index);
    std::size_t sender(std::int64_t link) const; // kNone when no pass_to sent it

    const core::Trace &m_trace;
    // The first pass_to of each message: by id while ids stay below the events' count (a run's
    // messages are numbered from 0), the others in the map.
    std::vector<std::uint32_t> m_byId;
    std::unordered_map<std::int64_t, std::size_t> m_others;
    std::vector<std::pair<std::size_t, std::size_t>> m_links;
};

} // namespace rankstep::gui
