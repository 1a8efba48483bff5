// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"
#include "runsession.h"
#include "tracefwd.h"

#include <QWidget>

namespace rankstep::gui {

// Paints two runs on one time axis: A's timeline, B's timeline, then the memory over time of the
// rank that peaked in each run, overlaid (A solid, B dashed). A real run beside a simulated one
// (other units) gets an axis of its own: each run spans the width, its memory its own height, so
// the shapes compare.
class ComparisonCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonCanvas(QWidget *parent = nullptr);
    void setRuns(TracePtr a, TracePtr b, Look look, TraceUnits aUnits = TraceUnits::SimulatedSteps,
                 TraceUnits bUnits = TraceUnits::SimulatedSteps);
    // The pixel x of time `ticks` of run `run` (0: A, 1: B); one axis for both when their units
    // agree.
    double xOf(double ticks, int run = 0) const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintMemory(QPainter &painter, const QRectF &area) const;

    core::SimTime axisEnd(int run) const;

    TracePtr m_a, m_b;
    Look m_look;
    TraceUnits m_units[2] = {TraceUnits::SimulatedSteps, TraceUnits::SimulatedSteps};
};

} // namespace rankstep::gui
