// SPDX-License-Identifier: MIT
// The stop points' orders of simulated time: every event in the order of its start (the
// operation step), the time step's stops and every distinct start and end (the boundaries). A
// counting sort into buckets of time, then a small sort inside each bucket (core/replay/keysorter),
// in passes over the events in the trace's order: a rank's events lie far apart in the trace
// (16,384 ranks at once), so a walk through each rank's list, or a look-up of each event's time
// from a bucket, waits on memory for nearly every event. The distinct ends are bits of their range
// where it is narrow.
#include "keysorter.h"
#include "position.h"
#include "timebuckets.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace rankstep::replay {

namespace {

// The most 64-bit words of the ends' bits: 16 MiB, as the most buckets' counts.
constexpr std::size_t kMostEndWords = std::size_t(1) << 21;

// Bucket b's items are list[first[b - 1], first[b]) once they are placed (first[-1] = 0): counts
// made into the start of each bucket, which placing an item moves on by one.
void countsToStarts(std::vector<std::uint32_t> &first)
{
    std::uint32_t sum = 0;
    for (std::uint32_t &count : first)
        sum += std::exchange(count, sum);
}

// An event's place in the order of simulated start (OrderKey) in 16 bytes: its start, then its
// rank and its index (an index is below 2^32, core/trace.h kMostTraceEvents).
struct StartKey {
    std::int64_t start = 0;
    std::uint64_t order = 0; // rank << 32 | event
    bool operator<(const StartKey &other) const
    {
        return start < other.start || (start == other.start && order < other.order);
    }
    std::uint32_t event() const { return std::uint32_t(order & 0xffffffffU); }
};

// A start in its bucket and a rank in 32 bits: offset << kRankBits | rank.
constexpr int kRankBits = 14;
static_assert(TimeBuckets::kNarrow + kRankBits == 32);

// What the passes over the events found: the buckets' layout and whether the narrow keys fit.
struct TimeOrder {
    std::vector<std::uint32_t> startEnds, endEnds; // where each bucket's items end
    bool narrowStarts = false; // the operations hold narrow keys (a start's offset and a rank)
    bool narrowEnds = false;   // the ends' list holds offsets, not events
};

// Each distinct end, ascending: bucket b's items are the ends endOf(b, i) for i from its start
// to bucketEnds[b].
template <typename EndOf>
std::vector<core::SimTime> sortedEnds(const std::vector<std::uint32_t> &bucketEnds, EndOf endOf)
{
    std::vector<core::SimTime> ends, bucket;
    std::size_t begin = 0;
    for (std::size_t b = 0; b < bucketEnds.size(); ++b) {
        bucket.clear();
        for (std::size_t i = begin; i < bucketEnds[b]; ++i)
            bucket.push_back(endOf(b, i));
        std::sort(bucket.begin(), bucket.end());
        bucket.erase(std::unique(bucket.begin(), bucket.end()), bucket.end());
        ends.insert(ends.end(), bucket.begin(), bucket.end());
        begin = bucketEnds[b];
    }
    return ends;
}

} // namespace

