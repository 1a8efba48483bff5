// SPDX-License-Identifier: MIT
// Where the memory chart puts the label of the run's maximum: clear of the target line and its
// label and of the model state's, inside the plot (not over the memory axis' labels, not past the
// right edge).
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <vector>

namespace rankstep::gui {

struct MaximumLabelInput {
    QRectF plot;                // the plot area, in the chart's coordinates
    QPointF point;              // the maximum's marker
    QSizeF label;               // the label's size
    std::vector<double> lines;  // the y of each level line drawn across (target, model state)
    std::vector<QRectF> labels; // those lines' own labels
};

// Centered over the point, moved inside the plot; below the point when above would cross a level
// line or a label (or leave the plot); right of the labels it would cover when both do; above
// again when nothing is clear.
QRectF placeMaximumLabel(const MaximumLabelInput &in);

} // namespace rankstep::gui
