// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "timelinegeometry.h"

#include <QChartView>
#include <QPixmap>
#include <QPoint>
#include <QRectF>

#include <optional>

namespace rankstep::gui {

// The memory chart's view: a horizontal drag zooms the time axis (QChart's rubber band), a plain
// click (no drag) reports where it landed instead of zooming, and a right click asks for the
// whole run again instead of zooming out by half.
//
// Qt Charts renders the scene (series, axes, maximum, target) into a cached pixmap only when the
// scene changes (trace, size, zoom, theme); a step repaints that pixmap with the cursor line and
// the ghosting of the time after it on top, so it never makes the chart lay out or redraw.
class MemoryChartView : public QChartView
{
    Q_OBJECT

public:
    explicit MemoryChartView(QChart *chart, QWidget *parent = nullptr);

    // The plot area's time mapping in viewport pixels and ticks (as the timeline's).
    TimeAxis timeAxis() const;
    void setCursorTime(std::optional<core::SimTime> time);
    std::optional<core::SimTime> cursorTime() const { return m_cursorTime; }
    // How often the scene was rendered into the cache: once per change, not once per step.
    int sceneRenders() const { return m_sceneRenders; }
    // A part of the chart (chart coordinates; empty: none) drawn over the cursor line and the
    // veil, as the scene has it: the maximum's label, which the cursor standing near the
    // maximum crossed.
    void setKeptOverCursor(const QRectF &chartRect);

Q_SIGNALS:
    void plotClicked(QPointF scenePosition);
    void zoomResetRequested();

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    void renderScene();
    void paintCursor(QPainter &painter) const;

    QPoint m_pressPosition;
    // A left press reaches QChartView (whose rubber band zooms) only once the mouse drags, so a
    // click never opens a band that would zoom into a sliver.
    bool m_leftPressed = false;
    bool m_dragging = false;
    QPixmap m_scene;
    QColor m_veil;
    bool m_sceneStale = true;
    int m_sceneRenders = 0;
    std::optional<core::SimTime> m_cursorTime;
    QRectF m_keptOverCursor;
};

} // namespace rankstep::gui
