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

namespace {

// One rank's series made as its samples come (stepSeries, a sample at a time), while they come
// in time order, as a rank's clock keeps them: the samples of every rank are never held at once
// (at 16,384 ranks they took 0.3 GB for a moment, and the kernel's time to clear it). A sample
// earlier than the one before ends that: the rank is made again from its samples sorted.
struct SeriesBuilder {
    std::vector<MemoryPoint> points;
    core::SimTime lastTime; // of the last sample
    bool any = false;
    bool inOrder = true;

    void add(const MemoryPoint &sample)
    {
        if (!inOrder)
            return;
        if (any && sample.time < lastTime) {
            inOrder = false;
            points = {};
            return;
        }
        any = true;
        lastTime = sample.time;
        if (points.empty()) {
            points.push_back(sample);
            return;
        }
        const MemoryPoint last = points.back();
        if (sample.memory == last.memory)
            return; // the line already holds this value
        if (sample.time != last.time)
            points.push_back({sample.time, last.memory});
        points.push_back(sample);
    }
    void finish(core::SimTime end)
    {
        if (!points.empty() && end > points.back().time)
            points.push_back({end, points.back().memory});
        points.shrink_to_fit(); // the series is kept as long as the run is shown
    }
};

} // namespace

std::vector<std::vector<MemoryPoint>> memorySeries(const core::Trace &trace)
{
    // One pass over the events (not one per rank: a million events over 64 ranks), with what
    // memorySamples says of each rank: a call's memory from the end of the call before it, and
    // what the rank holds after its last call.
    const int ranks = std::max(trace.config.ranks, 0);
    const auto count = static_cast<std::size_t>(ranks);
    std::vector<SeriesBuilder> builders(count);
    std::vector<const core::Event *> last(count, nullptr);
    std::vector<std::size_t> lastIndex(count, 0);
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const core::Event &event = trace.events[i];
        if (event.rank < 0 || event.rank >= ranks)
            continue;
        const auto r = std::size_t(event.rank);
        const core::SimTime reached = last[r] ? std::min(last[r]->end(), event.start) : event.start;
        builders[r].add({reached, event.memory});
        last[r] = &event;
        lastIndex[r] = i;
    }
    std::vector<std::optional<MemoryPoint>> ends(count);
    std::vector<bool> ended(count, false);
    for (auto change = trace.changes.rbegin(); change != trace.changes.rend(); ++change) {
        if (change->rank < 0 || change->rank >= ranks || ended[std::size_t(change->rank)])
            continue;
        const auto r = std::size_t(change->rank);
        ended[r] = true;
        if (last[r] && change->eventCount > lastIndex[r]) // after the last call
            ends[r] = MemoryPoint{last[r]->end(), change->memoryAfter};
    }
    std::vector<std::vector<MemoryPoint>> series(count);
    std::vector<std::vector<MemoryPoint>> samples(count); // of the ranks out of time order
    bool outOfOrder = false;
    for (std::size_t r = 0; r < count; ++r) {
        if (ends[r])
            builders[r].add(*ends[r]);
        outOfOrder = outOfOrder || !builders[r].inOrder;
        if (builders[r].inOrder) {
            builders[r].finish(trace.figures.endTime);
            series[r] = std::move(builders[r].points);
        }
    }
    if (!outOfOrder)
        return series;
    // A rank out of time order (a hand-made trace): its samples again, sorted (stably: equal times
    // in call order), as memorySamples makes them.
    std::fill(last.begin(), last.end(), nullptr);
    for (const core::Event &event : trace.events) {
        if (event.rank < 0 || event.rank >= ranks || builders[std::size_t(event.rank)].inOrder)
            continue;
        const auto r = std::size_t(event.rank);
        const core::SimTime reached = last[r] ? std::min(last[r]->end(), event.start) : event.start;
        samples[r].push_back({reached, event.memory});
        last[r] = &event;
    }
    for (std::size_t r = 0; r < count; ++r) {
        if (builders[r].inOrder)
            continue;
        if (ends[r])
            samples[r].push_back(*ends[r]);
        std::stable_sort(
            samples[r].begin(), samples[r].end(),
            [](const MemoryPoint &a, const MemoryPoint &b) { return a.time < b.time; });
        series[r] = stepSeries(samples[r], trace.figures.endTime);
    }
    return series;
}

std::shared_ptr<const std::vector<std::vector<MemoryPoint>>> sharedMemorySeries(
    const std::shared_ptr<const core::Trace> &trace)
{
    using Series = std::vector<std::vector<MemoryPoint>>;
    // The last trace asked for and its series, neither kept alive here: the trace is known by its
    // owner (never by an address another trace may reuse).
    static std::weak_ptr<const core::Trace> lastTrace;
    static std::weak_ptr<const Series> lastSeries;
    if (!trace)
        return std::make_shared<const Series>();
    const bool same =
        !lastTrace.expired() && !lastTrace.owner_before(trace) && !trace.owner_before(lastTrace);
    if (same)
        if (auto series = lastSeries.lock())
            return series;
    auto series = std::make_shared<const Series>(memorySeries(*trace));
    lastTrace = trace;
    lastSeries = series;
    return series;
}

std::vector<LineShare> sharedLines(const std::vector<std::vector<MemoryPoint>> &series)
{
    return sharedLines(series, std::vector<bool>(series.size(), true));
}

std::vector<LineShare> sharedLines(const std::vector<std::vector<MemoryPoint>> &series,
                                   const std::vector<bool> &included)
{
    // Equal lines found through a hash of each line, checked point by point within a hash: each
    // line is compared about once, not with every other line (1024 ranks of FSDP, every line the
    // same, compared a million pairs of lines: most of the time the app took to show that run).
    const auto hashOf = [](const std::vector<MemoryPoint> &line) {
        std::uint64_t hash = 1469598103934665603ULL; // FNV-1a over the points' values
        const auto mix = [&hash](std::uint64_t value) {
            hash = (hash ^ value) * 1099511628211ULL;
        };
        mix(line.size());
        for (const MemoryPoint &point : line) {
            mix(std::uint64_t(point.time.ticks()));
            mix(std::uint64_t(point.memory));
        }
        return hash;
    };
    std::unordered_map<std::uint64_t, std::vector<std::vector<std::size_t>>> groups;
    for (std::size_t rank = 0; rank < series.size(); ++rank) {
        if (rank >= included.size() || !included[rank])
            continue; // shares nothing, and counts for no one else
        auto &candidates = groups[hashOf(series[rank])];
        auto same = std::find_if(candidates.begin(), candidates.end(), [&](const auto &group) {
            return series[group.front()] == series[rank];
        });
        if (same == candidates.end())
            same = candidates.insert(candidates.end(), std::vector<std::size_t>{});
        same->push_back(rank);
    }
    std::vector<LineShare> shares(series.size());
    for (const auto &[hash, candidates] : groups)
        for (const std::vector<std::size_t> &group : candidates)
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
