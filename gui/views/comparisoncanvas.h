// SPDX-License-Identifier: MIT
#pragma once

#include "look.h"
#include "tracefwd.h"

#include <QWidget>

namespace rankstep::gui {

// Paints two runs on one time axis: A's timeline, B's timeline, then the memory over time of the
// rank that peaked in each run, overlaid (A solid, B dashed).
class ComparisonCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonCanvas(QWidget *parent = nullptr);
    void setRuns(TracePtr a, TracePtr b, Look look);
    // The pixel x of time `ticks` in both timelines (one axis for both).
    double xOf(double ticks) const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintMemory(QPainter &painter, const QRectF &area) const;

    TracePtr m_a, m_b;
    Look m_look;
};

} // namespace rankstep::gui
