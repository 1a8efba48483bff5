// SPDX-License-Identifier: MIT
#include "memorychart.h"

#include "appearance.h"
#include "boundedtimeaxis.h"
#include "core/explain/formulas.h"
#include "core/explain/memoryexplain.h"
#include "enginetext.h"
#include "kindcolors.h"
#include "labelplacement.h"
#include "memoryband.h"
#include "memorychartview.h"
#include "memorydecimation.h"
#include "memorykindchart.h"
#include "memoryseries.h"
#include "palette.h"
#include "ranklines.h"
#include "runsession.h"
#include "theme.h"
#include "timelinetext.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QStackedLayout>
#include <QToolButton>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace rankstep::gui {

namespace {

constexpr int kLegendRanks = 8;         // more ranks: no legend, thin lines
constexpr int kDistinctLinesAbove = 64; // more ranks: ranks with equal lines draw one of them
constexpr int kMemoryTicks = 5;         // at most this many intervals on the value axis
constexpr int kTimeTicks = 10;          // and on the time axis
constexpr double kHeadroom = 1.15;      // room above the highest value for the maximum's label
constexpr int kMinColumns = 1024;       // a rank's line keeps at least 4 points per pixel of this
constexpr double kLabelGap = 6.0;       // between a memory label and the plot's left edge
constexpr double kLabelSpacing = 1.5;   // memory ticks at least this many label heights apart

QList<QPointF> toPoints(const std::vector<MemoryPoint> &series)
{
    QList<QPointF> points;
    points.reserve(qsizetype(series.size()));
    for (const MemoryPoint &point : series)
        points.append(QPointF(point.time.toDouble(), static_cast<double>(point.memory)));
    return points;
}

// Ranks on one path take turns dash by dash (in pen widths), so each color shows; else past
// eight ranks, whose colors repeat, each group of eight dashes its own way (ranklines.h). The
// selected rank's line is thicker, the others muted toward `background`.
QPen rankPen(int rank, int ranks, LineShare share, int selected, const QColor &background,
             const Look &look)
{
    constexpr double dash = 4;
    const RankLineLook line = rankLineLook(rank, selected, look.colors(), background,
                                           look.scaled(ranks > kLegendRanks ? 1.0 : 2.0));
    QPen pen(line.color, line.width);
    // A one-pixel line: the cosmetic stroker draws it without computing joins (most of the time
    // a million-event chart took to paint went to QStroker's joins).
    pen.setCosmetic(pen.widthF() <= 1.0);
    if (share.count > 1) {
        pen.setCapStyle(Qt::FlatCap);
        pen.setDashPattern({dash, dash * (share.count - 1)});
        pen.setDashOffset(dash * share.index);
    } else if (!line.dashes.isEmpty()) {
        pen.setCapStyle(Qt::FlatCap);
        pen.setDashPattern(line.dashes);
    }
    return pen;
}

void hideFromLegend(QChart *chart, QAbstractSeries *series)
{
    for (QLegendMarker *marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

// The font an object had at zoom 1, kept on it the first time: the chart keeps its theme's fonts
// across setDarkTheme when the theme does not change, and zooms must not compound.
QFont unzoomed(QObject &object, const char *name, const QFont &font)
{
    const QVariant kept = object.property(name);
    if (kept.isValid())
        return kept.value<QFont>();
    object.setProperty(name, font);
    return font;
}

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    return font;
}

} // namespace

MemoryChart::MemoryChart(RunSession &session, Appearance &appearance, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_appearance(appearance)
    , m_look(appearance.look())
    , m_stack(new QStackedLayout(this))
    , m_placeholder(new QLabel(tr("Run a program to see each rank's memory over time."), this))
    , m_chart(new QChart)
    , m_timeAxis(new QValueAxis(m_chart))
    , m_memoryAxis(new QCategoryAxis(m_chart))
{
    m_view = new MemoryChartView(m_chart, this);
    connect(m_view, &MemoryChartView::plotClicked, this, &MemoryChart::onPlotClicked);
    connect(m_view, &MemoryChartView::zoomResetRequested, &m_session, &RunSession::showWholeRun);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_view);
    setUpChart();
    m_targetLabel = new QGraphicsSimpleTextItem(m_chart);
    m_maxLabel = new QGraphicsSimpleTextItem(m_chart);
    // Over the series (the stacked areas would hide it), on a backdrop of the chart's own
    // background so that it reads over lines and areas alike.
    m_maxBackdrop = new QGraphicsRectItem(m_chart);
    m_maxBackdrop->setPen(Qt::NoPen);
    m_maxBackdrop->setZValue(10);
    m_maxLabel->setZValue(11);
    m_modelLabel = new QGraphicsSimpleTextItem(m_chart);
    m_modelLabel->hide();
    m_deviceLabel = new QGraphicsSimpleTextItem(m_chart);
    m_deviceLabel->hide();
    // Over the ranks' lines, which a layout that does not fit draws through its words.
    m_deviceBackdrop = new QGraphicsRectItem(m_chart);
    m_deviceBackdrop->setPen(Qt::NoPen);
    m_deviceBackdrop->setZValue(10);
    m_deviceBackdrop->hide();
    m_deviceLabel->setZValue(11);
    m_byKindButton = new QToolButton(this);
    m_byKindButton->setObjectName(QStringLiteral("memoryByKind"));
    m_byKindButton->setCheckable(true);
    m_byKindButton->setToolTip(
        tr("Stack one rank's memory by what fills it: weights, optimizer states, activations, "
           "activation gradients and weight gradients (the rank selected on the timeline, or "
           "the rank of the maximum)"));
    m_byKindButton->hide(); // shown with a run
    connect(m_byKindButton, &QToolButton::toggled, this, &MemoryChart::setByKind);
    connect(m_timeAxis, &QValueAxis::rangeChanged, this, &MemoryChart::onTimeRangeChanged);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        placeMemoryLabels();
        placeTargetLabel();
    });
    setDarkTheme(isDark(palette()));
    connect(&session, &RunSession::traceChanged, this, &MemoryChart::onTraceChanged);
    connect(&session, &RunSession::lessonChanged, this, [this] { rebuild(); });
    connect(&session, &RunSession::shownRanksChanged, this, [this] { rebuild(); });
    connect(&session, &RunSession::selectedRankChanged, this, [this] {
        if (m_byKind)
            rebuild(); // the selected rank's kinds
        else
            restyleLines(); // the selected rank's line stands out
    });
    connect(&session.stepper(), &StepController::cursorChanged, this,
            &MemoryChart::onCursorChanged);
    connect(this, &MemoryChart::timeClicked, &session, [this](core::SimTime time) {
        if (m_trace == m_session.trace()) // the session's cursor to the nearest call
            m_session.stepper().toTime(time);
    });
    connect(&session, &RunSession::visibleRangeChanged, this, [this] {
        const TimeRange range = m_session.visibleRange();
        const double ticks = double(core::SimTime::kTicksPerStep);
        if (range.to <= range.from ||
            (m_timeAxis->min() == range.from / ticks && m_timeAxis->max() == range.to / ticks))
            return;
        setAxisRange(range.from / ticks, range.to / ticks);
    });
    connect(&appearance, &Appearance::lookChanged, this, [this] {
        m_look = m_appearance.look();
        rebuild(); // pens at the new zoom and colors
        applyZoom();
    });
}

void MemoryChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // The theme, or the desktop's light or dark: the chart keeps a theme of its own.
    if (event->type() == QEvent::PaletteChange && isDark(palette()) != m_dark)
        setDarkTheme(isDark(palette()));
}

void MemoryChart::onCursorChanged()
{
    const StepController &step = m_session.stepper();
    if (step.cursor())
        setCursorTime(step.cursorTime());
    else
        m_view->setCursorTime(std::nullopt);
}

void MemoryChart::applyZoom()
{
    for (QAbstractAxis *axis : m_chart->axes()) {
        axis->setLabelsFont(
            scaledFont(unzoomed(*axis, "rankstepLabelsFont", axis->labelsFont()), m_look.zoom));
        axis->setTitleFont(
            scaledFont(unzoomed(*axis, "rankstepTitleFont", axis->titleFont()), m_look.zoom));
    }
    QLegend *legend = m_chart->legend();
    legend->setFont(scaledFont(unzoomed(*legend, "rankstepFont", legend->font()), m_look.zoom));
    // The target's words in the legend's font, at the zoom too.
    m_targetLabel->setFont(legend->font());
    m_deviceLabel->setFont(legend->font());
    fitDecorations(); // the memory labels' room at their new size
    placeTargetLabel();
    Q_EMIT labelsChanged(); // the plot's natural left edge moved with the labels' width
}

void MemoryChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitDecorations();
    placeButton();
}

void MemoryChart::placeButton()
{
    m_byKindButton->setText(m_byKind && m_trace ? tr("By kind: rank %1").arg(kindRank())
                                                : tr("By kind"));
    m_byKindButton->adjustSize();
    const int margin = int(m_look.scaled(2));
    m_byKindButton->move(width() - m_byKindButton->width() - margin, margin);
    m_byKindButton->raise();
}

void MemoryChart::setByKind(bool byKind)
{
    if (byKind == m_byKind)
        return;
    m_byKind = byKind;
    m_byKindButton->setChecked(byKind);
    rebuild();
    Q_EMIT byKindChanged(byKind);
}

int MemoryChart::kindRank() const
{
    if (!m_trace)
        return 0;
    const int selected = m_trace == m_session.trace() ? m_session.selectedRank() : -1;
    return selected >= 0 && selected < m_trace->config.ranks ? selected
                                                             : m_trace->figures.maxMemoryRank;
}

QList<QPointF> MemoryChart::kindUpperEdge(int kind) const
{
    if (kind < 0 || std::size_t(kind) >= m_kindUppers.size())
        return {};
    return m_kindUppers[std::size_t(kind)]->points();
}

void MemoryChart::fitDecorations()
{
    constexpr double kRoomyHeight = 200.0; // unzoomed pixels: legend, title, labels and a plot
    const bool roomy = height() >= m_look.scaled(kRoomyHeight);
    // By kind, the colors need their names: the legend stays down to a shorter chart (the
    // areas say their kind on hover too).
    constexpr double kKindLegendHeight = 150.0;
    const bool kindLegend = m_byKind && height() >= m_look.scaled(kKindLegendHeight);
    const bool legend = m_trace && (kindLegend || (roomy && shownCount() <= kLegendRanks));
    m_chart->legend()->setVisible(legend);
    // The "By kind" button sits at the top right, in the legend's band or, without a legend, in
    // a band of its own: never over the plot (the maximum's label goes there).
    m_topMargin = legend ? 10 : m_byKindButton->sizeHint().height() + 2;
    m_timeAxis->setTitleVisible(roomy);
    // Below its top band and four lines (a plot for two memory labels, the times and their
    // padding) Qt Charts cut every time label to "...": a chart that short (presenting with the
    // quiz, 150 %) leaves its times to the timeline right above, whose axis is the same.
    const double line = QFontMetricsF(m_timeAxis->labelsFont()).height();
    m_timeAxis->setLabelsVisible(height() >= m_topMargin + 4 * line);
    if (m_trace && m_trace->figures.hasEvents)
        applyMemoryAxis(); // as many labels as now fit, and their width
    else
        applyMargins();
}

void MemoryChart::applyMargins()
{
    // The top and right margins leave room for the top memory label and the last time label;
    // without time labels, the bottom leaves half a label's height for "0 B".
    const int bottom =
        m_timeAxis->labelsVisible()
            ? 4
            : int(std::ceil(QFontMetricsF(m_memoryAxis->labelsFont()).height() / 2)) + 2;
    const QMargins margins(4 + m_labelRoom, m_topMargin, 10, bottom);
    if (m_chart->margins() != margins)
        m_chart->setMargins(margins);
}

// The lesson's target and the model state are simulated bytes: a real run's are other bytes.
std::optional<std::int64_t> MemoryChart::shownTarget() const
{
    return m_session.memoryTarget();
}

// What a rank of a data-parallel or sharded lesson should hold for this run's ranks
// (docs/explain.md).
std::optional<std::int64_t> MemoryChart::shownModelState() const
{
    const lessons::Lesson *lesson = m_session.lesson();
    if (m_session.units() == TraceUnits::Seconds || !lesson || !m_trace)
        return std::nullopt;
    const int sharers = explain::modelSharers(lesson->parallelism, m_trace->config.ranks);
    if (sharers <= 0)
        return std::nullopt;
    return explain::modelStateBytes(m_trace->config, sharers);
}

// The device's memory the run's cost model gives (a real-scale one, whose run is shown in
// real time; a run on real processes has none).
std::optional<std::int64_t> MemoryChart::shownDeviceMemory() const
{
    if (!m_trace || m_trace->config.cost.deviceMemory <= 0)
        return std::nullopt;
    return m_trace->config.cost.deviceMemory;
}

