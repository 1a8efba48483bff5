// SPDX-License-Identifier: MIT
#include "labelplacement.h"

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr double kGap = 4.0; // between the marker and its label

bool clear(const QRectF &rect, const MaximumLabelInput &in)
{
    if (rect.top() < in.plot.top() || rect.bottom() > in.plot.bottom())
        return false;
    for (const double y : in.lines)
        if (y >= rect.top() - 1 && y <= rect.bottom() + 1)
            return false;
    return std::none_of(in.labels.begin(), in.labels.end(),
                        [&](const QRectF &label) { return label.intersects(rect); });
}

} // namespace

QRectF placeMaximumLabel(const MaximumLabelInput &in)
{
    const double width = in.label.width(), height = in.label.height();
    const double left = std::clamp(in.point.x() - width / 2, in.plot.left(),
                                   std::max(in.plot.left(), in.plot.right() - width));
    const QRectF above(left, in.point.y() - kGap - height, width, height);
    const QRectF below(left, in.point.y() + kGap, width, height);
    for (const QRectF &rect : {above, below})
        if (clear(rect, in))
            return rect;
    // Both cross a label (a maximum at the left, among the level lines' words): beside it.
    for (const QRectF &rect : {above, below}) {
        double right = rect.left();
        for (const QRectF &label : in.labels)
            if (label.intersects(rect))
                right = std::max(right, label.right() + 2 * kGap);
        const QRectF beside = rect.translated(right - rect.left(), 0);
        if (beside.right() <= in.plot.right() && clear(beside, in))
            return beside;
    }
    // Nothing is clear: keep it above, inside the plot.
    return above.translated(0, std::max(0.0, in.plot.top() - above.top()));
}

} // namespace rankstep::gui
