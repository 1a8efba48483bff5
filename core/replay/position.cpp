// SPDX-License-Identifier: MIT
#include "position.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <ranges>
#include <utility>
#include <vector>

namespace rankstep::replay {

namespace {

// The stop at which a slice ended.
std::size_t sliceEnd(const core::Slice &slice)
{
    return std::size_t(slice.eventEnd) + slice.changeEnd;
}

} // namespace

StopPoints::StopPoints(const core::Trace &trace) : m_trace(&trace)
{
    buildChanges();
    buildSliceStops();
    buildOperations(); // and the ranks' events, the time stops and the boundaries with them
    buildMarkCuts();
    // A mark holds the events and changes made before draw() was called: a prefix of the order.
    for (const core::Mark &mark : m_trace->marks)
        m_markStops.push_back(
            std::min(stopOf(Position{mark.eventCount, mark.changeCount}), last()));
}

void StopPoints::buildChanges()
{
    const auto &changes = m_trace->changes;
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    // The changes before each event, and each rank's count of them, in one pass over the changes
    // (56 bytes each), which keeps their ranks in 2 bytes each for the pass that lists them.
    std::vector<std::uint32_t> counts(ranks);
    std::unique_ptr<std::uint16_t[]> owners;
    if (ranks <= 0x10000U)
        owners = std::make_unique_for_overwrite<std::uint16_t[]>(changes.size());
    const auto count = [&](std::size_t c) {
        const auto rank = std::size_t(changes[c].rank);
        ++counts[rank];
        if (owners)
            owners[c] = std::uint16_t(rank);
    };
    m_changesBefore.resize(m_trace->events.size());
    std::size_t change = 0;
    for (std::size_t event = 0; event < m_changesBefore.size(); ++event) {
        // The changes made before this event was recorded come first.
        for (; change < changes.size() && changes[change].eventCount <= event; ++change)
            count(change);
        m_changesBefore[event] = std::uint32_t(change);
    }
    for (; change < changes.size(); ++change)
        count(change);
    // Each rank's list made at its size: grown by doubling, 16,384 ranks' lists copied their
    // items about twice and held twice the room at times.
    m_rankChanges.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r)
        m_rankChanges[r].reserve(counts[r]);
    for (std::size_t c = 0; c < changes.size(); ++c)
        m_rankChanges[owners ? owners[c] : std::size_t(changes[c].rank)].push_back(
            std::uint32_t(c));
}

void StopPoints::buildSliceStops()
{
    // Each slice's end is read from the trace's slices (a list of them here took 62 MB at 16,384
    // ranks); the distinct ones are kept.
    m_sliceStops.reserve(m_trace->slices.size());
    for (const core::Slice &slice : m_trace->slices)
        m_sliceStops.push_back(sliceEnd(slice));
    m_sliceStops.erase(std::unique(m_sliceStops.begin(), m_sliceStops.end()), m_sliceStops.end());
}

void StopPoints::buildMarkCuts()
{
    for (const core::Mark &mark : m_trace->marks) {
        if (mark.rank < 0 || mark.rank >= int(m_rankEvents.size())) {
            // Code outside any rank: after every event made before it ended.
            core::SimTime time;
            for (std::size_t e = 0; e < std::min(mark.eventCount, m_trace->events.size()); ++e)
                time = std::max(time, m_trace->events[e].end());
            const OrderKey bound =
                mark.eventCount == 0 ? OrderKey{time, -1, 0} : OrderKey::after(time);
            m_markCuts.push_back(MarkCut{time, bound});
            continue;
        }
        // The rank's clock: the end of its last event before the call (its clock never goes
        // back, so every event it made before ended by then and every later one starts after).
        const std::vector<std::uint32_t> &events = m_rankEvents[std::size_t(mark.rank)];
        const auto next = std::lower_bound(events.begin(), events.end(), mark.eventCount);
        const core::SimTime time =
            next == events.begin() ? core::SimTime() : m_trace->events[*std::prev(next)].end();
        m_markCuts.push_back(MarkCut{time, OrderKey{time, mark.rank, mark.eventCount}});
    }
}

std::size_t StopPoints::operationsBefore(const OrderKey &bound) const
{
    return std::size_t(std::partition_point(m_operations.begin(), m_operations.end(),
                                            [&](std::size_t e) { return key(e) < bound; }) -
                       m_operations.begin());
}