void MemoryChart::setUpChart()
{
    m_timeAxis->setTitleText(tr("time (%1)").arg(timeUnitName(m_session.units())));
    m_timeAxis->setLabelFormat(QStringLiteral("%.10g")); // 2000000, not 2e+06
    m_timeAxis->setTickType(QValueAxis::TicksDynamic);
    m_timeAxis->setTickAnchor(0);
    setAxisRange(m_timeAxis->min(), m_timeAxis->max());
    m_memoryAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_memoryAxis->setLabelsVisible(false); // drawn by placeMemoryLabels, never elided
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_memoryAxis, Qt::AlignLeft);
    m_chart->legend()->setAlignment(Qt::AlignTop); // the plot keeps the timeline's width
    m_chart->setBackgroundRoundness(0);
    // The pane's height, not Qt Charts' wish for its axes and legend, sizes the chart: a chart
    // taller than its view was scrolled, its top labels cut.
    m_chart->setMinimumSize(0, 0);
    applyMargins();
    m_chart->layout()->setContentsMargins(0, 0, 0, 0); // no frame inside the app's panes
}

QChartView *MemoryChart::chartView() const
{
    return m_view;
}

bool MemoryChart::showsPlaceholder() const
{
    return m_stack->currentWidget() == m_placeholder;
}

QString MemoryChart::placeholderText() const
{
    return m_placeholder->text();
}

std::optional<core::SimTime> MemoryChart::cursorTime() const
{
    return m_view->cursorTime();
}

TimeAxis MemoryChart::timeAxis() const
{
    TimeAxis axis = m_view->timeAxis();
    axis.left += m_view->mapTo(this, QPoint(0, 0)).x();
    return axis;
}

PixelSpan MemoryChart::naturalTimeSpan()
{
    const std::optional<PixelSpan> pinned = std::exchange(m_timeSpan, std::nullopt);
    applyTimeSpan();
    const TimeAxis natural = timeAxis();
    m_timeSpan = pinned;
    applyTimeSpan();
    return {natural.left, natural.left + natural.width};
}

void MemoryChart::setTimeSpan(std::optional<PixelSpan> span)
{
    if (span == m_timeSpan)
        return;
    m_timeSpan = span;
    applyTimeSpan();
}

void MemoryChart::applyTimeSpan()
{
    m_chart->setPlotArea(QRectF()); // Qt Charts' own layout, for the plot's top and bottom
    // A layout that is still valid keeps the plot area it computed for an older size: redo it.
    m_chart->layout()->invalidate();
    m_chart->layout()->activate();
    if (!m_timeSpan || m_timeSpan->right <= m_timeSpan->left)
        return;
    const QRectF natural = m_chart->plotArea();
    const double offset = m_view->mapTo(this, QPoint(0, 0)).x();
    // Never left of where the memory labels need it (the aligner asks for no less than the
    // natural edge of both views; a span from elsewhere would cut the labels).
    const double left = std::max(m_timeSpan->left - offset, natural.left());
    const double right = std::max(left + 1.0, m_timeSpan->right - offset);
    m_chart->setPlotArea(QRectF(left, natural.top(), right - left, natural.height()));
    // Axes and series move at the next layout pass: now, so that no paint shows the old ones.
    m_chart->layout()->invalidate();
    m_chart->layout()->activate();
}

void MemoryChart::onTraceChanged()
{
    m_trace = m_session.trace();
    m_derived = m_session.derivedShared();
    m_view->setCursorTime(std::nullopt); // the new trace's cursor comes from its stepping
    m_timeAxis->setTitleText(tr("time (%1)").arg(timeUnitName(m_session.units())));
    rebuild();
    if (m_trace)
        setVisibleRange(core::SimTime(), m_trace->figures.endTime);
}

void MemoryChart::setDarkTheme(bool dark)
{
    m_dark = dark;
    m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const QColor text = dark ? QColor(220, 220, 220) : QColor(60, 60, 60);
    m_targetLabel->setBrush(text);
    rebuild();   // the theme reset every series' pen
    applyZoom(); // and the fonts
}

void MemoryChart::setVisibleRange(core::SimTime from, core::SimTime to)
{
    if (to <= from)
        return;
    setAxisRange(from.toDouble(), to.toDouble());
}

void MemoryChart::setAxisRange(double from, double to)
{
    m_settingRange = true;
    setBoundedRange(*m_timeAxis, from, to, kTimeTicks);
    m_settingRange = false;
}

void MemoryChart::setCursorTime(core::SimTime time)
{
    m_view->setCursorTime(time); // drawn over the cached chart: Qt Charts has nothing to redo
}

void MemoryChart::followTimeAxis(const TimeAxis &axis)
{
    const double ticks = double(core::SimTime::kTicksPerStep);
    if (axis.to <= axis.from ||
        (m_timeAxis->min() == axis.from / ticks && m_timeAxis->max() == axis.to / ticks))
        return;
    setAxisRange(axis.from / ticks, axis.to / ticks);
}

void MemoryChart::rebuild()
{
    const double from = m_timeAxis->min(), to = m_timeAxis->max();
    m_chart->removeAllSeries();
    m_deviceLine = nullptr; // deleted with the others
    m_bandName.clear();
    m_lines.clear();
    qDeleteAll(m_kindUppers); // the areas that used them went with removeAllSeries
    m_kindUppers.clear();
    qDeleteAll(m_bandEdges);
    m_bandEdges.clear();
    m_kindHighest = 0;
    const bool empty = !m_trace || !m_trace->figures.hasEvents;
    // A run without operations (a starter, an early error) is not a run still to be made.
    m_placeholder->setText(!m_trace ? tr("Run a program to see each rank's memory over time.")
                           : m_trace->status == core::RunStatus::Ok
                               ? tr("The run made no operations: no rank's memory changed.")
                               : tr("The run stopped before any rank's memory changed."));
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_placeholder) : m_view);
    m_byKindButton->setVisible(!empty);
    placeButton();
    if (empty) {
        m_memoryTicks.clear();
        placeMemoryLabels();
        m_targetLabel->hide();
        m_maxLabel->hide();
        m_maxBackdrop->hide();
        m_modelLabel->hide();
        m_deviceLabel->hide();
        m_deviceBackdrop->hide();
        return;
    }
    if (m_byKind)
        addKindSeries(); // first: the memory axis makes room for its highest total
    applyMemoryAxis();
    // Attaching a series sets the time axis to the data's range under the interval it has.
    coarsenFor(*m_timeAxis, 0, m_trace->figures.endTime.toDouble(), kTimeTicks);
    if (m_byKind) {
        for (QAbstractSeries *area : m_chart->series()) {
            area->attachAxis(m_timeAxis);
            area->attachAxis(m_memoryAxis);
        }
    } else {
        addRankSeries();
        addStageBand();
    }
    addMaximum();
    addTarget();
    addDeviceMemory();
    addModelState();
    fitDecorations();
    if (to > from) // attaching series must not move the zoom
        setAxisRange(from, to);
    refreshLines(); // decimated for the range the axis settled on
    applyTimeTicks();
    placeTargetLabel();
    Q_EMIT labelsChanged();
}

