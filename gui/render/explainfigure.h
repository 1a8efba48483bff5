// SPDX-License-Identifier: MIT
#pragma once

#include "exportfigure.h"

#include "core/trace.h"

#include <QImage>

class QPainter;

namespace rankstep::gui {

// The explanation of a run as one slide (core/explain): the peak in words and, with a
// memory target, what holds it above the target; the peak rank's memory by kind over time as
// stacked areas with a legend of the five kinds; each rank's busy, idle and communication time;
// the critical path's length. Laid out at options.size / options.scale.
void paintExplainFigure(QPainter &painter, const core::Trace &trace, const FigureOptions &options);
QImage renderExplainFigure(const core::Trace &trace, const FigureOptions &options);

} // namespace rankstep::gui
