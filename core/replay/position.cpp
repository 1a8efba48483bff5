// SPDX-License-Identifier: MIT
#include "position.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <ranges>
#include <utility>
#include <vector>

namespace rankstep::replay {

namespace {

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
    std::uint32_t event() const { return std::uint32_t(order & 0xffffffffU); }
};

// The stop at which a slice ended.
std::size_t sliceEnd(const core::Slice &slice)
{
    return std::size_t(slice.eventEnd) + slice.changeEnd;
}

// Times from `lowest` to `highest` in buckets of equal width, a power of two of ticks: about one
// for every eight of `items` (at most 2^22, so that the counts stay 16 MiB). Sorting by bucket
// first is a counting sort, one pass that keeps the order within a bucket; a bucket then holds a
// few items, sorted in cache.
class TimeBuckets
{
public:
    TimeBuckets(std::int64_t lowest, std::int64_t highest, std::size_t items)
        : m_lowest(std::uint64_t(lowest))
    {
        const std::size_t most = std::clamp<std::size_t>(items / 8, 1, std::size_t(1) << 22);
        const std::uint64_t range = std::uint64_t(highest) - m_lowest; // highest >= lowest
        while ((range >> m_shift) >= most)
            ++m_shift;
        m_count = std::size_t(range >> m_shift) + 1;
    }
    std::size_t count() const { return m_count; }
    std::size_t of(core::SimTime time) const
    {
        return std::size_t((std::uint64_t(time.ticks()) - m_lowest) >> m_shift);
    }

private:
    std::uint64_t m_lowest;
    int m_shift = 0;
    std::size_t m_count = 0;
};

// Bucket b's items are list[first[b - 1], first[b]) once they are placed (first[-1] = 0): counts
// made into the start of each bucket, which placing an item moves on by one.
void countsToStarts(std::vector<std::uint32_t> &first)
{
    std::uint32_t sum = 0;
    for (std::uint32_t &count : first)
        sum += std::exchange(count, sum);
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
    // The changes before each event, and each rank's count of them, in one pass over the changes.
    std::vector<std::uint32_t> counts(ranks);
    m_changesBefore.resize(m_trace->events.size());
    std::size_t change = 0;
    for (std::size_t event = 0; event < m_changesBefore.size(); ++event) {
        // The changes made before this event was recorded come first.
        for (; change < changes.size() && changes[change].eventCount <= event; ++change)
            ++counts[std::size_t(changes[change].rank)];
        m_changesBefore[event] = std::uint32_t(change);
    }
    for (; change < changes.size(); ++change)
        ++counts[std::size_t(changes[change].rank)];
    // Each rank's list made at its size: grown by doubling, 16,384 ranks' lists copied their
    // items about twice and held twice the room at times.
    m_rankChanges.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r)
        m_rankChanges[r].reserve(counts[r]);
    for (std::size_t c = 0; c < changes.size(); ++c)
        m_rankChanges[std::size_t(changes[c].rank)].push_back(std::uint32_t(c));
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

void StopPoints::buildOperations()
{
    const auto &events = m_trace->events;
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    m_rankEvents.resize(ranks);
    if (events.empty())
        return;
    // Three passes over the events in the trace's order, none through each rank's list (a rank's
    // events lie far apart in the trace, so that walk waited on memory for every event), and no
    // list of every event's key: each rank's count and the range of the times; each rank's
    // events and each bucket's count; each event placed in its buckets of start and of end.
    std::vector<std::uint32_t> counts(ranks);
    std::int64_t earliest = events.front().start.ticks(), latest = earliest;
    std::int64_t earliestEnd = events.front().end().ticks(), latestEnd = earliestEnd;
    for (const core::Event &event : events) {
        ++counts[std::size_t(event.rank)];
        earliest = std::min(earliest, event.start.ticks());
        latest = std::max(latest, event.start.ticks());
        earliestEnd = std::min(earliestEnd, event.end().ticks());
        latestEnd = std::max(latestEnd, event.end().ticks());
    }
    for (std::size_t r = 0; r < ranks; ++r)
        m_rankEvents[r].reserve(counts[r]);
    counts = {};
    const TimeBuckets byStart(earliest, latest, events.size());
    const TimeBuckets byEnd(earliestEnd, latestEnd, events.size());
    std::vector<std::uint32_t> startFirst(byStart.count()), endFirst(byEnd.count());
    for (std::size_t e = 0; e < events.size(); ++e) {
        m_rankEvents[std::size_t(events[e].rank)].push_back(std::uint32_t(e));
        ++startFirst[byStart.of(events[e].start)];
        ++endFirst[byEnd.of(events[e].end())];
    }
    countsToStarts(startFirst);
    countsToStarts(endFirst);
    m_operations.resize(events.size());
    std::vector<std::uint32_t> endOrder(events.size());
    for (std::size_t e = 0; e < events.size(); ++e) {
        m_operations[startFirst[byStart.of(events[e].start)]++] = std::uint32_t(e);
        endOrder[endFirst[byEnd.of(events[e].end())]++] = std::uint32_t(e);
    }
    const std::vector<core::SimTime> starts = orderBuckets(startFirst);
    startFirst = {};
    std::vector<core::SimTime> ends = distinctEnds(endOrder, endFirst);
    endOrder = {};
    // Every distinct start and end, and 0.
    const auto zero = std::lower_bound(ends.begin(), ends.end(), core::SimTime());
    if (zero == ends.end() || *zero != core::SimTime())
        ends.insert(zero, core::SimTime());
    m_boundaries.reserve(starts.size() + ends.size());
    std::set_union(starts.begin(), starts.end(), ends.begin(), ends.end(),
                   std::back_inserter(m_boundaries));
}

std::vector<core::SimTime> StopPoints::orderBuckets(const std::vector<std::uint32_t> &bucketEnds)
{
    // Each bucket of starts sorted by (start, rank, index), and the time step found in the same
    // walk: in the order of start, each start time needs the prefix holding every event that
    // starts by then (equal starts taken together, and they share a bucket).
    const auto &events = m_trace->events;
    std::vector<core::SimTime> starts; // each distinct start
    std::vector<StartKey> keys;
    std::size_t reach = 0, begin = 0;
    for (const std::uint32_t end : bucketEnds) {
        keys.clear();
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t event = m_operations[i];
            keys.push_back(StartKey{events[event].start.ticks(),
                                    std::uint64_t(events[event].rank) << 32 | event});
        }
        if (!std::is_sorted(keys.begin(), keys.end()))
            std::sort(keys.begin(), keys.end());
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const std::uint32_t event = keys[k].event();
            m_operations[begin + k] = event;
            reach = std::max(reach, afterEvent(event));
            if (k + 1 < keys.size() && keys[k + 1].start == keys[k].start)
                continue;
            const core::SimTime start = core::SimTime::fromTicks(keys[k].start);
            starts.push_back(start);
            // Several start times can need the same prefix: the stop keeps the largest of them.
            if (!m_timeStops.empty() && m_timeStops.back() == reach) {
                m_stopTimes.back() = start;
            } else {
                m_timeStops.push_back(reach);
                m_stopTimes.push_back(start);
            }
        }
        begin = end;
    }
    return starts;
}

std::vector<core::SimTime> StopPoints::distinctEnds(
    const std::vector<std::uint32_t> &order, const std::vector<std::uint32_t> &bucketEnds) const
{
    const auto &events = m_trace->events;
    std::vector<core::SimTime> ends, bucket;
    std::size_t begin = 0;
    for (const std::uint32_t end : bucketEnds) {
        bucket.clear();
        for (std::size_t i = begin; i < end; ++i)
            bucket.push_back(events[order[i]].end());
        std::sort(bucket.begin(), bucket.end());
        bucket.erase(std::unique(bucket.begin(), bucket.end()), bucket.end());
        ends.insert(ends.end(), bucket.begin(), bucket.end());
        begin = end;
    }
    return ends;
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
