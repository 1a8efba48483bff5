// SPDX-License-Identifier: MIT
#include "memoryband.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

// A step series' value at `time`: the last point at or before it (0 before the first).
std::int64_t valueAt(const std::vector<MemoryPoint> &line, core::SimTime time)
{
    const auto after =
        std::upper_bound(line.begin(), line.end(), time,
                         [](core::SimTime t, const MemoryPoint &point) { return t < point.time; });
    return after == line.begin() ? 0 : std::prev(after)->memory;
}

} // namespace

MemoryBand memoryBand(const RankSeries &series, const std::vector<int> &ranks, core::SimTime end,
                      int samples)
{
    MemoryBand band;
    std::vector<int> members;
    for (int rank : ranks)
        if (rank >= 0 && rank < int(series.size()))
            members.push_back(rank);
    if (members.empty())
        return band;
    for (int rank : members)
        for (const MemoryPoint &point : series[std::size_t(rank)])
            if (point.memory > band.peak || band.peakRank < 0 ||
                (point.memory == band.peak && point.time < band.peakTime)) {
                band.peak = point.memory;
                band.peakRank = rank;
                band.peakTime = point.time;
            }
    const int steps = std::max(samples, 2) - 1;
    for (int i = 0; i <= steps; ++i)
        band.times.push_back(core::SimTime::fromTicks(end.ticks() * i / steps));
    band.times.push_back(band.peakTime);
    std::sort(band.times.begin(), band.times.end());
    band.times.erase(std::unique(band.times.begin(), band.times.end()), band.times.end());
    std::vector<std::int64_t> values(members.size());
    for (core::SimTime time : band.times) {
        for (std::size_t i = 0; i < members.size(); ++i)
            values[i] = valueAt(series[std::size_t(members[i])], time);
        const auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
        std::nth_element(values.begin(), middle, values.end());
        band.median.push_back(*middle);
        band.least.push_back(*std::min_element(values.begin(), values.end()));
        band.most.push_back(*std::max_element(values.begin(), values.end()));
    }
    return band;
}

} // namespace rankstep::gui
