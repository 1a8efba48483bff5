// SPDX-License-Identifier: MIT
#include "memoryseries.h"

#include "core/memoryformat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace rankstep::gui {

std::vector<MemoryPoint> memorySamples(const core::Trace &trace, int rank)
{
    std::vector<MemoryPoint> samples;
    for (const core::Event &event : trace.events) {
        if (event.rank == rank)
            samples.push_back({event.start, event.memory});
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

std::vector<std::vector<MemoryPoint>> memorySeries(const core::Trace &trace)
{
    std::vector<std::vector<MemoryPoint>> series;
    const int ranks = std::max(trace.config.ranks, 0);
    series.reserve(std::size_t(ranks));
    for (int rank = 0; rank < ranks; ++rank)
        series.push_back(stepSeries(memorySamples(trace, rank), trace.figures.endTime));
    return series;
}

std::vector<LineShare> sharedLines(const std::vector<std::vector<MemoryPoint>> &series)
{
    std::vector<LineShare> shares(series.size());
    for (std::size_t rank = 0; rank < series.size(); ++rank) {
        for (std::size_t other = 0; other < series.size(); ++other) {
            if (other == rank || series[other] != series[rank])
                continue;
            ++shares[rank].count;
            if (other < rank)
                ++shares[rank].index;
        }
    }
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
