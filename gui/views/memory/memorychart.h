// SPDX-License-Identifier: MIT
#pragma once

#include "core/simtime.h"
#include "core/trace.h"
#include "describable.h"
#include "look.h"
#include "memoryseries.h"
#include "timelinegeometry.h"
#include "tracederived.h"

#include <QList>
#include <QPen>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QCategoryAxis;
class QChart;
class QChartView;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QStackedLayout;
class QToolButton;
class QValueAxis;

namespace rankstep::gui {

// A run of more ranks than this draws a line for each shown rank and a band for a stage's ranks.
inline constexpr int kWideRunRanks = 256;

class Appearance;
class MemoryChartView;
class RunSession;

// Each rank's memory over simulated time (bytes against steps), drawn from an immutable trace:
// one step line per shown rank (the session's shownRanks) in its palette color, the run's maximum
// as a red point with its label, the lesson's memory target as a dashed line, and the stepping
// cursor as a vertical line. A function of the session (trace, cursor, visible range) and the
// appearance (pens and fonts zoom with it; a dark palette gives the chart's dark theme). The x axis
// shows the session's range, which the timeline sets too; a horizontal drag zooms (the session's
// range), a right click shows the whole run, a plain click steps to the nearest call. Stepping the
// cursor repaints a cached rendering of the chart with the cursor line and the ghosting of the time
// after it on top (MemoryChartView).
//
// "By kind" stacks one rank's memory by what fills it (weights, optimizer states, activations,
// activation gradients, weight gradients; core/explain/memoryexplain.h) on the same time axis
// instead of the ranks' lines: the session's selected rank, or the rank of the run's maximum.
// A lesson's model-state memory per rank (core/explain/formulas.h) is a dotted reference line.
// The session's trace (none, or one without events: a placeholder text instead of the chart) and
// its lesson (the target, which lessons have a model state) are all it draws from.
//
// The memory axis' labels are the chart's own items, not Qt Charts': Qt Charts elides a vertical
// label to "…" when the plot's height divided by the labels is less than a label's height, or
// when a pinned plot area leaves less than its width. The chart keeps as many ticks as their
// labels' height allows and a left margin as wide as the widest label at the current font.
class MemoryChart
    : public QWidget
    , public Describable
{
    Q_OBJECT

public:
    MemoryChart(RunSession &session, Appearance &appearance, QWidget *parent = nullptr);

    // Describable: "memory", the session's cursor time, and the axis labels it could not draw.
    QString describedName() const override { return QStringLiteral("memory"); }
    std::optional<core::SimTime> shownTime() const override;
    QStringList elidedTexts() const override;
    // The memory axis' labels as drawn (tests): their texts and where they sit in the chart.
    QList<std::pair<QString, QRectF>> memoryLabels() const;

    bool byKind() const { return m_byKind; }
    // The rank stacked by kind: the session's selected rank, else the rank of the run's maximum.
    int kindRank() const;
    // Each kind's upper edge as drawn (tests): empty unless by kind.
    QList<QPointF> kindUpperEdge(int kind) const;
    const QGraphicsSimpleTextItem *modelStateLabel() const { return m_modelLabel; }
    QToolButton *byKindButton() const { return m_byKindButton; }
    void setDarkTheme(bool dark);

    QChart *chart() const { return m_chart; }
    QChartView *chartView() const;
    bool showsPlaceholder() const;
    QString placeholderText() const; // what it says instead of a chart
    // A run of more than kWideRunRanks ranks: the band of a stage's ranks, by its name ("stage 3:
    // 1024 ranks, least to most; peak 5 GB on rank 3075"); empty when none is drawn.
    const QString &bandName() const { return m_bandName; }
    // The words by the target line ("target 4.19 MB").
    const QGraphicsSimpleTextItem *targetLabel() const { return m_targetLabel; }
    const QGraphicsSimpleTextItem *maximumLabel() const { return m_maxLabel; }
    // The device's memory when the run's cost model gives it (core::CostModel::deviceMemory): a
    // dash-dot line across the run and its words at its left ("80 GB: the device's memory");
    // the maximum's label says by how much the peak fits or overflows it. Null without one.
    const QLineSeries *deviceLine() const { return m_deviceLine; }
    const QGraphicsSimpleTextItem *deviceLabel() const { return m_deviceLabel; }
    // The run's maximum label ("max 1.84 MB (rank 0, t 4)") and where it sits in the chart.
    QString maximumLabelText() const;
    QRectF maximumLabelRect() const;
    QRectF targetLabelRect() const;
    QRectF plotArea() const;
    std::optional<core::SimTime> cursorTime() const;
    // The ranks' numbers at the right end of their lines ("ranks 0-3, 8"), shown past eight ranks,
    // whose colors repeat.
    QStringList endLabelTexts() const;
    QList<QRectF> endLabelRects() const; // where they sit, in the chart's coordinates
    // The pen of a rank's line as drawn now (tests): nullopt when no line of its own is drawn.
    std::optional<QPen> rankLinePen(int rank) const;

    // Where the plot area maps time, in this widget's pixels (ticks as the timeline's axis).
    TimeAxis timeAxis() const;
    // Where Qt Charts would put the plot area's left and right edge by itself, in this widget.
    PixelSpan naturalTimeSpan();
    // Pins the plot area's left and right edge (this widget's x) to line up with another view;
    // an empty span gives the layout back to Qt Charts.
    void setTimeSpan(std::optional<PixelSpan> span);

public Q_SLOTS:
    void setByKind(bool byKind);
    void setVisibleRange(core::SimTime from, core::SimTime to);
    void setCursorTime(core::SimTime time);
    // The timeline's time axis, exactly (fractional ticks): the same mapping in both views.
    void followTimeAxis(const rankstep::gui::TimeAxis &axis);

Q_SIGNALS:
    void timeClicked(core::SimTime time); // the nearest call's start time
    void labelsChanged(); // new axis labels or legend: naturalTimeSpan may have moved
    void byKindChanged(bool byKind);

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onTraceChanged();
    void onCursorChanged();
    void applyZoom(); // the chart's own fonts (its theme sets them in points of its own)
    void setUpChart();
    // A short chart gives its legend's and its time axis title's height to the plot, so that the
    // axes keep room for their numbers (Qt Charts elides them all to "…" otherwise).
    void fitDecorations();
    void rebuild();
    void addRankSeries();
    void addStageBand(); // a run of more than kWideRunRanks ranks
    void addKindSeries();
    void addModelState();
    // A horizontal line across the run at `bytes` (the target, the model state), not in the legend.
    QLineSeries *addLevel(const QString &name, std::int64_t bytes, Qt::PenStyle style);
    void showKindTip(int kind, double time); // what the hovered area holds there
    void placeButton();
    bool isShown(int rank) const;   // by the session's shownRanks
    bool drawsLine(int rank) const; // shown, and no lower rank draws the same line
    int shownCount() const;
    std::vector<MemoryPoint> shownPoints(const std::vector<MemoryPoint> &series) const;
    void refreshLines();
    int highlightedRank() const; // the session's selected rank when its line is shown, else -1
    QColor plotBackground() const;
    void restyleLines(); // the pens after a new selection
    bool showsEndLabels() const;
    void placeEndLabels();
    std::pair<double, double> linesUnder(double left, double right) const;
    void addMaximum();
    void addTarget();
    void addDeviceMemory();
    void placeDeviceLabel();
    void applyTimeSpan();
    void setAxisRange(double from, double to); // steps; ticks bounded all the way
    // Ticks for the run's highest value at the plot's height (default: estimated from the widget).
    void applyMemoryAxis(std::optional<double> plotHeight = std::nullopt);
    int memoryIntervals(double plotHeight) const; // as many as their labels' height allows
    void applyMargins();
    void placeMemoryLabels();
    void applyTimeTicks();
    void placeTargetLabel();
    void placeMaximumLabel();
    void onTimeRangeChanged(qreal min, qreal max);
    void onPlotClicked(QPointF position);

    RunSession &m_session;
    Appearance &m_appearance;
    Look m_look;
    std::shared_ptr<const core::Trace> m_trace;
    // What the session derived from m_trace (taken with it: a redraw the session asks for before
    // this chart took a new trace still draws the old one).
    std::shared_ptr<const TraceDerived> m_derived;
    // The lesson's memory target, and the weights and optimizer states a rank of the run should
    // hold (bytes); none hides the line, and a run in real time and bytes shows neither.
    std::optional<std::int64_t> shownTarget() const;
    std::optional<std::int64_t> shownModelState() const;
    std::optional<std::int64_t> shownDeviceMemory() const;
    bool m_byKind = false;
    std::optional<PixelSpan> m_timeSpan;
    bool m_dark = false;
    bool m_settingRange = false; // a range set by code, not by the user: no signal

    QStackedLayout *m_stack = nullptr;
    QLabel *m_placeholder = nullptr;
    MemoryChartView *m_view = nullptr;
    QChart *m_chart = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QCategoryAxis *m_memoryAxis = nullptr;
    QGraphicsSimpleTextItem *m_targetLabel = nullptr;
    // Each rank's whole line (sharedMemorySeries), none in the by-kind view.
    std::shared_ptr<const RankSeries> m_lineSeries;
    const RankSeries &lineSeries() const
    {
        static const RankSeries none;
        return m_lineSeries ? *m_lineSeries : none;
    }
    QList<QLineSeries *> m_lines;                  // drawing them, decimated (shownPoints)
    std::vector<int> m_lineRanks;                  // the rank of each of m_lines
    QList<QGraphicsSimpleTextItem *> m_endLabels;  // at the lines' right ends
    std::vector<LineShare> m_shares;               // which ranks share a line (sharedLines)
    QGraphicsSimpleTextItem *m_maxLabel = nullptr; // placed clear of the target (labelplacement.h)
    QGraphicsRectItem *m_maxBackdrop = nullptr;    // behind the maximum's label
    QGraphicsSimpleTextItem *m_modelLabel = nullptr;  // below the model-state line, at the left
    QLineSeries *m_deviceLine = nullptr;              // owned by the chart; null without one
    QGraphicsSimpleTextItem *m_deviceLabel = nullptr; // above the device's line, at the left
    QGraphicsRectItem *m_deviceBackdrop = nullptr;    // behind its words
    std::vector<QLineSeries *> m_kindUppers;          // by kind: each kind's upper edge (owned)
    std::vector<QLineSeries *> m_bandEdges;           // the stage band's edges (owned)
    QString m_bandName;
    std::int64_t m_kindHighest = 0; // by kind: the highest stacked total
    QToolButton *m_byKindButton = nullptr;
    std::vector<std::int64_t> m_memoryTicks;              // bytes, from 0 up
    std::vector<QGraphicsSimpleTextItem *> m_memoryTexts; // their labels (owned by the chart)
    int m_labelRoom = 0;  // the widest label's width and its gap to the plot, in pixels
    int m_topMargin = 10; // the legend's band, or the "By kind" button's
    ElidedTexts m_elided; // the labels left out at the last placing
    bool m_refitting = false;
};

} // namespace rankstep::gui
