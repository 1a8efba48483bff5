// SPDX-License-Identifier: MIT
#include "memorydecimation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace rankstep::gui {

namespace {

using Iterator = std::vector<MemoryPoint>::const_iterator;

// The points of one pixel column [first, last) reduced to first, lowest, highest, last.
void appendColumn(std::vector<MemoryPoint> &out, Iterator first, Iterator last)
{
    Iterator low = first, high = first;
    for (Iterator it = first; it != last; ++it) {
        if (it->memory < low->memory)
            low = it;
        if (it->memory > high->memory)
            high = it;
    }
    Iterator keep[] = {first, std::min(low, high), std::max(low, high), std::prev(last)};
    for (std::size_t k = 0; k < 4; ++k)
        if (k == 0 || keep[k] != keep[k - 1])
            out.push_back(*keep[k]);
}

} // namespace

std::vector<MemoryPoint> decimated(const std::vector<MemoryPoint> &series, double from, double to,
                                   int columns)
{
    if (columns < 1 || !(to > from) || series.size() <= 4 * std::size_t(columns) + 2)
        return series;
    const auto before = [](const MemoryPoint &point, double t) {
        return double(point.time.ticks()) < t;
    };
    Iterator begin = std::lower_bound(series.begin(), series.end(), from, before);
    Iterator end = std::lower_bound(begin, series.end(), to, before);
    while (end != series.end() && double(end->time.ticks()) <= to)
        ++end;
    const double perColumn = (to - from) / columns;
    const auto columnOf = [&](Iterator it) {
        return std::int64_t(std::floor((double(it->time.ticks()) - from) / perColumn));
    };
    std::vector<MemoryPoint> out;
    out.reserve(4 * std::size_t(columns) + 2);
    if (begin != series.begin())
        out.push_back(*std::prev(begin));
    for (Iterator first = begin; first != end;) {
        const std::int64_t column = columnOf(first);
        Iterator last = std::next(first);
        while (last != end && columnOf(last) == column)
            ++last;
        appendColumn(out, first, last);
        first = last;
    }
    if (end != series.end())
        out.push_back(*end);
    return out;
}

} // namespace rankstep::gui