RankCut StopPoints::rankCut(int rank, core::SimTime time, const OrderKey &bound) const
{
    // A rank's clock never goes back, so its events start, end and are ordered in its order:
    // the ones ordered before the bound are a prefix of them, all ended but the last.
    const std::vector<std::uint32_t> &events = m_rankEvents[std::size_t(rank)];
    const auto applied = std::partition_point(events.begin(), events.end(),
                                              [&](std::size_t e) { return key(e) < bound; });
    if (applied != events.begin()) {
        const std::size_t last = *std::prev(applied);
        if (time < m_trace->events[last].end()) // started, its result not stored yet
            return RankCut{last + 1, changesBefore(last), true};
    }
    if (applied == events.end())
        return RankCut{m_trace->events.size(), m_trace->changes.size(), false};
    return RankCut{*applied, changesBefore(*applied), false};
}

std::size_t StopPoints::cutStop(core::SimTime time, const OrderKey &bound) const
{
    // stopHolding(rank, rankCut(rank, time, bound)) for every rank, with one search a rank
    // where that takes three (a step of a run of 16,384 ranks makes this loop): a running
    // event's stop holds the rank's changes before it; otherwise the rank's changes up to its
    // next event count too.
    std::size_t stop = 0;
    for (std::size_t rank = 0; rank < m_rankEvents.size(); ++rank) {
        const std::vector<std::uint32_t> &events = m_rankEvents[rank];
        const std::vector<std::uint32_t> &changes = m_rankChanges[rank];
        const auto applied = std::partition_point(events.begin(), events.end(),
                                                  [&](std::size_t e) { return key(e) < bound; });
        if (applied != events.begin()) {
            const std::size_t last = *std::prev(applied);
            stop = std::max(stop, afterEvent(last));
            if (time < m_trace->events[last].end())
                continue; // running: its changes before it are held already
        }
        const std::size_t before =
            applied == events.end() ? m_trace->changes.size() : changesBefore(*applied);
        const auto change = std::lower_bound(changes.begin(), changes.end(), before);
        if (change != changes.begin())
            stop = std::max(stop, afterChange(*std::prev(change)));
    }
    return stop;
}

std::size_t StopPoints::stopHolding(int rank, const RankCut &cut) const
{
    std::size_t stop = 0;
    const auto &events = m_rankEvents[std::size_t(rank)];
    const auto &changes = m_rankChanges[std::size_t(rank)];
    const auto event = std::lower_bound(events.begin(), events.end(), cut.events);
    if (event != events.begin())
        stop = std::max(stop, afterEvent(*std::prev(event)));
    const auto change = std::lower_bound(changes.begin(), changes.end(), cut.changes);
    if (change != changes.begin())
        stop = std::max(stop, afterChange(*std::prev(change)));
    return stop;
}

Position StopPoints::position(std::size_t stop) const
{
    stop = std::min(stop, last());
    // The events whose stops (increasing) are at or before it.
    const std::size_t events =
        *std::ranges::partition_point(std::views::iota(std::size_t(0), m_changesBefore.size()),
                                      [&](std::size_t event) { return afterEvent(event) <= stop; });
    return Position{events, stop - events};
}

std::size_t StopPoints::afterChange(std::size_t change) const
{
    return change + 1 + m_trace->changes[change].eventCount;
}

std::optional<std::size_t> StopPoints::sliceAt(std::size_t stop) const
{
    if (stop == 0)
        return std::nullopt;
    // The first slice ending at or after the stop began before it: slices partition the items.
    const auto &slices = m_trace->slices;
    const auto it = std::partition_point(
        slices.begin(), slices.end(), [stop](const core::Slice &s) { return sliceEnd(s) < stop; });
    if (it == slices.end())
        return std::nullopt;
    return std::size_t(it - slices.begin());
}

std::optional<core::SimTime> StopPoints::completeTime(std::size_t stop) const
{
    const auto it = std::upper_bound(m_timeStops.begin(), m_timeStops.end(), stop);
    if (it == m_timeStops.begin())
        return std::nullopt;
    return m_stopTimes[std::size_t(it - m_timeStops.begin()) - 1];
}

std::size_t nextStop(const std::vector<std::size_t> &stops, std::size_t stop, std::size_t last)
{
    const auto it = std::upper_bound(stops.begin(), stops.end(), stop);
    return it == stops.end() ? last : std::min(*it, last);
}

std::size_t previousStop(const std::vector<std::size_t> &stops, std::size_t stop)
{
    const auto it = std::lower_bound(stops.begin(), stops.end(), stop);
    return it == stops.begin() ? 0 : *std::prev(it);
}

} // namespace rankstep::replay
