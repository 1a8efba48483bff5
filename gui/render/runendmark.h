// SPDX-License-Identifier: MIT
// How an exported figure of a run that did not finish says so: a word in its title and a line
// where the run ended, so a hung run does not look like a short normal one.
#pragma once

#include "core/trace.h"
#include "timelinegeometry.h"

#include <QRectF>
#include <QString>

class QPainter;

namespace rankstep::gui {

// "hung", "failed" or "stopped"; empty for a run that finished.
QString runEndWord(const core::Trace &trace);

// title with " (hung)", " (failed)" or " (stopped)"; unchanged for a run that finished.
QString titleWithRunEnd(const QString &title, const core::Trace &trace);

// "Hung: rank 3 finished without calling allreduce(layer 0)", the line that says what went
// wrong; empty for a run that finished.
QString runEndSummary(const core::Trace &trace);

// A dashed red line over area at the trace's end time, labelled "hung here" (or "failed here",
// "stopped here") inside area; nothing for a run that finished.
void paintRunEndMark(QPainter &painter, const core::Trace &trace, const QRectF &area,
                     const TimeAxis &axis, double textPixels);

} // namespace rankstep::gui
