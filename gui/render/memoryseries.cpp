// SPDX-License-Identifier: MIT
#include "memoryseries.h"

#include "core/memoryformat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>

namespace rankstep::gui {

std::vector<MemoryPoint> memorySamples(const core::Trace &trace, int rank)
{
    std::vector<MemoryPoint> samples;
    const core::Event *last = nullptr;
    std::size_t lastIndex = 0;
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        if (event.rank != rank)
            continue;
        // The changes before this call were made when the one before it ended.
        const core::SimTime reached = last ? std::min(last->end(), event.start) : event.start;
        samples.push_back({reached, event.memory});
        last = &event;
        lastIndex = i;
    }
    if (!last)
        return samples;
    for (auto change = trace.changes.rbegin(); change != trace.changes.rend(); ++change)
        if (change->rank == rank) {
            if (change->eventCount > lastIndex) // after the last call: what the rank ends with
                samples.push_back({last->end(), change->memoryAfter});
            break;
        }
    // A rank's events are recorded in its clock order; sorting (stably) only guards hand-made
    // traces, and keeps equal times in call order.
    std::stable_sort(samples.begin(), samples.end(),
                     [](const MemoryPoint &a, const MemoryPoint &b) { return a.time < b.time; });
    return samples;
}

std::vector<MemoryPoint> stepSeries(const std::vector<MemoryPoint> &samples, core::SimTime end)
{
    std::vector<MemoryPoint> points;
    for (const MemoryPoint &sample : samples) {
        if (points.empty()) {
            points.push_back(sample);
            continue;
        }
        const MemoryPoint last = points.back();
        if (sample.memory == last.memory)
            continue; // the line already holds this value
        if (sample.time != last.time)
            points.push_back({sample.time, last.memory});
        points.push_back(sample);
    }
    if (!points.empty() && end > points.back().time)
        points.push_back({end, points.back().memory});
    return points;
}

RankSeries::RankSeries(std::vector<std::vector<MemoryPoint>> eachRank)
    : m_lines(std::move(eachRank)), m_lineOf(m_lines.size())
{
    for (std::size_t rank = 0; rank < m_lineOf.size(); ++rank)
        m_lineOf[rank] = std::uint32_t(rank);
}

RankSeries::RankSeries(std::vector<std::vector<MemoryPoint>> lines,
                       std::vector<std::uint32_t> lineOf)
    : m_lines(std::move(lines)), m_lineOf(std::move(lineOf))
{}

std::size_t RankSeries::pointCount() const
{
    std::size_t points = 0;
    for (const std::vector<MemoryPoint> &line : m_lines)
        points += line.size();
    return points;
}

bool RankSeries::operator==(const RankSeries &other) const
{
    if (size() != other.size())
        return false;
    for (std::size_t rank = 0; rank < size(); ++rank)
        if ((*this)[rank] != other[rank])
            return false;
    return true;
}

namespace {

// A step series made a sample at a time (stepSeries) while the samples come in time order, as a
// rank's clock keeps them, holding only its last point: each point it gains is handed to `take`.
// A sample earlier than the one before ends that (inOrder false): the rank is made again from
// its samples sorted.
struct StepLine {
    MemoryPoint back;       // the last point taken
    std::size_t size = 0;   // points taken
    core::SimTime lastTime; // of the last sample
    bool inOrder = true;

    template <typename Take>
    void add(const MemoryPoint &sample, Take &&take)
    {
        if (!inOrder)
            return;
        if (size > 0 && sample.time < lastTime) {
            inOrder = false;
            return;
        }
        lastTime = sample.time;
        if (size == 0) {
            put(sample, take);
            return;
        }
        if (sample.memory == back.memory)
            return; // the line already holds this value
        if (sample.time != back.time)
            put({sample.time, back.memory}, take);
        put(sample, take);
    }
    template <typename Take>
    void finish(core::SimTime end, Take &&take)
    {
        if (inOrder && size > 0 && end > back.time)
            put({end, back.memory}, take);
    }
    template <typename Take>
    void put(const MemoryPoint &point, Take &take)
    {
        back = point;
        ++size;
        take(point);
    }
};

// What memorySamples says of each rank, an event at a time: a call's memory from the end of the
// call before it.
struct SampleWalk {
    core::SimTime lastEnd;
    std::size_t lastIndex = 0;
    bool called = false;

