// SPDX-License-Identifier: MIT
#pragma once

class QValueAxis;

namespace rankstep::gui {

// Sets a QValueAxis with dynamic ticks (QValueAxis::TicksDynamic) to [min, max] with a tick
// interval that gives at most maxIntervals intervals, never going through a state with more.
// Qt Charts lays out one tick item per interval as soon as the range or the interval changes: a
// new range under the old interval (a run of 20,000 steps under the 0.1 of an empty chart) made
// hundreds of thousands of items, an absurd duration billions. The interval never drops below
// what a double can still add to max, so no range loops without end.
void setBoundedRange(QValueAxis &axis, double min, double max, int maxIntervals);

// Makes the interval coarse enough for [min, max] (never finer than it is), before something
// else sets that range: QChart attaching a series sets the axis to the series' data range.
void coarsenFor(QValueAxis &axis, double min, double max, int maxIntervals);

// The interval setBoundedRange ends with: 1, 2 or 5 × 10^k, at least span / maxIntervals.
double boundedTickInterval(double min, double max, int maxIntervals);

} // namespace rankstep::gui