int MemoryChart::highlightedRank() const
{
    const int selected = m_trace == m_session.trace() ? m_session.selectedRank() : -1;
    return selected >= 0 && isShown(selected) && shownCount() > 1 ? selected : -1;
}

QColor MemoryChart::plotBackground() const
{
    return m_dark ? QColor(32, 32, 32) : QColor(Qt::white);
}

void MemoryChart::restyleLines()
{
    if (m_byKind || !m_trace)
        return;
    const int selected = highlightedRank();
    for (qsizetype i = 0; i < m_lines.size() && std::size_t(i) < m_lineRanks.size(); ++i) {
        const int rank = m_lineRanks[std::size_t(i)];
        const LineShare share = shownCount() > kDistinctLinesAbove || selected >= 0
                                    ? LineShare{}
                                    : m_shares[std::size_t(rank)];
        m_lines[i]->setPen(rankPen(rank, shownCount(), share, selected, plotBackground(), m_look));
    }
    placeEndLabels();
}

void MemoryChart::addRankSeries()
{
    m_lineSeries = m_derived ? m_derived->memoryLines() : nullptr; // one for every chart
    m_lines.clear();
    m_lineRanks.clear();
    std::vector<bool> shown(lineSeries().size());
    for (std::size_t rank = 0; rank < shown.size(); ++rank)
        shown[rank] = isShown(int(rank));
    m_shares = sharedLines(lineSeries(), shown); // among the shown ranks: one of them draws a line
    const auto &shares = m_shares;
    const int ranks = int(lineSeries().size());
    for (int rank = 0; rank < ranks; ++rank) {
        if (!drawsLine(rank))
            continue; // the rank picker's choice, or a line another rank draws
        auto *series = new QLineSeries;
        m_lines.append(series);
        m_lineRanks.push_back(rank);
        series->setName(m_shares[std::size_t(rank)].count > 1 && shownCount() > kDistinctLinesAbove
                            ? tr("rank %1 and %2 more with the same memory")
                                  .arg(rank)
                                  .arg(m_shares[std::size_t(rank)].count - 1)
                            : tr("rank %1").arg(rank));
        series->replace(toPoints(shownPoints(lineSeries()[std::size_t(rank)])));
        m_chart->addSeries(series);
        series->attachAxis(m_timeAxis);
        series->attachAxis(m_memoryAxis);
        // Many ranks draw a shared line once (drawsLine), solid; a selected rank's line stands
        // out whole.
        const int selected = highlightedRank();
        const LineShare share = shownCount() > kDistinctLinesAbove || selected >= 0
                                    ? LineShare{}
                                    : shares[std::size_t(rank)];
        series->setPen(rankPen(rank, shownCount(), share, selected, plotBackground(), m_look));
    }
}

void MemoryChart::addStageBand()
{
    // A run too wide for a line per rank: the stage of the selected rank (else of the first shown)
    // as a band of its ranks' least to most memory, its median dashed, its peak's rank named.
    const int ranks = int(lineSeries().size());
    if (ranks <= kWideRunRanks)
        return;
    const core::RankLayout layout(ranks, m_trace->config.layout);
    const std::vector<int> &shown = m_session.shownRanks();
    int rank = m_session.selectedRank() >= 0 ? m_session.selectedRank()
                                             : (shown.empty() ? 0 : shown.front());
    rank = std::clamp(rank, 0, ranks - 1);
    std::vector<int> members;
    const int stage = layout.data() > 0 ? layout.coords(rank).pipeline : 0;
    for (int other = 0; other < ranks; ++other)
        if (layout.data() <= 0 || layout.coords(other).pipeline == stage)
            members.push_back(other);
    const MemoryBand band = memoryBand(lineSeries(), members, m_trace->figures.endTime, 400);
    if (band.times.empty())
        return;
    auto *upper = new QLineSeries;
    auto *lower = new QLineSeries;
    m_bandEdges = {upper, lower};
    auto *middle = new QLineSeries;
    for (std::size_t i = 0; i < band.times.size(); ++i) {
        const double t = band.times[i].toDouble();
        upper->append(t, double(band.most[i]));
        lower->append(t, double(band.least[i]));
        middle->append(t, double(band.median[i]));
    }
    auto *area = new QAreaSeries(upper, lower);
    const bool staged = layout.data() > 0 && layout.degree(core::Axis::Pipeline) > 1;
    const QString group = staged ? tr("stage %1").arg(stage) : tr("every rank");
    area->setName(tr("%1: %2 ranks, least to most; peak %3 on rank %4")
                      .arg(group)
                      .arg(members.size())
                      .arg(formatMemory(band.peak))
                      .arg(band.peakRank));
    QColor fill = m_look.colors().rank(rank);
    fill.setAlphaF(0.3F);
    area->setBrush(fill);
    area->setPen(QPen(m_look.colors().rank(rank), m_look.scaled(1.0)));
    m_chart->addSeries(area);
    area->attachAxis(m_timeAxis);
    area->attachAxis(m_memoryAxis);
    middle->setName(tr("%1: median").arg(group));
    middle->setPen(QPen(m_look.colors().rank(rank).darker(130), m_look.scaled(1.5), Qt::DashLine));
    m_chart->addSeries(middle);
    middle->attachAxis(m_timeAxis);
    middle->attachAxis(m_memoryAxis);
    m_bandName = area->name();
    // Past eight ranks the chart has no legend: hovering the band names it, its peak and rank.
    connect(area, &QAreaSeries::hovered, this, [this](const QPointF &, bool state) {
        if (state)
            QToolTip::showText(QCursor::pos(), m_bandName, m_view);
        else
            QToolTip::hideText();
    });
}

