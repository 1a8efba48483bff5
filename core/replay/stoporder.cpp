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

#include <algorithm>
#include <bit>
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

// Times from `lowest` to `highest` in buckets of equal width, a power of two of ticks: about one
// for every eight of `items`, more when that makes a bucket wider than 2^18 ticks (up to 2^22
// buckets, so that the counts stay 16 MiB). A bucket then holds a few items, sorted in cache.
class TimeBuckets
{
public:
    static constexpr int kNarrow = 18; // a time's offset in its bucket fits 18 bits

    TimeBuckets(std::int64_t lowest, std::int64_t highest, std::size_t items)
        : m_lowest(std::uint64_t(lowest))
    {
        const std::uint64_t range = std::uint64_t(highest) - m_lowest; // highest >= lowest
        std::size_t most = std::clamp<std::size_t>(items / 8, 1, kMost);
        if ((range >> kNarrow) >= most)
            most = kMost;
        while ((range >> m_shift) >= most)
            ++m_shift;
        m_count = std::size_t(range >> m_shift) + 1;
    }
    std::size_t count() const { return m_count; }
    int shift() const { return m_shift; }
    std::size_t of(core::SimTime time) const
    {
        return std::size_t((std::uint64_t(time.ticks()) - m_lowest) >> m_shift);
    }
    // A time's ticks after the start of its bucket (below 2^shift()).
    std::uint32_t offset(core::SimTime time) const
    {
        return std::uint32_t((std::uint64_t(time.ticks()) - m_lowest) & ((1ULL << m_shift) - 1));
    }
    core::SimTime time(std::size_t bucket, std::uint32_t offset) const
    {
        return core::SimTime::fromTicks(
            std::int64_t(m_lowest + (std::uint64_t(bucket) << m_shift) + offset));
    }

private:
    static constexpr std::size_t kMost = std::size_t(1) << 22;
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

// Every distinct time of a narrow range, a bit a tick: a large run's events end at far fewer
// distinct times than there are events, within a range a few hundred kilobytes of bits cover (the
// ends placed in buckets of time and sorted took a list as long as the operations' for a moment).
// Not used when the range needs more words than there are `items`, or more than 16 MiB.
class TimeBits
{
public:
    TimeBits(std::int64_t lowest, std::int64_t highest, std::size_t items)
        : m_lowest(std::uint64_t(lowest))
    {
        const std::uint64_t words = ((std::uint64_t(highest) - m_lowest) >> 6) + 1;
        if (words <= std::min<std::uint64_t>(items, kMostWords))
            m_bits.assign(std::size_t(words), 0);
    }
    bool used() const { return !m_bits.empty(); }
    void add(core::SimTime time)
    {
        const std::uint64_t at = std::uint64_t(time.ticks()) - m_lowest;
        m_bits[std::size_t(at >> 6)] |= std::uint64_t(1) << (at & 63U);
    }
    // The times added, ascending.
    std::vector<core::SimTime> times() const
    {
        std::vector<core::SimTime> times;
        for (std::size_t w = 0; w < m_bits.size(); ++w)
            for (std::uint64_t word = m_bits[w]; word != 0; word &= word - 1)
                times.push_back(core::SimTime::fromTicks(std::int64_t(
                    m_lowest + 64 * std::uint64_t(w) + std::uint64_t(std::countr_zero(word)))));
        return times;
    }

private:
    static constexpr std::uint64_t kMostWords = std::uint64_t(1) << 21;
    std::uint64_t m_lowest;
    std::vector<std::uint64_t> m_bits;
};

} // namespace

void StopPoints::buildOperations()
{
    const auto &events = m_trace->events;
    const auto ranks = std::size_t(std::max(m_trace->config.ranks, 0));
    m_rankEvents.resize(ranks);
    if (events.empty())
        return;
    // Each rank's count, the range of the times, and whether each rank's starts go forward.
    std::vector<std::uint32_t> counts(ranks);
    std::vector<std::int64_t> lastStart(ranks, std::numeric_limits<std::int64_t>::min());
    bool forward = true;
    std::int64_t earliest = events.front().start.ticks(), latest = earliest;
    std::int64_t earliestEnd = events.front().end().ticks(), latestEnd = earliestEnd;
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
    }
    for (std::size_t r = 0; r < ranks; ++r)
        m_rankEvents[r].reserve(counts[r]);
    counts = {};
    lastStart = {};
    // Each rank's events, each bucket's count, and the ends (as bits, or counted in buckets).
    const TimeBuckets byStart(earliest, latest, events.size());
    TimeBits endBits(earliestEnd, latestEnd, events.size());
    const TimeBuckets byEnd(earliestEnd, endBits.used() ? earliestEnd : latestEnd, events.size());
    TimeOrder order;
    order.startEnds.resize(byStart.count());
    order.endEnds.resize(endBits.used() ? 0 : byEnd.count());
    for (std::size_t e = 0; e < events.size(); ++e) {
        m_rankEvents[std::size_t(events[e].rank)].push_back(std::uint32_t(e));
        ++order.startEnds[byStart.of(events[e].start)];
        if (endBits.used())
            endBits.add(events[e].end());
        else
            ++order.endEnds[byEnd.of(events[e].end())];
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
    if (!endBits.used())
        ends = std::make_unique_for_overwrite<std::uint32_t[]>(events.size());
    for (std::size_t e = 0; e < events.size(); ++e) {
        const core::Event &event = events[e];
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
        endBits.used()
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