    MemoryPoint sample(std::size_t index, const core::Event &event)
    {
        const core::SimTime reached = called ? std::min(lastEnd, event.start) : event.start;
        called = true;
        lastEnd = event.end();
        lastIndex = index;
        return {reached, event.memory};
    }
};

// Each rank's last sample: what it holds after its last change, when that came after its last
// call (at that call's end).
std::vector<std::optional<MemoryPoint>> endSamples(const core::Trace &trace,
                                                   const std::vector<SampleWalk> &walks)
{
    const std::size_t count = walks.size();
    std::vector<std::optional<MemoryPoint>> ends(count);
    std::vector<bool> ended(count, false);
    std::size_t endedCount = 0;
    for (auto change = trace.changes.rbegin(); change != trace.changes.rend(); ++change) {
        if (endedCount == count)
            break; // every rank's last change seen
        const auto r = std::size_t(change->rank);
        if (change->rank < 0 || r >= count || ended[r])
            continue;
        ended[r] = true;
        ++endedCount;
        if (walks[r].called && change->eventCount > walks[r].lastIndex) // after the last call
            ends[r] = MemoryPoint{walks[r].lastEnd, change->memoryAfter};
    }
    return ends;
}

// A hash of a line's points (splitmix64's finalizer over each value).
struct LineHash {
    std::uint64_t value = 0x9E3779B97F4A7C15ULL;
    void mix(std::uint64_t word)
    {
        std::uint64_t z = (value ^ word) + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        value = z ^ (z >> 31);
    }
    void add(const MemoryPoint &point)
    {
        mix(std::uint64_t(point.time.ticks()));
        mix(std::uint64_t(point.memory));
    }
};

// Calls visit(rank, sample) for each event's sample of the ranks in [0, walks.size()), in the
// trace's order.
template <typename Visit>
void forEachSample(const core::Trace &trace, std::vector<SampleWalk> &walks, Visit &&visit)
{
    const std::size_t count = walks.size();
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        const auto r = std::size_t(event.rank);
        if (event.rank >= 0 && r < count)
            visit(r, walks[r].sample(i, event));
    }
}

// The lines of the ranks whose samples are out of time order (a hand-made trace), from their
// samples sorted (stably: equal times in call order), as memorySamples makes them.
void makeOutOfOrder(const core::Trace &trace, const std::vector<bool> &outOfOrder,
                    const std::vector<std::optional<MemoryPoint>> &ends,
                    std::vector<std::vector<MemoryPoint>> &lines,
                    const std::vector<std::uint32_t> &lineOf)
{
    if (std::none_of(outOfOrder.begin(), outOfOrder.end(), [](bool out) { return out; }))
        return;
    std::vector<SampleWalk> walks(outOfOrder.size());
    std::vector<std::vector<MemoryPoint>> samples(outOfOrder.size());
    forEachSample(trace, walks, [&](std::size_t r, const MemoryPoint &sample) {
        if (outOfOrder[r])
            samples[r].push_back(sample);
    });
    for (std::size_t r = 0; r < outOfOrder.size(); ++r) {
        if (!outOfOrder[r])
            continue;
        if (ends[r])
            samples[r].push_back(*ends[r]);
        std::stable_sort(
            samples[r].begin(), samples[r].end(),
            [](const MemoryPoint &a, const MemoryPoint &b) { return a.time < b.time; });
        lines[lineOf[r]] = stepSeries(samples[r], trace.figures.endTime);
    }
}

// How a rank's line is made in the second pass: a leader makes its points; a rank whose first
// pass gave the hash and size of a leader's (a rank before it) only compares its points with the
// leader's, and makes its own from the first that differs or that comes before the leader's.
struct LineCopy {
    StepLine line;
    std::uint32_t leader = 0; // itself for a leader
    std::size_t matched = 0;  // points equal to the leader's so far
    bool own = false;
    std::vector<MemoryPoint> points; // a leader's, or one's own