void StopPoints::buildOperations()
{
    const auto &events = m_trace->events;
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    m_rankEvents.resize(ranks);
    if (events.empty())
        return;
    // One pass: each rank's count, the range of the times, whether each rank's starts go forward,
    // and from the first event's start on (a run's earliest) the buckets' counts of starts and the
    // ends' bits, made as the range grows; a trace whose times go before it counts them again.
    std::vector<std::uint32_t> counts(ranks);
    std::vector<std::int64_t> lastStart(ranks, std::numeric_limits<std::int64_t>::min());
    bool forward = true;
    const std::int64_t origin = events.front().start.ticks();
    std::int64_t earliest = origin, latest = earliest;
    std::int64_t earliestEnd = events.front().end().ticks(), latestEnd = earliestEnd;
    GrowingCounts startCounts(origin, TimeBuckets::fewestMost(events.size()));
    GrowingBits endBits(origin, std::min<std::size_t>(events.size(), kMostEndWords));
    for (const core::Event &event : events) {
        const auto rank = std::size_t(event.rank);
        ++counts[rank];
        const std::int64_t start = event.start.ticks(), end = event.end().ticks();
        forward = forward && start >= lastStart[rank];
        lastStart[rank] = start;
        earliest = std::min(earliest, start);
        latest = std::max(latest, start);
        earliestEnd = std::min(earliestEnd, end);
        latestEnd = std::max(latestEnd, end);
        startCounts.add(event.start);
        endBits.add(event.end());
    }
    lastStart = {};
    const TimeBuckets byStart(startCounts.lost() ? earliest : origin, latest, events.size());
    const TimeBuckets byEnd(earliestEnd, endBits.lost() ? latestEnd : earliestEnd, events.size());
    TimeOrder order;
    order.startEnds = startCounts.countsIn(byStart);
    const bool countStarts = order.startEnds.empty();
    if (countStarts || endBits.lost()) {
        order.startEnds.resize(byStart.count());
        order.endEnds.resize(endBits.lost() ? byEnd.count() : 0);
        for (const core::Event &event : events) {
            if (countStarts)
                ++order.startEnds[byStart.of(event.start)];
            if (endBits.lost())
                ++order.endEnds[byEnd.of(event.end())];
        }
    }
    countsToStarts(order.startEnds);
    countsToStarts(order.endEnds);
    // Each event placed in its buckets. When every rank's starts go forward, a rank's events in
    // the order of start are its own list in order: a start's offset and the rank, sorted, say
    // which rank's next event comes, and the bucket needs no look-up of any event.
    order.narrowStarts =
        forward && ranks <= (1U << kRankBits) && byStart.shift() <= TimeBuckets::kNarrow;
    order.narrowEnds = byEnd.shift() <= 32;
    m_operations.resize(events.size());
    // (Every item is written below: the list is not filled with zeros first.)
    std::unique_ptr<std::uint32_t[]> ends;
    if (endBits.lost())
        ends = std::make_unique_for_overwrite<std::uint32_t[]>(events.size());
    // Each rank's events listed in the same pass.
    for (std::size_t r = 0; r < ranks; ++r)
        m_rankEvents[r].reserve(counts[r]);
    counts = {};
    for (std::size_t e = 0; e < events.size(); ++e) {
        const core::Event &event = events[e];
        m_rankEvents[std::size_t(event.rank)].push_back(std::uint32_t(e));
        m_operations[order.startEnds[byStart.of(event.start)]++] =
            order.narrowStarts
                ? byStart.offset(event.start) << kRankBits | std::uint32_t(event.rank)
                : std::uint32_t(e);
        if (ends)
            ends[order.endEnds[byEnd.of(event.end())]++] =
                order.narrowEnds ? byEnd.offset(event.end()) : std::uint32_t(e);
    }
    const std::vector<core::SimTime> starts =
        order.narrowStarts ? orderNarrow(order.startEnds,
                                         [&](std::size_t bucket, std::uint32_t at) {
                                             return byStart.time(bucket, at);
                                         })
                           : orderWide(order.startEnds);
    order.startEnds = {};
    std::vector<core::SimTime> distinctEnds =
        !endBits.lost()
            ? endBits.times()
            : sortedEnds(order.endEnds, [&](std::size_t b, std::size_t i) {
                  return order.narrowEnds ? byEnd.time(b, ends[i]) : events[ends[i]].end();
              });
    ends.reset();
    // Every distinct start and end, and 0.
    const auto zero = std::lower_bound(distinctEnds.begin(), distinctEnds.end(), core::SimTime());
    if (zero == distinctEnds.end() || *zero != core::SimTime())
        distinctEnds.insert(zero, core::SimTime());
    m_boundaries.reserve(starts.size() + distinctEnds.size());
    std::set_union(starts.begin(), starts.end(), distinctEnds.begin(), distinctEnds.end(),
                   std::back_inserter(m_boundaries));
}

void StopPoints::addStart(core::SimTime start, std::size_t latestEvent,
                          std::vector<core::SimTime> &starts)
{
    // Every event that starts by `start` is applied at the stop after the latest of them (the
    // stops after events grow with their index); several start times can need the same prefix,
    // and the stop keeps the largest of them.
    starts.push_back(start);
    const std::size_t reach = afterEvent(latestEvent);
    if (!m_timeStops.empty() && m_timeStops.back() == reach) {
        m_stopTimes.back() = start;
    } else {
        m_timeStops.push_back(reach);
        m_stopTimes.push_back(start);
    }
}

template <typename TimeOf>
std::vector<core::SimTime> StopPoints::orderNarrow(const std::vector<std::uint32_t> &bucketEnds,
                                                   TimeOf timeOf)
{
    std::vector<core::SimTime> starts;
    std::vector<const std::uint32_t *> next; // each rank's next event
    next.reserve(m_rankEvents.size());
    for (const std::vector<std::uint32_t> &own : m_rankEvents)
        next.push_back(own.data());
    KeySorter sorter;
    std::size_t latest = 0, begin = 0;
    for (std::size_t b = 0; b < bucketEnds.size(); ++b) {
        const auto first = m_operations.begin() + std::ptrdiff_t(begin);
        const auto last = m_operations.begin() + std::ptrdiff_t(bucketEnds[b]);
        sorter.sort(std::span(first, last));
        for (auto it = first; it != last; ++it) {
            const std::uint32_t key = *it;
            const std::uint32_t rank = key & ((1U << kRankBits) - 1);
            *it = *next[rank]++;
            latest = std::max<std::size_t>(latest, *it);
            if (std::next(it) != last && (*std::next(it) >> kRankBits) == (key >> kRankBits))
                continue; // the same start
            addStart(timeOf(b, key >> kRankBits), latest, starts);
        }
        begin = bucketEnds[b];
    }
    return starts;
}

std::vector<core::SimTime> StopPoints::orderWide(const std::vector<std::uint32_t> &bucketEnds)
{
    // Each bucket's events sorted by (start, rank, index), their keys looked up.
    const auto &events = m_trace->events;
    std::vector<core::SimTime> starts;
    std::vector<StartKey> keys;
    std::size_t latest = 0, begin = 0;
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
            m_operations[begin + k] = keys[k].event();
            latest = std::max<std::size_t>(latest, keys[k].event());
            if (k + 1 < keys.size() && keys[k + 1].start == keys[k].start)
                continue;
            addStart(core::SimTime::fromTicks(keys[k].start), latest, starts);
        }
        begin = end;
    }
    return starts;
}

} // namespace rankstep::replay
