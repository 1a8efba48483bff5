// SPDX-License-Identifier: MIT
#include "exportfigure.h"

#include "appearance.h"
#include "runsession.h"

#include "memorychart.h"
#include "staterankpicker.h"
#include "stateview.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"
#include "timelinetext.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegend>
#include <QPainter>
#include <QStyle>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

// Layout pixels (before FigureOptions::scale).
constexpr double kMargin = 20.0;
constexpr double kTitlePixels = 24.0;
constexpr double kSummaryPixels = 15.0;
constexpr double kHeaderGap = 12.0;
constexpr double kRightMargin = 16.0;
constexpr double kPreferredRowHeight = 34.0;
constexpr double kLegendHeight = 34.0;    // above the chart's plot area
constexpr double kTimeAxisSpace = 52.0;   // below it: tick labels and the axis title
constexpr double kChartTextPixels = 13.0; // as large as the timeline's labels
constexpr float kGhostVeil = 0.6f;        // the app's veil over the chart's future

QFont pixelFont(double pixels, bool bold)
{
    QFont font = QApplication::font();
    font.setPixelSize(int(std::lround(pixels)));
    font.setBold(bold);
    return font;
}

// Light on every platform: figures go onto slides and paper, whatever the app's theme.
QPalette figurePalette()
{
    return QApplication::style()->standardPalette();
}

// Draws the title and the summary line at the top of area; returns the height they took.
double paintHeader(QPainter &painter, const QRectF &area, const QString &title,
                   const QString &summary)
{
    double y = area.top();
    painter.setPen(figurePalette().color(QPalette::WindowText));
    for (const auto &[text, font] : {std::pair(title, pixelFont(kTitlePixels, true)),
                                     std::pair(summary, pixelFont(kSummaryPixels, false))}) {
        if (text.isEmpty())
            continue;
        const double height = QFontMetricsF(font).height();
        painter.setFont(font);
        painter.drawText(QRectF(area.left(), y, area.width(), height),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        y += height + 2.0;
    }
    return y - area.top() + kHeaderGap;
}

// The chart's words as large as the timeline's, which the figure's scale makes legible.
void enlargeChartText(QChart &chart)
{
    const QFont text = pixelFont(kChartTextPixels, false);
    for (QAbstractAxis *axis : chart.axes()) {
        axis->setLabelsFont(text);
        axis->setTitleFont(pixelFont(kChartTextPixels, true));
    }
    chart.legend()->setFont(text);
    for (QAbstractSeries *series : chart.series())
        if (auto *points = qobject_cast<QXYSeries *>(series);
            points && points->pointLabelsVisible())
            points->setPointLabelsFont(pixelFont(kChartTextPixels, true));
}

// The column left of the time axis: wide enough for "rank 15" and the memory labels.
double labelColumnWidth(const core::Trace &trace, const QChart &chart)
{
    const QFontMetricsF rowFont(QFont(QApplication::font().family(), 10));
    const QString rank = QStringLiteral("rank %1").arg(std::max(trace.config.ranks - 1, 0));
    double width = rowFont.horizontalAdvance(rank) + 22.0;
    for (QAbstractAxis *axis : chart.axes(Qt::Vertical))
        width = std::max(
            width,
            QFontMetricsF(axis->labelsFont()).horizontalAdvance(QStringLiteral("1023.9 MiB")) +
                14.0);
    return std::ceil(width);
}

core::SimTime runEnd(const core::Trace &trace)
{
    core::SimTime end;
    for (const core::Event &event : trace.events)
        end = std::max(end, event.end());
    return end;
}

void paintTimeline(QPainter &painter, const core::Trace &trace, const QRectF &area,
                   const TimeAxis &axis, const FigureOptions &options)
{
    RowLayout layout;
    layout.rows = trace.config.ranks;
    layout.labelWidth = axis.left;
    layout = fitRows(layout, area.height(), kPreferredRowHeight);
    const QRect bounds(0, 0, int(area.width()), int(std::ceil(layout.height())));
    const TimelineScene scene{&trace,
                              layout,
                              axis,
                              bounds,
                              figurePalette(),
                              QApplication::font(),
                              Look{},
                              options.cursor,
                              options.ghostAfter,
                              std::nullopt};
    painter.save();
    painter.translate(area.topLeft());
    painter.setClipRect(bounds);
    TimelinePainter(painter, scene).paint();
    painter.restore();
}

// The app's memory chart, laid out so that its plot area spans the timeline's time axis. The
// chart's view draws the cursor over a cached picture of the scene; the figure draws the scene
// itself (vector) and the cursor the same way.
void paintMemory(QPainter &painter, MemoryChart &memory, const QRectF &area, const TimeAxis &axis,
                 std::optional<core::SimTime> cursor)
{
    QChart *chart = memory.chart();
    chart->legend()->setAlignment(Qt::AlignTop);
    memory.followTimeAxis(axis);
    chart->setGeometry(QRectF(QPointF(0, 0), area.size()));
    const QRectF plot(axis.left, kLegendHeight, axis.width,
                      area.height() - kLegendHeight - kTimeAxisSpace);
    chart->setPlotArea(plot);
    // Invalidate first: without it the axes and grid can keep the geometry of the automatic
    // layout (seen with the legend hidden, more than eight ranks).
    chart->layout()->invalidate();
    chart->layout()->activate();
    QCoreApplication::sendPostedEvents();
    chart->scene()->render(&painter, area, chart->geometry(), Qt::IgnoreAspectRatio);
    if (!cursor)
        return;
    const QRectF placed = plot.translated(area.topLeft());
    const double x = area.left() + cursorLineX(axis, *cursor);
    if (x < placed.right()) { // the time not yet reached, faded as in the app
        QColor veil = figurePalette().base().color();
        veil.setAlphaF(kGhostVeil);
        painter.fillRect(
            QRectF(QPointF(std::max(x + 1.0, placed.left()), placed.top()), placed.bottomRight()),
            veil);
    }
    if (x >= placed.left() && x <= placed.right())
        TimelinePainter::paintCursorLine(painter, x, placed.top(), placed.bottom());
}

QString stateCaption(const core::Trace &trace, const replay::RunState &state)
{
    if (state.position.events >= trace.events.size() &&
        state.position.changes >= trace.changes.size())
        return QObject::tr("Every rank's state at the end of the run");
    if (!state.event)
        return QObject::tr("Every rank's state before the first event");
    const core::Event &event = trace.events[*state.event];
    return QObject::tr("Every rank's state after event %1 of %2: rank %3, %4, t %5 to %6")
        .arg(*state.event + 1)
        .arg(trace.events.size())
        .arg(event.rank)
        .arg(eventTitle(event), QString::fromStdString(event.start.toString()),
             QString::fromStdString(event.end().toString()));
}

QImage blankImage(QSize size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    return image;
}

} // namespace

