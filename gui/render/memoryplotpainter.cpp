// SPDX-License-Identifier: MIT
#include "memoryplotpainter.h"

#include "labelplacement.h"
#include "memorydecimation.h"
#include "memoryseries.h"
#include "palette.h"
#include "ranklines.h"
#include "timelinepainter.h"
#include "timelinetext.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rankstep::gui {
namespace {

constexpr int kMemoryTicks = 5;    // at most this many intervals on the value axis
constexpr int kTimeTicks = 10;     // and on the time axis
constexpr double kHeadroom = 1.15; // room above the highest value for the maximum's label
constexpr double kMarkerSize = 11; // the maximum's point
constexpr double kLegendMarker = 12;
constexpr float kGhostVeil = 0.6f; // as the app's veil over the chart's future

// The context of this file's texts in the translations (resources/translations).
struct MemoryPlot {
    Q_DECLARE_TR_FUNCTIONS(MemoryPlot)
};

QFont boldFont(QFont font)
{
    font.setBold(true);
    return font;
}

class PlotPainter
{
public:
    PlotPainter(QPainter &painter, const MemoryPlotScene &scene)
        : m_painter(painter)
        , m_scene(scene)
        , m_trace(*scene.trace)
        , m_colors(*scene.colors)
        , m_plot(memoryPlotArea(scene))
        , m_ticks(memoryPlotTicks(m_trace, scene.target))
        , m_device(plotDeviceMemory(m_trace))
        , m_deviceLabel(deviceLabelRect())
    {}

    void paint()
    {
        paintGrid();
        paintMemoryLabels();
        paintTimeLabels();
        m_painter.save();
        m_painter.setClipRect(m_plot.adjusted(0, -2, 0, 2)); // lines on 0 and the top show whole
        paintTarget();
        paintRanks();
        paintDevice();
        m_painter.restore();
        paintEndLabels();
        paintDeviceLabel();
        paintMaximum();
        paintTargetLabel();
        paintLegend();
        paintCursor();
    }

private:
    double x(core::SimTime time) const { return m_scene.axis.toX(time); }
    double y(std::int64_t bytes) const { return memoryY(m_plot, m_ticks.back(), bytes); }
    QColor text() const { return m_scene.palette.color(QPalette::Text); }

    void paintGrid()
    {
        const QColor grid = Palette::toward(m_scene.palette.color(QPalette::Mid),
                                            m_scene.palette.color(QPalette::Base), 0.5);
        m_painter.setPen(QPen(grid, m_scene.zoom));
        for (const std::int64_t tick : m_ticks)
            m_painter.drawLine(QLineF(m_plot.left(), y(tick), m_plot.right(), y(tick)));
        const double ticksPerStep = double(core::SimTime::kTicksPerStep);
        for (const double steps : plotTimeTicks(m_scene.axis)) {
            const double at = m_scene.axis.toX(steps * ticksPerStep);
            m_painter.drawLine(QLineF(at, m_plot.top(), at, m_plot.bottom()));
        }
        m_painter.setPen(QPen(m_scene.palette.color(QPalette::Mid), m_scene.zoom));
        m_painter.drawLine(m_plot.bottomLeft(), m_plot.topLeft());
        m_painter.drawLine(m_plot.bottomLeft(), m_plot.bottomRight());
    }

    void paintMemoryLabels()
    {
        m_painter.setFont(m_scene.font);
        m_painter.setPen(text());
        const double height = QFontMetricsF(m_scene.font).height();
        for (const std::int64_t tick : m_ticks)
            m_painter.drawText(QRectF(m_scene.bounds.left(), y(tick) - height / 2,
                                      m_plot.left() - m_scene.bounds.left() - 8, height),
                               Qt::AlignRight | Qt::AlignVCenter, formatMemory(tick));
    }

    void paintTimeLabels()
    {
        m_painter.setFont(m_scene.font);
        m_painter.setPen(text());
        const double height = QFontMetricsF(m_scene.font).height();
        const double ticksPerStep = double(core::SimTime::kTicksPerStep);
        for (const double steps : plotTimeTicks(m_scene.axis)) {
            const double at = m_scene.axis.toX(steps * ticksPerStep);
            m_painter.drawText(QRectF(at - 50, m_plot.bottom() + 6, 100, height), Qt::AlignCenter,
                               QString::number(steps, 'g', 6));
        }
        m_painter.setFont(boldFont(m_scene.font));
        m_painter.drawText(
            QRectF(m_plot.left(), m_plot.bottom() + 10 + height, m_plot.width(),
                   QFontMetricsF(m_painter.font()).height()),
            Qt::AlignCenter,
            MemoryPlot::tr("time (%1)")
                .arg(m_scene.clockUnit.isEmpty() ? QCoreApplication::translate("TimeUnit", "steps")
                                                 : m_scene.clockUnit));
    }