    void take(const MemoryPoint &point, const std::vector<LineCopy> &copies)
    {
        if (&copies[leader] != this && !own) {
            const std::vector<MemoryPoint> &lead = copies[leader].points;
            if (matched < lead.size() && lead[matched] == point) {
                ++matched;
                return;
            }
            own = true;
            points.assign(lead.begin(), lead.begin() + std::ptrdiff_t(matched));
        }
        points.push_back(point);
    }
};

// Each rank's leader: the first rank (itself, if none) with its line's hash and size. A leader's
// points are reserved at their size.
std::vector<LineCopy> leadersOf(const std::vector<StepLine> &shapes,
                                const std::vector<LineHash> &hashes)
{
    std::vector<LineCopy> copies(shapes.size());
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> leaders; // by hash
    for (std::size_t r = 0; r < shapes.size(); ++r) {
        copies[r].leader = std::uint32_t(r);
        if (!shapes[r].inOrder)
            continue; // made from its samples sorted
        auto &candidates = leaders[hashes[r].value];
        const auto same = std::find_if(candidates.begin(), candidates.end(), [&](auto leader) {
            return shapes[leader].size == shapes[r].size;
        });
        if (same != candidates.end()) {
            copies[r].leader = *same;
        } else {
            candidates.push_back(std::uint32_t(r));
            copies[r].points.reserve(shapes[r].size);
        }
    }
    return copies;
}

} // namespace

RankSeries memorySeries(const core::Trace &trace, LineMatch match)
{
    // Two passes over the events (not one per rank: a million events over 64 ranks). The first
    // makes each rank's line without keeping it, only its hash and size; the second keeps one
    // line for the ranks of a hash and size, each other rank's compared with it point by point.
    const auto count = std::size_t(std::max(trace.config.ranks, 0));
    std::vector<StepLine> shapes(count);
    std::vector<LineHash> hashes(count);
    std::vector<std::optional<MemoryPoint>> ends;
    {
        std::vector<SampleWalk> walks(count);
        const auto hash = [&hashes, match](std::size_t r) {
            return [&hashes, match, r](const MemoryPoint &point) {
                if (match == LineMatch::Hash)
                    hashes[r].add(point);
            };
        };
        forEachSample(trace, walks, [&](std::size_t r, const MemoryPoint &sample) {
            shapes[r].add(sample, hash(r));
        });
        ends = endSamples(trace, walks);
        for (std::size_t r = 0; r < count; ++r) {
            if (ends[r])
                shapes[r].add(*ends[r], hash(r));
            shapes[r].finish(trace.figures.endTime, hash(r));
        }
    }
    std::vector<LineCopy> copies = leadersOf(shapes, hashes);
    const auto take = [&copies](std::size_t r) {
        return [&copies, r](const MemoryPoint &point) {
            copies[r].take(point, copies);
        };
    };
    {
        std::vector<SampleWalk> walks(count);
        forEachSample(trace, walks, [&](std::size_t r, const MemoryPoint &sample) {
            if (shapes[r].inOrder)
                copies[r].line.add(sample, take(r));
        });
    }
    std::vector<bool> outOfOrder(count);
    for (std::size_t r = 0; r < count; ++r) { // a leader before the ranks that follow it
        outOfOrder[r] = !shapes[r].inOrder;
        if (ends[r] && shapes[r].inOrder)
            copies[r].line.add(*ends[r], take(r));
        copies[r].line.finish(trace.figures.endTime, take(r));
    }
    std::vector<std::vector<MemoryPoint>> lines;
    std::vector<std::uint32_t> lineOf(count, 0);
    for (std::size_t r = 0; r < count; ++r) {
        LineCopy &copy = copies[r];
        if (copy.leader != r) {
            const std::uint32_t shared = lineOf[copy.leader];
            if (copy.own ? copy.points == lines[shared] : copy.matched == lines[shared].size()) {
                lineOf[r] = shared;
                copy.points = {};
                continue;
            }
            if (!copy.own) // a part of the leader's line
                copy.points.assign(lines[shared].begin(),
                                   lines[shared].begin() + std::ptrdiff_t(copy.matched));
        }
        lineOf[r] = std::uint32_t(lines.size());
        copy.points.shrink_to_fit(); // the series is kept as long as the run is shown
        lines.push_back(std::move(copy.points));
    }
    makeOutOfOrder(trace, outOfOrder, ends, lines, lineOf);
    return RankSeries(std::move(lines), std::move(lineOf));
}

