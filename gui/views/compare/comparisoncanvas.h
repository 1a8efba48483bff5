// SPDX-License-Identifier: MIT
#pragma once

#include "describable.h"
#include "look.h"
#include "runsession.h"
#include "tracefwd.h"

#include <QWidget>

namespace rankstep::gui {

// Paints two runs on one time axis: A's timeline, B's timeline, then the memory over time of the
// rank that peaked in each run, overlaid (A solid, B dashed). A real run beside a simulated one
// (other units) gets an axis of its own: each run spans the width, its memory its own height, so
// the shapes compare. Its rows are never thinner than a rank's label at the zoom: the canvas
// asks for the height both runs' rows and the memory plot need, and its page scrolls.
class ComparisonCanvas
    : public QWidget
    , public Describable
{
    Q_OBJECT
public:
    explicit ComparisonCanvas(QWidget *parent = nullptr);

    QString describedName() const override { return QStringLiteral("compare"); }
    QStringList elidedTexts() const override { return m_elided.texts(); }
    // The height of each run's rank rows as painted (tests), in pixels.
    double rowHeight() const;
    // The memory plot's frame as painted (tests), in this widget.
    QRectF memoryPlot() const;
    void setRuns(TracePtr a, TracePtr b, Look look, TraceUnits aUnits = TraceUnits::SimulatedSteps,
                 TraceUnits bUnits = TraceUnits::SimulatedSteps);
    // The pixel x of time `ticks` of run `run` (0: A, 1: B); one axis for both when their units
    // agree.
    double xOf(double ticks, int run = 0) const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintMemory(QPainter &painter, const QRectF &area);
    // A title in one line: noted as cut when wider than the canvas.
    void paintTitle(QPainter &painter, const QRectF &box, const QString &text);

    core::SimTime axisEnd(int run) const;
    double titleHeight() const;
    double minRowHeight() const; // a rank's label, whole
    double memoryHeight() const; // the memory plot's band, with its title
    int neededHeight() const;    // both runs' rows at minRowHeight and the memory band

    TracePtr m_a, m_b;
    Look m_look;
    TraceUnits m_units[2] = {TraceUnits::SimulatedSteps, TraceUnits::SimulatedSteps};
    ElidedTexts m_elided;
};

} // namespace rankstep::gui
