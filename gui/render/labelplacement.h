// SPDX-License-Identifier: MIT
// Where the memory chart puts the label of the run's maximum: clear of the target line and its
// label, inside the plot (not over the memory axis' labels, not past the right edge).
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <optional>

namespace rankstep::gui {

struct MaximumLabelInput {
    QRectF plot;                      // the plot area, in the chart's coordinates
    QPointF point;                    // the maximum's marker
    QSizeF label;                     // the label's size
    std::optional<double> targetY;    // the target line's y, if there is one
    std::optional<QRectF> targetRect; // the target's own label
};

// Centered over the point, moved inside the plot; below the point when above would cross the
// target line or its label (or leave the plot), above again when below has no room either.
QRectF placeMaximumLabel(const MaximumLabelInput &in);

} // namespace rankstep::gui
