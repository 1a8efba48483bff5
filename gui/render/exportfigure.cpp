// SPDX-License-Identifier: MIT
#include "exportfigure.h"

#include "core/memoryformat.h"
#include "legendpainter.h"
#include "memoryplotpainter.h"
#include "palette.h"
#include "runendmark.h"
#include "statepanels.h"
#include "theme.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"
#include "timelinetext.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>

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
constexpr double kChartTextPixels = 13.0; // as large as the timeline's labels
constexpr double kMemoryGap = 10.0;       // between the timeline and the memory plot

QFont pixelFont(double pixels, bool bold)
{
    QFont font = QGuiApplication::font();
    font.setPixelSize(int(std::lround(pixels)));
    font.setBold(bold);
    return font;
}

// Light on every platform: figures go onto slides and paper, whatever the app's theme.
QPalette figurePalette()
{
    return themePalette(Theme::Light);
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

// The column left of the time axis: wide enough for "rank 15" and the memory labels.
double labelColumnWidth(const core::Trace &trace)
{
    const QFontMetricsF rowFont(QFont(QGuiApplication::font().family(), 10));
    const QString rank = rankLabel(std::max(trace.config.ranks - 1, 0));
    const double width = std::max(rowFont.horizontalAdvance(rank) + 22.0,
                                  QFontMetricsF(pixelFont(kChartTextPixels, false))
                                          .horizontalAdvance(QStringLiteral("1023.9 MiB")) +
                                      14.0);
    return std::ceil(width);
}

void paintTimeline(QPainter &painter, const core::Trace &trace, const QRectF &area,
                   const TimeAxis &axis, const FigureOptions &options)
{
    RowLayout layout;
    layout.rows = trace.config.ranks;
    layout.labelWidth = axis.left;
    layout = fitRows(layout, area.height(), kPreferredRowHeight);
    // Rows past the area's height (more ranks than rows of the least height fit: 128 and more at
    // 1920x1080) are left out, as a view scrolls them away: drawn, they ran under the memory plot.
    const QRect bounds(0, 0, int(area.width()),
                       int(std::ceil(std::min(layout.height(), area.height()))));
    TimelineScene scene{&trace,
                        layout,
                        axis,
                        bounds,
                        figurePalette(),
                        QGuiApplication::font(),
                        Look{options.scheme, 1.0},
                        options.cursor,
                        options.ghostAfter,
                        std::nullopt,
                        nullptr,
                        nullptr,
                        options.rankGhostAfter,
                        options.running};
    scene.timeUnit = figureTimeUnit(trace, options.realRun);
    painter.save();
    painter.translate(area.topLeft());
    painter.setClipRect(bounds);
    TimelinePainter(painter, scene).paint();
    painter.restore();
}

// Each rank's memory below the timeline, on its time axis.
void paintMemory(QPainter &painter, const core::Trace &trace, const QRectF &area,
                 const TimeAxis &axis, const FigureOptions &options)
{
    MemoryPlotScene scene;
    scene.trace = &trace;
    scene.colors = &Palette::of(options.scheme);
    scene.axis = axis;
    scene.bounds = QRectF(QPointF(0, 0), area.size());
    scene.palette = figurePalette();
    scene.font = pixelFont(kChartTextPixels, false);
    scene.target = options.memoryTarget;
    scene.cursor = options.cursor;
    scene.clockUnit = figureClockUnit(trace, options.realRun);
    painter.save();
    painter.translate(area.topLeft());
    paintMemoryPlot(painter, scene);
    painter.restore();
}

// The legend under the header, as the window shows it; returns the height it took.
double paintFigureLegend(QPainter &painter, const QRectF &area, const core::Trace &trace,
                         const FigureOptions &options)
{
    const LegendScene scene{
        std::max(1, trace.config.layers), Look{options.scheme, 1.0}, figurePalette(),
        QGuiApplication::font(),          hasSplitBackward(trace),   hasAllToAll(trace)};
    return paintLegend(painter, area, scene) + kHeaderGap;
}

QString stateCaption(const core::Trace &trace, const replay::RunState &state)
{
    if (state.position.events >= trace.events.size() &&
        state.position.changes >= trace.changes.size())
        return QObject::tr("Every rank's state at the end of the run");
    if (!state.event)
        return QObject::tr("Every rank's state before the first event");
    if (state.cut) // every rank at one time (docs/simulation.md, "Stepping")
        return QObject::tr("Every rank's state at t %1")
            .arg(QString::fromStdString(state.cut->toString()));
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

QString figureTimeUnit(const core::Trace &trace, bool realRun)
{
    const QString unit = figureClockUnit(trace, realRun);
    return unit.isEmpty() ? QCoreApplication::translate("TimeUnit", "steps") : unit;
}

QString figureClockUnit(const core::Trace &trace, bool realRun)
{
    return realRun || trace.config.cost.realScale() ? QStringLiteral("ms") : QString();
}

QString figureSummary(const core::Trace &trace)
{
    const core::Figures &f = trace.figures;
    const core::RunConfig &c = trace.config;
    QString shape =
        QObject::tr("%1 ranks, %2 layers, %3 batches").arg(c.ranks).arg(c.layers).arg(c.batches);
    if (f.hasEvents && c.cost.realScale()) {
        // A real-scale cost model's ticks are microseconds: said in seconds, as the run's summary
        // and the results panel say them.
        shape = QObject::tr("Timesteps %1, max memory %2 on rank %3 at %4 · %5")
                    .arg(secondsText(f.timesteps),
                         QString::fromStdString(core::formatMemoryExact(f.maxMemory)))
                    .arg(f.maxMemoryRank)
                    .arg(secondsText(f.maxMemoryTime), shape);
    } else if (f.hasEvents) {
        shape = QObject::tr("Timesteps %1, max memory %2 on rank %3 at t %4 · %5")
                    .arg(QString::fromStdString(f.timesteps.toString()),
                         QString::fromStdString(core::formatMemoryExact(f.maxMemory)))
                    .arg(f.maxMemoryRank)
                    .arg(QString::fromStdString(f.maxMemoryTime.toString()), shape);
    }
    // A run that did not finish says so first: its figures are where it stopped.
    const QString end = runEndSummary(trace);
    return end.isEmpty() ? shape : end + QStringLiteral(" · ") + shape;
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
    area.setTop(area.top() + paintHeader(painter, area, titleWithRunEnd(options.title, *trace),
                                         figureSummary(*trace)));
    area.setTop(area.top() + paintFigureLegend(painter, area, *trace, options));
    if (trace->events.empty()) {
        painter.restore();
        return;
    }
    TimeAxis axis;
    axis.left = labelColumnWidth(*trace);
    axis.width = std::max(1.0, area.width() - axis.left - kRightMargin);
    axis = fitted(axis, trace->figures.endTime);
    // The timeline takes what its rows want, up to half the room; the memory plot the rest.
    const double rowsHeight = RowLayout{}.axisHeight + trace->config.ranks * kPreferredRowHeight;
    const double timelineHeight = std::min(rowsHeight, area.height() / 2);
    paintTimeline(painter, *trace, QRectF(area.topLeft(), QSizeF(area.width(), timelineHeight)),
                  axis, options);
    paintMemory(painter, *trace,
                QRectF(area.left(), area.top() + timelineHeight + kMemoryGap, area.width(),
                       area.height() - timelineHeight - kMemoryGap),
                axis, options);
    paintRunEndMark(painter, *trace, area, axis, kChartTextPixels);
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
    area.setTop(area.top() + paintHeader(painter, area, titleWithRunEnd(options.title, *trace),
                                         stateCaption(*trace, state)));
    area.setTop(area.top() + paintFigureLegend(painter, area, *trace, options));
    // Where the state view would be, at whole pixels as a widget is.
    const QRectF view(area.topLeft().toPoint(), area.size().toSize());
    painter.fillRect(view, figurePalette().color(QPalette::Window));
    if (state.ranks.empty())
        return image;
    StateScene scene;
    scene.trace = trace.get();
    scene.state = &state;
    scene.ranks = shownRanks(options.ranks, int(state.ranks.size()));
    scene.area = stateGridArea(view);
    scene.palette = figurePalette();
    scene.font = QGuiApplication::font();
    scene.look = Look{options.scheme, 1.0};
    paintStatePanels(painter, scene); // without a cache: drawn at the figure's resolution
    return image;
}

} // namespace rankstep::gui
