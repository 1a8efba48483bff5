// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QCategoryAxis;
class QChart;
class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QStackedLayout;
class QValueAxis;

namespace rankstep::gui {

// Each rank's memory over simulated time (bytes against steps), drawn from an immutable trace:
// one step line per rank in its palette color, the run's maximum as a red point with its label,
// the lesson's memory target as a dashed line, and the stepping cursor as a vertical line.
// The x axis follows the timeline's zoom (setVisibleRange); a horizontal drag zooms the chart
// (visibleRangeChanged), a right click shows the whole run, a plain click steps to the nearest
// call (timeClicked).
class MemoryChart : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryChart(QWidget *parent = nullptr);

    // Null or without events: a placeholder text instead of the chart.
    void setTrace(std::shared_ptr<const core::Trace> trace);
    void setTarget(std::optional<std::int64_t> target); // bytes; none hides the line
    void setDarkTheme(bool dark);

    QChart *chart() const { return m_chart; }
    QChartView *chartView() const { return m_view; }
    bool showsPlaceholder() const;

public slots:
    void setVisibleRange(core::SimTime from, core::SimTime to);
    void setCursorTime(core::SimTime time);

signals:
    void visibleRangeChanged(core::SimTime from, core::SimTime to); // the user zoomed the chart
    void timeClicked(core::SimTime time);                           // the nearest call's start time

private:
    void setUpChart();
    void rebuild();
    void addRankSeries();
    void addMaximum();
    void addTarget();
    void addCursor();
    void applyMemoryAxis();
    void applyTimeTicks();
    void placeTargetLabel();
    void onTimeRangeChanged(qreal min, qreal max);
    void onPlotClicked(QPointF position);

    std::shared_ptr<const core::Trace> m_trace;
    std::optional<std::int64_t> m_target;
    std::optional<core::SimTime> m_cursorTime;
    bool m_dark = false;
    bool m_settingRange = false; // a range set by code, not by the user: no signal

    QStackedLayout *m_stack = nullptr;
    QLabel *m_placeholder = nullptr;
    QChartView *m_view = nullptr;
    QChart *m_chart = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QCategoryAxis *m_memoryAxis = nullptr;
    QLineSeries *m_cursor = nullptr;
    QGraphicsSimpleTextItem *m_targetLabel = nullptr;
};

} // namespace rankstep::gui
