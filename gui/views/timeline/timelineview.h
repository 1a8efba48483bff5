// SPDX-License-Identifier: MIT
#pragma once

#include "core/trace.h"
#include "describable.h"
#include "look.h"
#include "timelineframe.h"

#include "core/explain/waitexplain.h"
#include "timelinegeometry.h"
#include "tracederived.h"

#include <QPoint>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <optional>

class QScrollBar;

namespace rankstep::gui {

class Appearance;
class RunSession;

// One row per shown rank (the session's shownRanks), simulated time across: every event of a run as
// a block in the shared palette, messages as arrows from pass_to to receive. A function of the
// session (its trace, cursor and visible range) and the appearance; zooming and panning set the
// session's range.
//
// Mouse: the wheel (with or without Ctrl) zooms about the pointer; Shift+wheel or a horizontal
// wheel pans; dragging pans; hovering a block tells what it is; clicking it selects its event
// and source line. Keys: + and - zoom, Left and Right pan, Home and End jump to the start and
// end, 0 or F fits the whole run. Rows never get thinner than their label: when the ranks do not
// fit, a scroll bar at the right scrolls them (so does the wheel over the rank labels).
class TimelineView
    : public QWidget
    , public Describable
{
    Q_OBJECT

public:
    TimelineView(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // Describable: the cursor's time; the label of every rank row the view shows only in part
    // (scrolled half away) or whose label does not fit its column.
    QString describedName() const override { return QStringLiteral("timeline"); }
    std::optional<core::SimTime> shownTime() const override { return m_cursor; }
    QStringList elidedTexts() const override;

    // The session's trace, as drawn.
    const std::shared_ptr<const core::Trace> &trace() const { return m_trace; }

    // The geometry of the current frame, for the memory chart to line up with and for tests.
    int rowCount() const { return m_layout.rows; }
    const RowLayout &rowLayout() const { return m_layout; }
    const TimeAxis &timeAxis() const { return m_axis; }
    core::SimTime visibleFrom() const;
    core::SimTime visibleTo() const;
    std::optional<core::SimTime> cursorTime() const { return m_cursor; }
    std::optional<std::size_t> ghostAfter() const { return m_ghostAfter; }
    // How often the cached picture was drawn from the events (TimelineFrame), for tests.
    int baseRenders() const { return m_frame.baseRenders(); }

    // The scroll bar of rows that do not fit (hidden when they do).
    QScrollBar *rowScrollBar() const { return m_scrollBar; }
    void scrollRowsTo(double pixels);
    // The least row height: the height of a rank label at the current zoom.
    double minRowHeight() const;
    // The height that shows the axis and every shown rank (at most `mostRows`) at the least row
    // height: what the window gives the timeline before the memory chart grows.
    int heightForRows(int mostRows) const;

    // Where time could go by this view's own layout (after the rank labels), in its pixels.
    PixelSpan naturalTimeSpan() const;
    // Pins the time area's edges (this widget's x, within naturalTimeSpan) to line up with
    // another view; nullopt gives them back to the layout.
    void setTimeSpan(std::optional<PixelSpan> span);

    std::optional<std::size_t> eventAt(QPointF position) const;
    // The idle gap under `position` (an index into gaps()); nullopt on a block or away from one.
    std::optional<std::size_t> gapAt(QPointF position) const;
    const std::vector<explain::Wait> &gaps() const { return m_derived->gaps(); }
    QString toolTipAt(QPointF position) const; // empty away from any block

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void fitToWindow();
    void zoomIn();
    void zoomOut();
    void setVisibleRange(core::SimTime from, core::SimTime to);
    void setCursorTime(core::SimTime time);
    void clearCursorTime();
    void setGhostAfter(std::optional<std::size_t> eventCount);

Q_SIGNALS:
    void eventClicked(int eventIndex);
    void lineActivated(int line);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void leaveEvent(QEvent *event) override;

private:
    void onTraceChanged();
    void onCursorChanged();
    void followSteppingRank();
    void fillRowCuts();
    void onVisibleRangeChanged();
    bool hasEvents() const;
    void updateLayout();
    void setAxis(const TimeAxis &axis);
    void setHovered(std::optional<std::size_t> index);
    void placeScrollBar();
    void onClicked(QPointF position);

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    // What the session derived from m_trace: its rows by rank, message links and idle gaps
    // (every rank's, without chains: drawn dotted).
    std::shared_ptr<const TraceDerived> m_derived;
    const std::vector<RankEvents> &ranks() const { return m_derived->ranks(); }
    TimelineFrame m_frame;
    std::optional<PixelSpan> m_timeSpan;
    core::SimTime m_end; // the latest end of any event
    RowLayout m_layout;
    TimeAxis m_axis;
    std::optional<core::SimTime> m_cursor;
    std::optional<std::size_t> m_ghostAfter;
    std::vector<std::size_t> m_rankGhostAfter; // per rank at a time cut
    std::vector<std::size_t> m_running;
    std::optional<std::size_t> m_hovered;
    double m_scroll = 0.0;    // pixels the rows are scrolled, whole rows
    double m_wheelRows = 0.0; // a wheel's rows not scrolled yet (a touchpad's fractions)
    QScrollBar *m_scrollBar;
    std::optional<QPointF> m_pressPosition;
    QPointF m_lastDragPosition;
    bool m_dragging = false;
};

} // namespace rankstep::gui
