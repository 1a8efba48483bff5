// SPDX-License-Identifier: MIT
#include "position.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <utility>
#include <vector>

namespace rankstep::replay {

namespace {

// Sorts `values`, made of runs that are each in order already (run i starts at runs[i]), by
// merging neighbouring runs pairwise: n log(runs) rather than n log n. A rank's clock never goes
// back, so its events' times make such a run; a run out of order anyway is sorted first. Each
// round merges from one array into the other (`values` and one buffer made once): merging in
// place took a fresh buffer for every merge, and at 16,384 ranks the kernel's zeroing of their
// pages was the largest part of an open. Stable, as std::inplace_merge is.
template <typename T, typename Less>
void mergeRuns(std::vector<T> &values, std::vector<std::size_t> runs, Less less)
{
    runs.push_back(values.size());
    const auto at = [&values](std::size_t i) {
        return values.begin() + std::ptrdiff_t(i);
    };
    for (std::size_t r = 0; r + 1 < runs.size(); ++r)
        if (!std::is_sorted(at(runs[r]), at(runs[r + 1]), less))
            std::sort(at(runs[r]), at(runs[r + 1]), less);
    if (runs.size() <= 2)
        return;
    std::vector<T> buffer(values.size());
    T *from = values.data();
    T *to = buffer.data();
    while (runs.size() > 2) {
        std::vector<std::size_t> merged;
        merged.reserve(runs.size() / 2 + 2);
        std::size_t r = 0;
        for (; r + 2 < runs.size(); r += 2) {
            std::merge(from + runs[r], from + runs[r + 1], from + runs[r + 1], from + runs[r + 2],
                       to + runs[r], less);
            merged.push_back(runs[r]);
        }
        if (r + 1 < runs.size()) { // an odd run left over
            std::copy(from + runs[r], from + runs[r + 1], to + runs[r]);
            merged.push_back(runs[r]);
        }
        merged.push_back(values.size());
        runs = std::move(merged);
        std::swap(from, to);
    }
    if (from != values.data())
        values.swap(buffer);
}

// An event's place in the order of simulated start (OrderKey) in 16 bytes, so that sorting
// compares neighbours in memory instead of looking each event up: its start, then its rank and
// its index (an index is below 2^32, core/trace.h kMostTraceEvents).
struct StartKey {
    std::int64_t start = 0;
    std::uint64_t order = 0; // rank << 32 | event
    bool operator<(const StartKey &other) const
    {
        return start < other.start || (start == other.start && order < other.order);
    }
    std::size_t event() const { return std::size_t(order & 0xffffffffU); }
};

// The stop at which a slice ended.
std::size_t sliceEnd(const core::Slice &slice)
{
    return std::size_t(slice.eventEnd) + slice.changeEnd;
}

} // namespace

StopPoints::StopPoints(const core::Trace &trace) : m_trace(&trace)
{
    buildEventStops();
    buildSliceStops();
    buildRanks();      // the operations merge the ranks' own orders
    buildOperations(); // and the time stops and the boundaries' starts with them
    buildMarkCuts();
    // A mark holds the events and changes made before draw() was called: a prefix of the order.
    for (const core::Mark &mark : m_trace->marks)
        m_markStops.push_back(
            std::min(stopOf(Position{mark.eventCount, mark.changeCount}), last()));
}

void StopPoints::buildEventStops()
{
    const auto &changes = m_trace->changes;
    m_eventStops.resize(m_trace->events.size());
    std::size_t change = 0;
    for (std::size_t event = 0; event < m_eventStops.size(); ++event) {
        // The changes made before this event was recorded come first.
        while (change < changes.size() && changes[change].eventCount <= event)
            ++change;
        m_eventStops[event] = event + 1 + change;
    }
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

void StopPoints::buildRanks()
{
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    // Each rank's list made at its size: grown by doubling, 16,384 ranks' lists copied their
    // items about twice and held twice the room at times.
    std::vector<std::size_t> events(ranks), changes(ranks);
    for (const core::Event &event : m_trace->events)
        ++events[std::size_t(event.rank)];
    for (const core::StorageChange &change : m_trace->changes)
        ++changes[std::size_t(change.rank)];
    m_rankEvents.resize(ranks);
    m_rankChanges.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) {
        m_rankEvents[r].reserve(events[r]);
        m_rankChanges[r].reserve(changes[r]);
    }
    std::size_t i = 0;
    for (const core::Event &event : m_trace->events)
        m_rankEvents[std::size_t(event.rank)].push_back(i++);
    i = 0;
    for (const core::StorageChange &change : m_trace->changes)
        m_rankChanges[std::size_t(change.rank)].push_back(std::uint32_t(i++));
}

void StopPoints::buildOperations()
{
    if (m_trace->events.empty())
        return;
    // Every event by (start, rank, index), each rank's own order one sorted run.
    std::vector<StartKey> keys;
    keys.reserve(m_trace->events.size());
    std::vector<std::size_t> runs;
    for (std::size_t rank = 0; rank < m_rankEvents.size(); ++rank) {
        runs.push_back(keys.size());
        for (const std::size_t event : m_rankEvents[rank])
            keys.push_back(
                StartKey{m_trace->events[event].start.ticks(), std::uint64_t(rank) << 32 | event});
    }
    mergeRuns(keys, std::move(runs), std::less<>());
    m_operations.resize(keys.size());
    // The time step: in the order of start, each start time needs the prefix holding every event
    // that starts by then (equal starts taken together).
    std::vector<core::SimTime> starts; // each distinct start
    std::size_t reach = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::size_t event = keys[i].event();
        m_operations[i] = event;
        reach = std::max(reach, m_eventStops[event]);
        if (i + 1 < keys.size() && keys[i + 1].start == keys[i].start)
            continue;
        const core::SimTime start = core::SimTime::fromTicks(keys[i].start);
        starts.push_back(start);
        // Several start times can need the same prefix: the stop keeps the largest of them.
        if (!m_timeStops.empty() && m_timeStops.back() == reach) {
            m_stopTimes.back() = start;
        } else {
            m_timeStops.push_back(reach);
            m_stopTimes.push_back(start);
        }
    }
    keys = {};
    // Each rank's ends, in its order: start, end, next start... make one sorted run a rank, so
    // its ends do too. (Made once the keys are given back: the two are the largest lists here.)
    std::vector<core::SimTime> ends{core::SimTime()}; // and 0, a run of its own
    ends.reserve(m_trace->events.size() + 1);
    std::vector<std::size_t> endRuns{0};
    for (const std::vector<std::size_t> &events : m_rankEvents) {
        endRuns.push_back(ends.size());
        for (const std::size_t event : events)
            ends.push_back(m_trace->events[event].end());
    }
    // Every distinct start and end, and 0 (the starts are distinct already).
    mergeRuns(ends, std::move(endRuns), std::less<>());
    ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
    m_boundaries.reserve(starts.size() + ends.size());
    std::set_union(starts.begin(), starts.end(), ends.begin(), ends.end(),
                   std::back_inserter(m_boundaries));
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
        const std::vector<std::size_t> &events = m_rankEvents[std::size_t(mark.rank)];
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
    const std::vector<std::size_t> &events = m_rankEvents[std::size_t(rank)];
    const auto applied = std::partition_point(events.begin(), events.end(),
                                              [&](std::size_t e) { return key(e) < bound; });
    // The changes made before an event was recorded: the stop after it, less the events.
    const auto changesBefore = [this](std::size_t event) {
        return m_eventStops[event] - event - 1;
    };
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
        const std::vector<std::size_t> &events = m_rankEvents[rank];
        const std::vector<std::uint32_t> &changes = m_rankChanges[rank];
        const auto applied = std::partition_point(events.begin(), events.end(),
                                                  [&](std::size_t e) { return key(e) < bound; });
        if (applied != events.begin()) {
            const std::size_t last = *std::prev(applied);
            stop = std::max(stop, afterEvent(last));
            if (time < m_trace->events[last].end())
                continue; // running: its changes before it are held already
        }
        const std::size_t before = applied == events.end() ? m_trace->changes.size()
                                                           : m_eventStops[*applied] - *applied - 1;
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
    const auto applied = std::upper_bound(m_eventStops.begin(), m_eventStops.end(), stop);
    const auto events = std::size_t(applied - m_eventStops.begin());
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
