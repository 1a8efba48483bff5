// SPDX-License-Identifier: MIT
// The buckets of simulated time the stop points sort the events by (core/replay/stoporder.cpp),
// and the two things made of the times in the one pass that also finds their range: the counts
// of each bucket, whose width grows as later times come, and the bits of the distinct ends.
#pragma once

#include "core/simtime.h"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rankstep::replay {

// Times from `lowest` to `highest` in buckets of equal width, a power of two of ticks: about one
// for every eight of `items`, more when that makes a bucket wider than 2^18 ticks (up to 2^22
// buckets, so that the counts stay 16 MiB). A bucket then holds a few items, sorted in cache.
class TimeBuckets
{
public:
    static constexpr int kNarrow = 18; // a time's offset in its bucket fits 18 bits
    static constexpr std::size_t kMost = std::size_t(1) << 22;

    TimeBuckets(std::int64_t lowest, std::int64_t highest, std::size_t items)
        : m_lowest(std::uint64_t(lowest))
    {
        const std::uint64_t range = std::uint64_t(highest) - m_lowest; // highest >= lowest
        std::size_t most = fewestMost(items);
        if ((range >> kNarrow) >= most)
            most = kMost;
        while ((range >> m_shift) >= most)
            ++m_shift;
        m_count = std::size_t(range >> m_shift) + 1;
    }
    // The most buckets there are for `items` unless their range is wide.
    static std::size_t fewestMost(std::size_t items)
    {
        return std::clamp<std::size_t>(items / 8, 1, kMost);
    }
    std::uint64_t lowest() const { return m_lowest; }
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
    std::uint64_t m_lowest;
    int m_shift = 0;
    std::size_t m_count = 0;
};

// Counts of times in buckets of 2^shift() ticks from `origin` while their range is unknown: a
// later time widens the list, and past `most` buckets doubles their width (two counts made one).
// A time before the origin loses them (lost()).
class GrowingCounts
{
public:
    GrowingCounts(std::int64_t origin, std::size_t most)
        : m_origin(std::uint64_t(origin)), m_most(std::bit_ceil(std::max<std::size_t>(most, 2)))
    {}
    void add(core::SimTime time)
    {
        std::uint64_t bucket = (std::uint64_t(time.ticks()) - m_origin) >> m_shift;
        if (bucket >= m_counts.size()) [[unlikely]] {
            if (!grow(time))
                return;
            bucket = (std::uint64_t(time.ticks()) - m_origin) >> m_shift;
        }
        ++m_counts[std::size_t(bucket)];
    }
    bool lost() const { return m_lost; }
    int shift() const { return m_shift; }
    // The counts of `buckets` (from this origin, at least as wide as these), or none when lost or
    // when those are narrower.
    std::vector<std::uint32_t> countsIn(const TimeBuckets &buckets) const
    {
        if (m_lost || buckets.lowest() != m_origin || buckets.shift() < m_shift)
            return {};
        std::vector<std::uint32_t> counts(buckets.count());
        const int wider = buckets.shift() - m_shift;
        for (std::size_t b = 0; b < m_counts.size(); ++b)
            if (m_counts[b] != 0) // (no count past the latest time's bucket)
                counts[b >> wider] += m_counts[b];
        return counts;
    }

private:
    bool grow(core::SimTime time)
    {
        if (m_lost || time.ticks() < std::int64_t(m_origin)) {
            m_lost = true;
            m_counts = {}; // every later time comes here
            return false;
        }
        const std::uint64_t at = std::uint64_t(time.ticks()) - m_origin;
        while ((at >> m_shift) >= m_most) {
            const std::size_t half = (m_counts.size() + 1) / 2;
            for (std::size_t b = 0; b < half; ++b)
                m_counts[b] =
                    m_counts[2 * b] + (2 * b + 1 < m_counts.size() ? m_counts[2 * b + 1] : 0);
            m_counts.resize(half);
            ++m_shift;
        }
        const auto need = std::size_t(at >> m_shift) + 1;
        m_counts.resize(std::min(m_most, std::max(need, 2 * m_counts.size())));
        return true;
    }

    std::uint64_t m_origin;
    std::size_t m_most;
    int m_shift = 0;
    bool m_lost = false;
    std::vector<std::uint32_t> m_counts;
};

// Every distinct time from `origin` on, a bit a tick: a large run's events end at far fewer
// distinct times than there are events, within a range a few hundred kilobytes of bits cover (the
// ends placed in buckets of time and sorted took a list as long as the operations' for a moment).
// Lost (lost()) when a time comes before the origin or past `mostWords` 64-bit words after it.
class GrowingBits
{
public:
    GrowingBits(std::int64_t origin, std::size_t mostWords)
        : m_origin(std::uint64_t(origin)), m_mostWords(mostWords)
    {}
    void add(core::SimTime time)
    {
        const std::uint64_t at = std::uint64_t(time.ticks()) - m_origin;
        if ((at >> 6) >= m_bits.size()) [[unlikely]] {
            if (!grow(time))
                return;
        }
        m_bits[std::size_t(at >> 6)] |= std::uint64_t(1) << (at & 63U);
    }
    bool lost() const { return m_lost; }
    // The times added, ascending.
    std::vector<core::SimTime> times() const
    {
        std::vector<core::SimTime> times;
        for (std::size_t w = 0; w < m_bits.size(); ++w)
            for (std::uint64_t word = m_bits[w]; word != 0; word &= word - 1)
                times.push_back(core::SimTime::fromTicks(std::int64_t(
                    m_origin + 64 * std::uint64_t(w) + std::uint64_t(std::countr_zero(word)))));
        return times;
    }

private:
    bool grow(core::SimTime time)
    {
        const std::uint64_t word = (std::uint64_t(time.ticks()) - m_origin) >> 6;
        if (m_lost || time.ticks() < std::int64_t(m_origin) || word >= m_mostWords) {
            m_lost = true;
            m_bits = {}; // every later time comes here
            return false;
        }
        m_bits.resize(std::min(m_mostWords, std::max(std::size_t(word) + 1, 2 * m_bits.size())));
        return true;
    }

    std::uint64_t m_origin;
    std::size_t m_mostWords;
    bool m_lost = false;
    std::vector<std::uint64_t> m_bits;
};

} // namespace rankstep::replay