bool MemoryChart::showsEndLabels() const
{
    // Colors repeat past eight ranks (and the legend is gone); past 64 lines share.
    return m_trace && !m_byKind && !showsPlaceholder() && shownCount() > kLegendRanks &&
           shownCount() <= kDistinctLinesAbove;
}

// "ranks 0-3, 8" at the right end of the lines, inside the plot: which rank is which line.
void MemoryChart::placeEndLabels()
{
    if (!showsEndLabels()) {
        for (QGraphicsSimpleTextItem *label : m_endLabels)
            label->hide();
        return;
    }
    const QRectF plot = m_chart->plotArea();
    const double ticks = double(core::SimTime::kTicksPerStep);
    const double endSteps = std::min(m_timeAxis->max(), m_trace->figures.endTime.toDouble());
    std::vector<LineEnd> ends;
    for (const int rank : m_lineRanks) {
        const auto &series = lineSeries()[std::size_t(rank)];
        std::int64_t memory = 0; // at the visible range's right end
        for (const MemoryPoint &point : series) {
            if (double(point.time.ticks()) > endSteps * ticks)
                break;
            memory = point.memory;
        }
        ends.push_back({rank, m_chart->mapToPosition(QPointF(endSteps, double(memory))).y()});
    }
    const QFont font = m_targetLabel->font();
    const double height = QFontMetricsF(font).height();
    std::vector<EndLabel> labels =
        endLabels(ends, height, plot.top(), plot.bottom(), highlightedRank());
    while (m_endLabels.size() < qsizetype(labels.size())) {
        auto *label = new QGraphicsSimpleTextItem(m_chart);
        label->setZValue(12);
        m_endLabels.append(label);
    }
    const int selected = highlightedRank();
    const double right =
        std::min(plot.right(), m_chart->mapToPosition(QPointF(endSteps, 0)).x()) - 3;
    // Off the lines they name: at 16,384 ranks presenting, "ranks 0-8, 16, ..." lay across the
    // lines' last hundred steps. The widest label's span (bold: the selected rank's) says where.
    QFont bold = font;
    bold.setBold(true);
    double widest = 0;
    for (const EndLabel &label : labels)
        widest = std::max(widest, QFontMetricsF(bold).horizontalAdvance(label.text));
    const std::pair<double, double> under = linesUnder(right - widest, right + 3);
    clearOfLines(labels, height, plot.top(), plot.bottom(), under.first, under.second);
    for (qsizetype i = 0; i < m_endLabels.size(); ++i) {
        QGraphicsSimpleTextItem *item = m_endLabels[i];
        if (i >= qsizetype(labels.size())) {
            item->hide();
            continue;
        }
        const EndLabel &label = labels[std::size_t(i)];
        const bool chosen =
            std::find(label.ranks.begin(), label.ranks.end(), selected) != label.ranks.end();
        QFont shown = font;
        shown.setBold(chosen);
        item->setFont(shown);
        item->setText(label.text);
        // The first rank's color, as its line; a muted one while another rank is selected.
        item->setBrush(rankLineLook(label.ranks.front(), chosen ? label.ranks.front() : selected,
                                    m_look.colors(), plotBackground(), 1)
                           .color.darker(130));
        const QRectF box = item->boundingRect();
        item->setPos(right - box.width(), label.y - box.height() / 2);
        item->show();
    }
}