QString figureSummary(const core::Trace &trace)
{
    const core::Figures &f = trace.figures;
    const core::RunConfig &c = trace.config;
    const QString shape =
        QObject::tr("%1 ranks, %2 layers, %3 batches").arg(c.ranks).arg(c.layers).arg(c.batches);
    if (!f.hasEvents)
        return shape;
    return QObject::tr("Timesteps %1, max memory %2 B on GPU %3 at t %4 · %5")
        .arg(QString::fromStdString(f.timesteps.toString()))
        .arg(f.maxMemory)
        .arg(f.maxMemoryRank)
        .arg(QString::fromStdString(f.maxMemoryTime.toString()), shape);
}

void paintTimelineFigure(QPainter &painter, const std::shared_ptr<const core::Trace> &trace,
                         const FigureOptions &options)
{
    const QSizeF logical = QSizeF(options.size) / options.scale;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(options.scale, options.scale);
    painter.fillRect(QRectF(QPointF(0, 0), logical), figurePalette().base());
    QRectF area(kMargin, kMargin, logical.width() - 2 * kMargin, logical.height() - 2 * kMargin);
    area.setTop(area.top() + paintHeader(painter, area, options.title, figureSummary(*trace)));
    if (trace->events.empty()) {
        painter.restore();
        return;
    }
    RunSession session; // the chart's own; the figure sets its trace and range by hand
    Appearance appearance;
    MemoryChart memory(session, appearance);
    memory.setTrace(trace);
    memory.setTarget(options.memoryTarget);
    enlargeChartText(*memory.chart());
    TimeAxis axis;
    axis.left = labelColumnWidth(*trace, *memory.chart());
    axis.width = std::max(1.0, area.width() - axis.left - kRightMargin);
    axis = fitted(axis, runEnd(*trace));
    // The timeline takes what its rows want, up to half the room; the chart the rest.
    const double rowsHeight = RowLayout{}.axisHeight + trace->config.ranks * kPreferredRowHeight;
    const double timelineHeight = std::min(rowsHeight, area.height() / 2);
    paintTimeline(painter, *trace, QRectF(area.topLeft(), QSizeF(area.width(), timelineHeight)),
                  axis, options);
    const double gap = 10.0;
    paintMemory(painter, memory,
                QRectF(area.left(), area.top() + timelineHeight + gap, area.width(),
                       area.height() - timelineHeight - gap),
                axis, options.cursor);
    painter.restore();
}

QImage renderTimelineFigure(const std::shared_ptr<const core::Trace> &trace,
                            const FigureOptions &options)
{
    QImage image = blankImage(options.size);
    QPainter painter(&image);
    paintTimelineFigure(painter, trace, options);
    return image;
}

QImage renderStateFigure(const std::shared_ptr<const core::Trace> &trace,
                         const replay::RunState &state, const FigureOptions &options)
{
    QImage image = blankImage(options.size);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(options.scale, options.scale);
    const QSizeF logical = QSizeF(options.size) / options.scale;
    QRectF area(kMargin, kMargin, logical.width() - 2 * kMargin, logical.height() - 2 * kMargin);
    area.setTop(area.top() +
                paintHeader(painter, area, options.title, stateCaption(*trace, state)));
    RunSession session;
    Appearance appearance;
    StateView view(session, appearance);
    view.setPalette(figurePalette());
    view.setTrace(trace);
    view.setState(state);
    if (!options.ranks.empty())
        view.setVisibleRanks(options.ranks);
    view.rankPicker()->hide(); // a control, not part of the figure
    view.resize(area.size().toSize());
    view.render(&painter, area.topLeft().toPoint());
    return image;
}

} // namespace rankstep::gui
