// SPDX-License-Identifier: MIT
#pragma once

#include <QChartView>
#include <QPoint>

namespace rankstep::gui {

// The memory chart's view: a horizontal drag zooms the time axis (QChart's rubber band), a plain
// click (no drag) reports where it landed instead of zooming, and a right click asks for the
// whole run again instead of zooming out by half.
class MemoryChartView : public QChartView
{
    Q_OBJECT

public:
    explicit MemoryChartView(QChart *chart, QWidget *parent = nullptr);

signals:
    void plotClicked(QPointF scenePosition);
    void zoomResetRequested();

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QPoint m_pressPosition;
};

} // namespace rankstep::gui