// The highest and the lowest pixel (downward y) that the shown ranks' lines reach between the
// chart's x `left` and `right`; (+inf, -inf) where none runs.
std::pair<double, double> MemoryChart::linesUnder(double left, double right) const
{
    const double ticks = double(core::SimTime::kTicksPerStep);
    const double from = m_chart->mapToValue(QPointF(left, 0)).x() * ticks;
    const double to = m_chart->mapToValue(QPointF(right, 0)).x() * ticks;
    std::int64_t most = std::numeric_limits<std::int64_t>::min();
    std::int64_t least = std::numeric_limits<std::int64_t>::max();
    for (const int rank : m_lineRanks) {
        const auto &series = lineSeries()[std::size_t(rank)];
        // A step line: the point before `from` holds until the next.
        auto it = std::upper_bound(series.begin(), series.end(), from,
                                   [](double time, const MemoryPoint &point) {
                                       return time < double(point.time.ticks());
                                   });
        if (it != series.begin())
            --it;
        // Up to the first point past `to`: the line runs straight to it.
        for (; it != series.end(); ++it) {
            most = std::max(most, it->memory);
            least = std::min(least, it->memory);
            if (double(it->time.ticks()) > to)
                break;
        }
    }
    if (most < least)
        return {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    return {m_chart->mapToPosition(QPointF(0, double(most))).y(),
            m_chart->mapToPosition(QPointF(0, double(least))).y()};
}

std::optional<QPen> MemoryChart::rankLinePen(int rank) const
{
    for (qsizetype i = 0; i < m_lines.size() && std::size_t(i) < m_lineRanks.size(); ++i)
        if (m_lineRanks[std::size_t(i)] == rank)
            return m_lines[i]->pen();
    return std::nullopt;
}

QList<QRectF> MemoryChart::endLabelRects() const
{
    QList<QRectF> rects;
    for (const QGraphicsSimpleTextItem *label : m_endLabels)
        if (label->isVisible())
            rects << label->mapRectToParent(label->boundingRect());
    return rects;
}

QStringList MemoryChart::endLabelTexts() const
{
    QStringList texts;
    for (const QGraphicsSimpleTextItem *label : m_endLabels)
        if (label->isVisible())
            texts << label->text();
    return texts;
}

void MemoryChart::addKindSeries()
{
    m_lineSeries.reset(); // no rank lines to decimate
    const core::SimTime end = m_trace->figures.endTime;
    const std::vector<QList<QPointF>> edges =
        stackedKindEdges(bucketSamples(explain::memoryByKind(*m_trace, kindRank()), end,
                                       MemoryKindChart::kMaxBuckets),
                         end, m_kindHighest);
    QLineSeries *lower = nullptr;
    const int kinds = stackedKindCount(*m_trace);
    for (int kind = 0; kind < kinds; ++kind) {
        // Children of this widget, after the view and its chart: the chart, with the areas that
        // use them, goes first when the window closes.
        auto *upper = new QLineSeries(this);
        upper->replace(edges[std::size_t(kind)]);
        m_kindUppers.push_back(upper);
        auto *area = new QAreaSeries(upper, lower);
        const auto objectKind = core::ObjectKind(kind);
        area->setName(kindShortName(objectKind));
        // As the state panels draw the kind (kindcolors.h), in the look's colors.
        const QColor color = kindColor(objectKind, m_look.colors());
        area->setBrush(kindBrush(objectKind, m_look.colors()));
        QPen pen(color.darker(160), 1);
        pen.setCosmetic(true);
        area->setPen(pen);
        m_chart->addSeries(area); // axes attached by rebuild, once the memory axis is set
        connect(area, &QAreaSeries::hovered, this,
                [this, kind](const QPointF &point, bool entered) {
                    if (entered)
                        showKindTip(kind, point.x());
                    else
                        QToolTip::hideText();
                });
        lower = upper;
    }
}

namespace {

// The height of a stacked edge at `time`: the step that holds it (edges hold steps as pairs of
// points, start and end).
double edgeAt(const QList<QPointF> &edge, double time)
{
    double height = 0;
    for (qsizetype i = 0; i + 1 < edge.size(); i += 2)
        if (edge[i].x() <= time)
            height = edge[i].y();
    return height;
}

} // namespace

void MemoryChart::showKindTip(int kind, double time)
{
    if (kind < 0 || std::size_t(kind) >= m_kindUppers.size())
        return;
    const double upper = edgeAt(m_kindUppers[std::size_t(kind)]->points(), time);
    const double lower =
        kind == 0 ? 0.0 : edgeAt(m_kindUppers[std::size_t(kind) - 1]->points(), time);
    QToolTip::showText(QCursor::pos(),
                       tr("Rank %1 holds %2 of %3 at t %4")
                           .arg(kindRank())
                           .arg(formatMemory(std::llround(upper - lower)),
                                kindPlural(core::ObjectKind(kind)), QString::number(time, 'f', 1)),
                       this);
}

void MemoryChart::addModelState()
{
    if (!shownModelState()) {
        m_modelLabel->hide();
        return;
    }
    addLevel(tr("model state"), *shownModelState(), Qt::DotLine);
    m_modelLabel->setText(tr("model state per rank %1").arg(formatMemory(*shownModelState())));
    m_modelLabel->setFont(m_targetLabel->font());
    m_modelLabel->setBrush(m_targetLabel->brush());
}

bool MemoryChart::drawsLine(int rank) const
{
    if (!isShown(rank))
        return false;
    // Very many ranks with one line (FSDP at 1024 ranks: all of them) draw it once, in the
    // first one's color: dashes taking turns among a thousand colors show none of them, and Qt
    // Charts lays out every series it holds (seconds for a thousand).
    const bool many = shownCount() > kDistinctLinesAbove;
    return !many || std::size_t(rank) >= m_shares.size() || m_shares[std::size_t(rank)].index == 0;
}

bool MemoryChart::isShown(int rank) const
{
    const std::vector<int> &shown = m_session.shownRanks();
    return shown.empty() || m_trace != m_session.trace() ||
           std::binary_search(shown.begin(), shown.end(), rank);
}

int MemoryChart::shownCount() const
{
    const std::vector<int> &shown = m_session.shownRanks();
    return shown.empty() || m_trace != m_session.trace() ? m_trace->config.ranks
                                                         : int(shown.size());
}

std::vector<MemoryPoint> MemoryChart::shownPoints(const std::vector<MemoryPoint> &series) const
{
    const double ticks = double(core::SimTime::kTicksPerStep);
    const int columns = std::max(kMinColumns, int(width() * devicePixelRatioF()));
    return decimated(series, m_timeAxis->min() * ticks, m_timeAxis->max() * ticks, columns);
}

// Each shown line again as decimated for the range now shown: a zoom shows the detail it holds.
void MemoryChart::refreshLines()
{
    qsizetype line = 0; // m_lines holds the drawn ranks' lines, in rank order
    for (int rank = 0; rank < int(lineSeries().size()) && line < m_lines.size(); ++rank) {
        if (!drawsLine(rank))
            continue;
        const auto &series = lineSeries()[std::size_t(rank)];
        if (series.size() > 4 * std::size_t(kMinColumns)) // else drawn whole anyway
            m_lines[line]->replace(toPoints(shownPoints(series)));
        ++line;
    }
}

void MemoryChart::addMaximum()
{
    const core::Figures &figures = m_trace->figures;
    auto *marker = new QScatterSeries;
    marker->setName(tr("maximum"));
    marker->append(figures.maxMemoryTime.toDouble(), static_cast<double>(figures.maxMemory));
    m_chart->addSeries(marker);
    marker->attachAxis(m_timeAxis);
    marker->attachAxis(m_memoryAxis);
    marker->setMarkerSize(m_look.scaled(11));
    marker->setColor(m_look.colors().maximum());
    marker->setBorderColor(m_dark ? QColor(20, 20, 20) : QColor(Qt::white));
    // Its label is an item of its own: Qt Charts' point label sits centered above the point,
    // under the target line, over the axis labels or past the right edge.
    // With a device's memory: by how much the peak fits it or overflows it, explain's sentence
    // in its tooltip.
    const std::optional<std::int64_t> device = shownDeviceMemory();
    const std::int64_t spare = device ? *device - figures.maxMemory : 0;
    const QString text = !device      ? tr("max %1 (rank %2, t %3)")
                         : spare >= 0 ? tr("max %1 (rank %2, t %3): fits, %4 to spare")
                                      : tr("max %1 (rank %2, t %3): %4 over the device's memory");
    QString label =
        text.arg(formatMemory(figures.maxMemory))
            .arg(figures.maxMemoryRank)
            .arg(clockText(figures.maxMemoryTime, m_session.units() == TraceUnits::Seconds
                                                      ? QStringLiteral("ms")
                                                      : QString()));
    m_maxLabel->setText(device ? label.arg(formatMemory(std::abs(spare))) : label);
    m_maxLabel->setToolTip(device ? QString::fromStdString(explain::describeDeviceFit(
                                        *m_trace, figures.maxMemory, engineWords()))
                                  : QString());
    QFont font = scaledFont(marker->pointLabelsFont(), m_look.zoom);
    font.setBold(true);
    m_maxLabel->setFont(font);
    m_maxLabel->setBrush(m_look.colors().maximum().darker(m_dark ? 70 : 120));
    marker->setPointLabelsVisible(false);
    hideFromLegend(m_chart, marker);
}

void MemoryChart::addTarget()
{
    if (!shownTarget())
        return;
    addLevel(tr("target"), *shownTarget(), Qt::DashLine);
}

void MemoryChart::addDeviceMemory()
{
    const std::optional<std::int64_t> device = shownDeviceMemory();
    if (!device)
        return;
    m_deviceLine = addLevel(tr("device memory"), *device, Qt::DashDotLine);
    m_deviceLine->setPen(QPen(kDeviceMemory, m_look.scaled(2), Qt::DashDotLine));
    m_deviceLabel->setText(tr("%1: the device's memory").arg(formatMemory(*device)));
    m_deviceLabel->setFont(m_targetLabel->font());
    // The line's orange as text: darker on the light look, where it would read too faintly.
    m_deviceLabel->setBrush(m_dark ? kDeviceMemory : kDeviceMemory.darker(130));
}

QLineSeries *MemoryChart::addLevel(const QString &name, std::int64_t bytes, Qt::PenStyle style)
{
    auto *line = new QLineSeries;
    line->setName(name);
    const double y = static_cast<double>(bytes);
    line->replace(QList<QPointF>{{0, y}, {m_trace->figures.endTime.toDouble(), y}});
    m_chart->addSeries(line);
    line->attachAxis(m_timeAxis);
    line->attachAxis(m_memoryAxis);
    line->setPen(QPen(m_targetLabel->brush().color(), m_look.scaled(1.5), style));
    hideFromLegend(m_chart, line);
    return line;
}

int MemoryChart::memoryIntervals(double plotHeight) const
{
    const double labelHeight = QFontMetricsF(m_memoryAxis->labelsFont()).height();
    return std::clamp(int(plotHeight / (kLabelSpacing * labelHeight)), 1, kMemoryTicks);
}

void MemoryChart::applyMemoryAxis(std::optional<double> plotHeight)
{
    const std::int64_t highest =
        std::max({m_trace->figures.maxMemory, shownTarget().value_or(0),
                  shownModelState().value_or(0), shownDeviceMemory().value_or(0), m_kindHighest});
    // As many ticks as their labels' height allows: the plot's height is the widget's less what
    // the chart put around the plot when it last laid out (placeMemoryLabels corrects it once
    // the chart laid out at this height).
    const QFontMetricsF metrics(m_memoryAxis->labelsFont());
    const double labelHeight = metrics.height();
    const double laidOut = m_chart->plotArea().height();
    const double around =
        laidOut > 0 ? m_chart->size().height() - laidOut : 3.0 * labelHeight + 14.0;
    const int intervals = memoryIntervals(plotHeight.value_or(height() - around));
    m_memoryTicks = memoryTicks(std::llround(static_cast<double>(highest) * kHeadroom), intervals);
    for (const QString &label : m_memoryAxis->categoriesLabels())
        m_memoryAxis->remove(label);
    double widest = 0;
    for (const std::int64_t tick : m_memoryTicks) {
        const QString label = formatMemory(tick);
        m_memoryAxis->append(label, static_cast<double>(tick)); // its grid line
        widest = std::max(widest, metrics.horizontalAdvance(label));
    }
    m_memoryAxis->setRange(0, static_cast<double>(m_memoryTicks.back()));
    m_labelRoom = int(std::ceil(widest + kLabelGap));
    applyMargins();
    placeMemoryLabels();
}

// Each memory tick's label right-aligned left of the plot, centered on its grid line; a label
// that would leave the chart or run into the one below is left out, and noted.
void MemoryChart::placeMemoryLabels()
{
    m_elided.clear();
    const bool shown = !showsPlaceholder() && !m_memoryTicks.empty();
    // The plot as laid out holds fewer ticks than the estimate gave: fewer, before placing.
    if (shown && !m_refitting && m_trace && m_trace->figures.hasEvents &&
        memoryIntervals(m_chart->plotArea().height()) < int(m_memoryTicks.size()) - 1) {
        m_refitting = true;
        applyMemoryAxis(m_chart->plotArea().height()); // places the labels itself
        m_refitting = false;
        return;
    }
    while (m_memoryTexts.size() < m_memoryTicks.size())
        m_memoryTexts.push_back(new QGraphicsSimpleTextItem(m_chart));
    const QRectF plot = m_chart->plotArea();
    const QFont font = m_memoryAxis->labelsFont();
    const QFontMetricsF metrics(font);
    const double top = m_memoryTicks.empty() ? 0.0 : static_cast<double>(m_memoryTicks.back());
    double below = m_chart->size().height(); // the top of the label placed below
    for (std::size_t i = 0; i < m_memoryTexts.size(); ++i) {
        QGraphicsSimpleTextItem *item = m_memoryTexts[i];
        if (!shown || i >= m_memoryTicks.size()) {
            item->hide();
            continue;
        }
        const QString text = formatMemory(m_memoryTicks[i]);
        const double y =
            plot.bottom() -
            (top > 0 ? static_cast<double>(m_memoryTicks[i]) / top : 0.0) * plot.height();
        const QRectF box(plot.left() - kLabelGap - metrics.horizontalAdvance(text),
                         y - metrics.height() / 2, metrics.horizontalAdvance(text),
                         metrics.height());
        if (box.left() < 0 || box.top() < 0 || box.bottom() > below + 0.5) {
            item->hide();
            m_elided.note(text);
            continue;
        }
        item->setFont(font);
        item->setBrush(m_memoryAxis->labelsBrush());
        item->setText(text);
        item->setPos(box.topLeft());
        item->show();
        below = box.top();
    }
}

QList<std::pair<QString, QRectF>> MemoryChart::memoryLabels() const
{
    QList<std::pair<QString, QRectF>> labels;
    for (const QGraphicsSimpleTextItem *item : m_memoryTexts)
        if (item->isVisible())
            labels.append({item->text(), item->mapRectToParent(item->boundingRect())});
    return labels;
}

std::optional<core::SimTime> MemoryChart::shownTime() const
{
    const StepController &step = m_session.stepper();
    if (showsPlaceholder() || !step.cursor() || m_trace != m_session.trace())
        return std::nullopt;
    return cursorTime(); // where its line stands
}

QStringList MemoryChart::elidedTexts() const
{
    if (!isVisible() || showsPlaceholder())
        return {};
    QStringList texts = m_elided.texts();
    // What Qt Charts itself cut (the time axis' labels and title, the legend): drawn with "…",
    // or "..." (its axes truncate so: a short chart's time labels read "..." and were not listed).
    if (m_chart->scene())
        for (const QGraphicsItem *item : m_chart->scene()->items()) {
            const auto *text = dynamic_cast<const QGraphicsTextItem *>(item);
            if (!text || !text->isVisible())
                continue;
            const QString shown = text->toPlainText();
            const bool cut = shown.contains(QChar(0x2026)) || shown.endsWith(QStringLiteral("..."));
            if (cut && !texts.contains(shown))
                texts.append(shown);
        }
    return texts;
}

void MemoryChart::applyTimeTicks()
{
    // For the range just set, by code or by the chart's own rubber band (which zooms in under
    // the previous, coarser interval): bounded either way.
    m_timeAxis->setTickInterval(
        boundedTickInterval(m_timeAxis->min(), m_timeAxis->max(), kTimeTicks));
}

void MemoryChart::placeTargetLabel()
{
    if (const auto modelState = shownModelState(); modelState && !showsPlaceholder()) {
        // Below its dotted line, at the left.
        const double y =
            m_chart->mapToPosition(QPointF(m_timeAxis->min(), static_cast<double>(*modelState)))
                .y();
        // Below its line, or above it where below would leave the plot (a line near 0 B).
        const double height = m_modelLabel->boundingRect().height();
        const double top = y + 1 + height <= m_chart->plotArea().bottom() ? y + 1 : y - height - 1;
        m_modelLabel->setPos(m_chart->plotArea().left() + 6, top);
        m_modelLabel->show();
    } else {
        m_modelLabel->hide();
    }
    if (!shownTarget() || showsPlaceholder()) {
        m_targetLabel->hide();
    } else {
        m_targetLabel->setText(tr("target %1").arg(formatMemory(*shownTarget())));
        const QRectF plot = m_chart->plotArea();
        const double y =
            m_chart->mapToPosition(QPointF(m_timeAxis->min(), static_cast<double>(*shownTarget())))
                .y();
        m_targetLabel->setPos(plot.left() + 6, y - m_targetLabel->boundingRect().height() - 1);
        m_targetLabel->show();
    }
    placeDeviceLabel();
    placeMaximumLabel(); // last: clear of the level labels where they are now
    placeEndLabels();
}

// Above its line at the left of the plot, where a run's memory is still low and the cursor,
// which an opened run shows at its end, is not (a run with a device's memory is one under a
// real-scale cost model, which has no lesson's target there).
void MemoryChart::placeDeviceLabel()
{
    const std::optional<std::int64_t> device = shownDeviceMemory();
    if (!device || showsPlaceholder()) {
        m_deviceLabel->hide();
        m_deviceBackdrop->hide();
        return;
    }
    const QRectF plot = m_chart->plotArea();
    const double y =
        m_chart->mapToPosition(QPointF(m_timeAxis->min(), static_cast<double>(*device))).y();
    m_deviceLabel->setPos(plot.left() + 6, y - m_deviceLabel->boundingRect().height() - 1);
    m_deviceLabel->show();
    QColor backdrop = m_dark ? QColor(32, 32, 32) : QColor(Qt::white);
    backdrop.setAlpha(215);
    m_deviceBackdrop->setBrush(backdrop);
    m_deviceBackdrop->setRect(
        m_deviceLabel->mapRectToParent(m_deviceLabel->boundingRect()).adjusted(-3, 0, 3, 0));
    m_deviceBackdrop->show();
}

void MemoryChart::placeMaximumLabel()
{
    if (!m_trace || showsPlaceholder()) {
        m_maxLabel->hide();
        m_maxBackdrop->hide();
        m_view->setKeptOverCursor({});
        return;
    }
    const core::Figures &figures = m_trace->figures;
    MaximumLabelInput in;
    in.plot = m_chart->plotArea();
    in.point = m_chart->mapToPosition(
        QPointF(figures.maxMemoryTime.toDouble(), static_cast<double>(figures.maxMemory)));
    in.label = m_maxLabel->boundingRect().size();
    // Clear of the levels drawn across the plot and of their labels (a loop's maximum at t 1
    // sat on the model state's label at the left).
    const std::pair<std::optional<std::int64_t>, QGraphicsSimpleTextItem *> levels[] = {
        {shownTarget(), m_targetLabel},
        {shownModelState(), m_modelLabel},
        {shownDeviceMemory(), m_deviceLabel}};
    for (const auto &[bytes, label] : levels) {
        if (!bytes || !label->isVisible())
            continue;
        in.lines.push_back(
            m_chart->mapToPosition(QPointF(m_timeAxis->min(), static_cast<double>(*bytes))).y());
        in.labels.push_back(label->mapRectToParent(label->boundingRect()));
    }
    m_maxLabel->setPos(gui::placeMaximumLabel(in).topLeft());
    // Zoomed away from the maximum: no label over the other ranks' lines.
    m_maxLabel->setVisible(in.plot.contains(in.point));
    // The chart themes' backgrounds are gradients: their light and dark ends, nearly opaque.
    QColor backdrop = m_dark ? QColor(32, 32, 32) : QColor(Qt::white);
    backdrop.setAlpha(215);
    m_maxBackdrop->setBrush(backdrop);
    m_maxBackdrop->setRect(maximumLabelRect().adjusted(-3, 0, 3, 0));
    m_maxBackdrop->setVisible(m_maxLabel->isVisible());
    // Readable wherever the cursor stands: the label and its backdrop over the cursor line.
    m_view->setKeptOverCursor(m_maxLabel->isVisible() ? m_maxBackdrop->rect() : QRectF());
}

QString MemoryChart::maximumLabelText() const
{
    return m_maxLabel->text();
}

QRectF MemoryChart::maximumLabelRect() const
{
    return m_maxLabel->mapRectToParent(m_maxLabel->boundingRect());
}

QRectF MemoryChart::targetLabelRect() const
{
    return m_targetLabel->mapRectToParent(m_targetLabel->boundingRect());
}

QRectF MemoryChart::plotArea() const
{
    return m_chart->plotArea();
}

void MemoryChart::onTimeRangeChanged(qreal min, qreal max)
{
    applyTimeTicks();
    refreshLines();
    placeTargetLabel();
    if (m_settingRange)
        return;
    const double ticks = double(core::SimTime::kTicksPerStep);
    m_session.setVisibleRange(min * ticks, max * ticks); // the user zoomed the chart
}

void MemoryChart::onPlotClicked(QPointF scenePosition)
{
    const QPointF position = m_chart->mapFromScene(scenePosition);
    if (!m_trace || !m_chart->plotArea().contains(position))
        return;
    if (const auto time = nearestSampleTime(*m_trace, m_chart->mapToValue(position).x()))
        Q_EMIT timeClicked(*time);
}

} // namespace rankstep::gui
