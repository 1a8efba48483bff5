// SPDX-License-Identifier: MIT
// How the wait-for picture tells where a rank stands without color: each standing has an outline
// (thick, solid, dashed, dotted), a fill and a small mark drawn beside the rank's name (a cross,
// an hourglass, a tick, an empty ring, three dots). The legend shows the same marks.
#pragma once

#include "core/explain/hangexplain.h"

#include <QColor>
#include <QPainter>
#include <QRectF>

namespace rankstep::gui {

struct NodeStyle {
    QPen outline;
    QBrush fill;
};

// The outline and fill of a node for `standing`; `rankColor` is the rank's color, `base` the
// view's background, `zoom` the look's (pen widths grow with it).
NodeStyle nodeStyle(explain::Standing standing, const QColor &rankColor, const QColor &base,
                    double zoom);
// The mark of `standing`, inside `box` (a square about a line of text high), in `ink`.
void paintStandingMark(QPainter &painter, explain::Standing standing, const QRectF &box,
                       const QColor &ink);

} // namespace rankstep::gui