    void paintRanks()
    {
        const auto all = memorySeries(m_trace);
        const auto shares = sharedLines(all);
        const int ranks = int(all.size());
        m_painter.setBrush(Qt::NoBrush);
        for (int rank = 0; rank < ranks; ++rank) {
            const auto &series = all[std::size_t(rank)];
            if (series.empty())
                continue;
            QPolygonF line; // at most a few points per pixel column, however many events
            const int columns = std::max(1, int(std::ceil(m_plot.width())));
            for (const MemoryPoint &point :
                 decimated(series, m_scene.axis.from, m_scene.axis.to, columns))
                line << QPointF(x(point.time), y(point.memory));
            // Ranks on one path take turns dash by dash (in pen widths), so each color shows.
            const LineShare share = shares[std::size_t(rank)];
            QPen pen(m_colors.rank(rank), m_scene.zoom * (ranks > kPlotLegendRanks ? 1.0 : 2.0));
            if (share.count > 1) {
                constexpr double dash = 4;
                pen.setCapStyle(Qt::FlatCap);
                pen.setDashPattern({dash, dash * (share.count - 1)});
                pen.setDashOffset(dash * share.index);
            } else if (!rankDashes(rank).isEmpty()) { // colors repeat: each eight its dashes
                pen.setCapStyle(Qt::FlatCap);
                pen.setDashPattern(rankDashes(rank));
            }
            m_painter.setPen(pen);
            m_painter.drawPolyline(line);
        }
    }

    // Past eight ranks, whose colors repeat and which get no legend: "ranks 0-3, 8" at the right
    // end of the lines (ranklines.h), in the first rank's color.
    void paintEndLabels()
    {
        const auto all = memorySeries(m_trace);
        const int ranks = int(all.size());
        if (ranks <= kPlotLegendRanks || ranks > kPlotLabelledRanks)
            return;
        const double end = std::min(m_scene.axis.to, double(m_trace.figures.endTime.ticks()));
        std::vector<LineEnd> ends;
        for (int rank = 0; rank < ranks; ++rank) {
            std::int64_t memory = 0;
            for (const MemoryPoint &point : all[std::size_t(rank)]) {
                if (double(point.time.ticks()) > end)
                    break;
                memory = point.memory;
            }
            ends.push_back({rank, y(memory)});
        }
        const QFontMetricsF metrics(m_scene.font);
        m_painter.setFont(m_scene.font);
        const double right = std::min(m_plot.right(), m_scene.axis.toX(end)) - 3;
        for (const EndLabel &label :
             endLabels(ends, metrics.height(), m_plot.top(), m_plot.bottom())) {
            const double width = metrics.horizontalAdvance(label.text) + 2;
            const QRectF box(right - width, label.y - metrics.height() / 2, width,
                             metrics.height());
            m_painter.setPen(m_colors.rank(label.ranks.front()).darker(130));
            m_painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, label.text);
        }
    }

    void paintTarget()
    {
        if (!m_scene.target)
            return;
        const double at = y(*m_scene.target);
        m_painter.setPen(QPen(text(), 1.5 * m_scene.zoom, Qt::DashLine));
        m_painter.drawLine(QLineF(x(core::SimTime()), at, x(m_trace.figures.endTime), at));
    }

    void paintTargetLabel()
    {
        if (!m_scene.target)
            return;
        m_painter.setFont(m_scene.font);
        m_painter.setPen(text());
        const QFontMetricsF metrics(m_scene.font);
        m_painter.drawText(QPointF(m_plot.left() + 6, y(*m_scene.target) - 3 - metrics.descent()),
                           MemoryPlot::tr("target %1").arg(formatMemory(*m_scene.target)));
    }

