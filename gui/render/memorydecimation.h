// SPDX-License-Identifier: MIT
#pragma once

#include "memoryseries.h"

#include <vector>

namespace rankstep::gui {

// A rank's step line (stepSeries) as a plot `columns` pixels wide over the ticks [from, to] can
// show it: in each pixel column, only its first, lowest, highest and last point, in time order,
// so that every peak and dip still shows; of the points outside [from, to], only the one just
// before and the one just after. A line with few points (at most 4 per column) comes back whole.
// Drawing then costs O(columns), not O(events): a million events plot as fast as a thousand.
std::vector<MemoryPoint> decimated(const std::vector<MemoryPoint> &series, double from, double to,
                                   int columns);

} // namespace rankstep::gui
