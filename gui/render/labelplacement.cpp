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
    if (in.targetY && *in.targetY >= rect.top() - 1 && *in.targetY <= rect.bottom() + 1)
        return false;
    return !(in.targetRect && in.targetRect->intersects(rect));
}

} // namespace

QRectF placeMaximumLabel(const MaximumLabelInput &in)
{
    const double width = in.label.width(), height = in.label.height();
    const double left = std::clamp(in.point.x() - width / 2, in.plot.left(),
                                   std::max(in.plot.left(), in.plot.right() - width));
    const QRectF above(left, in.point.y() - kGap - height, width, height);
    const QRectF below(left, in.point.y() + kGap, width, height);
    if (clear(above, in))
        return above;
    if (clear(below, in))
        return below;
    // Nothing is clear: keep it above, inside the plot.
    return above.translated(0, std::max(0.0, in.plot.top() - above.top()));
}

} // namespace rankstep::gui