    // The device's memory as the app's chart draws it: an orange dash-dot line across the run.
    void paintDevice()
    {
        if (!m_device)
            return;
        const double at = y(*m_device);
        m_painter.setPen(QPen(kDeviceMemory, 2 * m_scene.zoom, Qt::DashDotLine));
        m_painter.drawLine(QLineF(x(core::SimTime()), at, x(m_trace.figures.endTime), at));
    }

    // Its words above it at the left of the plot, on the plot's background (the ranks' lines of a
    // layout that does not fit run through them), in the line's orange darkened to read on white.
    void paintDeviceLabel()
    {
        if (!m_device)
            return;
        m_painter.fillRect(m_deviceLabel, backdrop());
        m_painter.setFont(m_scene.font);
        m_painter.setPen(kDeviceMemory.darker(130));
        m_painter.drawText(m_deviceLabel, Qt::AlignCenter, deviceMemoryLabel(*m_device));
    }

    QRectF deviceLabelRect() const
    {
        if (!m_device)
            return {};
        const QFontMetricsF metrics(m_scene.font);
        const double width = metrics.horizontalAdvance(deviceMemoryLabel(*m_device)) + 6;
        return {m_plot.left() + 3, y(*m_device) - 1 - metrics.height(), width, metrics.height()};
    }

    QColor backdrop() const
    {
        QColor color = m_scene.palette.color(QPalette::Base);
        color.setAlpha(215);
        return color;
    }

    // The run's maximum as a point with its label centered above it (kept inside the bounds);
    // with a device's line, placed clear of it and its words as the app places it.
    void paintMaximum()
    {
        const core::Figures &figures = m_trace.figures;
        const QPointF point(x(figures.maxMemoryTime), y(figures.maxMemory));
        m_painter.setPen(QPen(m_scene.palette.color(QPalette::Base), m_scene.zoom));
        m_painter.setBrush(m_colors.maximum());
        m_painter.drawEllipse(point, kMarkerSize / 2, kMarkerSize / 2);
        const QString label = memoryPlotMaximumLabel(m_trace, m_scene.clockUnit);
        const QFont font = boldFont(m_scene.font);
        const QFontMetricsF metrics(font);
        const double width = metrics.horizontalAdvance(label) + 4;
        const double left =
            std::clamp(point.x() - width / 2, m_scene.bounds.left(),
                       std::max(m_scene.bounds.left(), m_scene.bounds.right() - width));
        QRectF box(left, point.y() - kMarkerSize / 2 - 2 - metrics.height(), width,
                   metrics.height());
        if (m_device) {
            MaximumLabelInput in;
            in.plot = m_plot;
            in.point = point;
            in.label = box.size();
            in.lines.push_back(y(*m_device));
            in.labels.push_back(m_deviceLabel);
            if (m_scene.target)
                in.lines.push_back(y(*m_scene.target));
            box = placeMaximumLabel(in);
            m_painter.fillRect(box.adjusted(-3, 0, 3, 0), backdrop());
        }
        m_painter.setFont(font);
        m_painter.setPen(m_colors.maximum().darker(120));
        m_painter.drawText(box, Qt::AlignCenter, label);
    }

    // A marker and "rank N" per rank, centered over the plot; none for many ranks.
    void paintLegend()
    {
        const int ranks = std::max(m_trace.config.ranks, 0);
        if (ranks > kPlotLegendRanks)
            return;
        const QFontMetricsF metrics(m_scene.font);
        const double gap = 6, spacing = 18;
        std::vector<QString> names;
        double total = 0;
        for (int rank = 0; rank < ranks; ++rank) {
            names.push_back(MemoryPlot::tr("rank %1").arg(rank));
            total += kLegendMarker + gap + metrics.horizontalAdvance(names.back()) +
                     (rank > 0 ? spacing : 0);
        }
        double left = m_plot.center().x() - total / 2;
        const double middle = m_scene.bounds.top() + kPlotLegendHeight / 2;
        m_painter.setFont(m_scene.font);
        for (int rank = 0; rank < ranks; ++rank) {
            const QColor color = m_colors.rank(rank);
            m_painter.setPen(QPen(color.darker(150), m_scene.zoom));
            m_painter.setBrush(color);
            m_painter.drawRect(
                QRectF(left, middle - kLegendMarker / 2, kLegendMarker, kLegendMarker));
            left += kLegendMarker + gap;
            const QString &name = names[std::size_t(rank)];
            const double width = metrics.horizontalAdvance(name);
            m_painter.setPen(text());
            m_painter.drawText(
                QRectF(left, middle - metrics.height() / 2, width + 1, metrics.height()),
                Qt::AlignLeft | Qt::AlignVCenter, name);
            left += width + spacing;
        }
    }