std::shared_ptr<const RankSeries> sharedMemorySeries(
    const std::shared_ptr<const core::Trace> &trace)
{
    // The last trace asked for and its series, neither kept alive here: the trace is known by its
    // owner (never by an address another trace may reuse).
    static std::weak_ptr<const core::Trace> lastTrace;
    static std::weak_ptr<const RankSeries> lastSeries;
    if (!trace)
        return std::make_shared<const RankSeries>();
    const bool same =
        !lastTrace.expired() && !lastTrace.owner_before(trace) && !trace.owner_before(lastTrace);
    if (same)
        if (auto series = lastSeries.lock())
            return series;
    auto series = std::make_shared<const RankSeries>(memorySeries(*trace));
    lastTrace = trace;
    lastSeries = series;
    return series;
}

std::vector<LineShare> sharedLines(const RankSeries &series)
{
    return sharedLines(series, std::vector<bool>(series.size(), true));
}

std::vector<LineShare> sharedLines(const RankSeries &series, const std::vector<bool> &included)
{
    // Ranks that refer to one line share it. Distinct lines that are equal all the same are found
    // through a hash of each line, checked point by point within a hash: each line is compared
    // about once, not with every other line (1024 ranks of FSDP, every line the same, compared a
    // million pairs of lines: most of the time the app took to show that run).
    const auto hashOf = [](const std::vector<MemoryPoint> &line) {
        LineHash hash;
        hash.mix(line.size());
        for (const MemoryPoint &point : line)
            hash.add(point);
        return hash.value;
    };
    constexpr std::size_t kNone = std::size_t(-1);
    std::vector<std::size_t> groupOf(series.lineCount(), kNone); // of each line, once seen
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> linesByHash; // a group's first
    std::vector<std::vector<std::size_t>> groups; // ranks with equal lines, in rank order
    for (std::size_t rank = 0; rank < series.size(); ++rank) {
        if (rank >= included.size() || !included[rank])
            continue; // shares nothing, and counts for no one else
        std::size_t &group = groupOf[series.lineOf(rank)];
        if (group == kNone) {
            auto &candidates = linesByHash[hashOf(series[rank])];
            const auto same = std::find_if(candidates.begin(), candidates.end(), [&](auto line) {
                return series.line(line) == series[rank];
            });
            if (same != candidates.end()) {
                group = groupOf[*same];
            } else {
                candidates.push_back(series.lineOf(rank));
                group = groups.size();
                groups.emplace_back();
            }
        }
        groups[group].push_back(rank);
    }
    std::vector<LineShare> shares(series.size());
    for (const std::vector<std::size_t> &group : groups)
        for (std::size_t i = 0; i < group.size(); ++i) // ranks joined in rank order
            shares[group[i]] = LineShare{int(i), int(group.size())};
    return shares;
}

std::optional<core::SimTime> nearestSampleTime(const core::Trace &trace, double steps)
{
    std::optional<core::SimTime> best;
    double bestDistance = 0;
    for (const core::Event &event : trace.events) {
        const double distance = std::abs(event.start.toDouble() - steps);
        const bool better =
            !best || distance < bestDistance || (distance == bestDistance && event.start < *best);
        if (better) {
            best = event.start;
            bestDistance = distance;
        }
    }
    return best;
}

double niceStep(double span, int maxTicks)
{
    if (!(span > 0) || maxTicks < 1)
        return 1;
    const double raw = span / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * magnitude >= raw * (1 - 1e-9))
            return factor * magnitude;
    }
    return 10 * magnitude;
}

std::vector<std::int64_t> memoryTicks(std::int64_t top, int maxTicks)
{
    const auto step =
        std::max<std::int64_t>(1, std::llround(niceStep(static_cast<double>(top), maxTicks)));
    std::vector<std::int64_t> ticks = {0};
    while (ticks.back() < top || ticks.size() < 2)
        ticks.push_back(ticks.back() + step);
    return ticks;
}

QString formatMemory(std::int64_t bytes)
{
    return QString::fromStdString(core::formatMemory(bytes));
}

} // namespace rankstep::gui
