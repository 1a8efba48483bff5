// SPDX-License-Identifier: MIT
#include "boundedtimeaxis.h"

#include "memoryseries.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rankstep::gui {

double boundedTickInterval(double min, double max, int maxIntervals)
{
    const double span = max - min;
    // A step that max + step still tells apart from max, with room to spare.
    const double magnitude = std::max(std::abs(min), std::abs(max));
    const double smallest = magnitude * 1e3 * std::numeric_limits<double>::epsilon();
    const double step = niceStep(std::max(span, 0.0), std::max(1, maxIntervals));
    return std::isfinite(step) ? std::max(step, smallest) : std::max(1.0, smallest);
}

void coarsenFor(QValueAxis &axis, double min, double max, int maxIntervals)
{
    const double wanted = boundedTickInterval(min, max, maxIntervals);
    if (wanted > axis.tickInterval())
        axis.setTickInterval(wanted);
}

void setBoundedRange(QValueAxis &axis, double min, double max, int maxIntervals)
{
    // The larger of the two intervals first: the old range under it and the new one both get
    // no more intervals than they have under their own.
    coarsenFor(axis, min, max, maxIntervals);
    axis.setRange(min, max);
    const double wanted = boundedTickInterval(min, max, maxIntervals);
    if (wanted != axis.tickInterval())
        axis.setTickInterval(wanted);
}

} // namespace rankstep::gui