    // The time not yet reached faded as in the app, under the cursor line.
    void paintCursor()
    {
        if (!m_scene.cursor)
            return;
        const double at = cursorLineX(m_scene.axis, *m_scene.cursor);
        if (at < m_plot.right()) {
            QColor veil = m_scene.palette.color(QPalette::Base);
            veil.setAlphaF(kGhostVeil);
            m_painter.fillRect(QRectF(QPointF(std::max(at + 1.0, m_plot.left()), m_plot.top()),
                                      m_plot.bottomRight()),
                               veil);
        }
        if (at >= m_plot.left() && at <= m_plot.right())
            TimelinePainter::paintCursorLine(m_painter, at, m_plot.top(), m_plot.bottom());
    }

    QPainter &m_painter;
    const MemoryPlotScene &m_scene;
    const core::Trace &m_trace;
    const Palette &m_colors;
    QRectF m_plot;
    std::vector<std::int64_t> m_ticks;
    std::optional<std::int64_t> m_device;
    QRectF m_deviceLabel; // where the device's words go
};

} // namespace

QRectF memoryPlotArea(const MemoryPlotScene &scene)
{
    const double top = scene.bounds.top() + kPlotLegendHeight;
    return {scene.axis.left, top, scene.axis.width,
            std::max(1.0, scene.bounds.bottom() - kPlotTimeSpace - top)};
}

std::vector<std::int64_t> memoryPlotTicks(const core::Trace &trace,
                                          std::optional<std::int64_t> target)
{
    const std::int64_t highest = std::max(
        {trace.figures.maxMemory, target.value_or(0), plotDeviceMemory(trace).value_or(0)});
    return memoryTicks(std::llround(static_cast<double>(highest) * kHeadroom), kMemoryTicks);
}

std::optional<std::int64_t> plotDeviceMemory(const core::Trace &trace)
{
    if (trace.config.cost.deviceMemory <= 0)
        return std::nullopt;
    return trace.config.cost.deviceMemory;
}

QString deviceMemoryLabel(std::int64_t bytes)
{
    return MemoryPlot::tr("%1: the device's memory").arg(formatMemory(bytes));
}

QString memoryPlotMaximumLabel(const core::Trace &trace, const QString &clockUnit)
{
    const core::Figures &figures = trace.figures;
    const std::optional<std::int64_t> device = plotDeviceMemory(trace);
    const std::int64_t spare = device ? *device - figures.maxMemory : 0;
    const QString text = !device      ? MemoryPlot::tr("max %1 (rank %2, t %3)")
                         : spare >= 0 ? MemoryPlot::tr("max %1 (rank %2, t %3): fits, %4 to spare")
                                      : MemoryPlot::tr(
                                            "max %1 (rank %2, t %3): %4 over the "
                                            "device's memory");
    const QString label = text.arg(formatMemory(figures.maxMemory))
                              .arg(figures.maxMemoryRank)
                              .arg(clockText(figures.maxMemoryTime, clockUnit));
    return device ? label.arg(formatMemory(std::abs(spare))) : label;
}

double memoryY(const QRectF &plot, std::int64_t top, std::int64_t bytes)
{
    const double share = top > 0 ? static_cast<double>(bytes) / static_cast<double>(top) : 0.0;
    return plot.bottom() - share * plot.height();
}

std::vector<double> plotTimeTicks(const TimeAxis &axis)
{
    const double ticksPerStep = double(core::SimTime::kTicksPerStep);
    const double from = axis.from / ticksPerStep, to = axis.to / ticksPerStep;
    const double step = niceStep(to - from, kTimeTicks);
    std::vector<double> ticks;
    for (auto k = std::llround(std::ceil(from / step - 1e-9)); double(k) * step <= to + 1e-9; ++k)
        ticks.push_back(double(k) * step);
    return ticks;
}

void paintMemoryPlot(QPainter &painter, const MemoryPlotScene &scene)
{
    painter.save();
    PlotPainter(painter, scene).paint();
    painter.restore();
}

} // namespace rankstep::gui
