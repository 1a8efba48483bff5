// SPDX-License-Identifier: MIT
#include "comparisoncanvas.h"

#include "memoryseries.h"
#include "timelinepainter.h"

#include "core/trace.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

constexpr double kLabelWidth = 72.0;
constexpr double kRightMargin = 12.0;
constexpr double kLabelPoints = 10.0; // the timeline's rank labels, at zoom 1
constexpr double kMemoryLines = 6.0;  // the memory plot's band: its title and about five lines

core::SimTime laterEnd(const TracePtr &a, const TracePtr &b)
{
    core::SimTime end = core::SimTime::steps(1);
    for (const TracePtr &t : {a, b})
        if (t)
            end = std::max(end, t->figures.endTime);
    return end;
}

} // namespace

ComparisonCanvas::ComparisonCanvas(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(240);
}

double ComparisonCanvas::titleHeight() const
{
    QFont bold = font();
    bold.setBold(true);
    return std::ceil(QFontMetricsF(bold).height() + 4.0);
}

double ComparisonCanvas::minRowHeight() const
{
    // The timeline shrinks a label's font to its row: rows as tall as the label's own height.
    QFont label = font();
    label.setPointSizeF(kLabelPoints * m_look.zoom);
    return std::ceil(QFontMetricsF(label).height());
}

double ComparisonCanvas::memoryHeight() const
{
    return std::ceil(kMemoryLines * QFontMetricsF(font()).height() + 8.0);
}

int ComparisonCanvas::neededHeight() const
{
    if (!m_a || !m_b)
        return 240;
    double height = memoryHeight();
    for (const TracePtr &trace : {m_a, m_b})
        height += titleHeight() + RowLayout{}.axisHeight +
                  std::max(1, trace->config.ranks) * minRowHeight();
    return int(std::ceil(height));
}

double ComparisonCanvas::rowHeight() const
{
    if (!m_a || !m_b)
        return 0.0;
    const double each = (height() - std::max(memoryHeight(), height() * 0.26)) / 2.0;
    RowLayout layout;
    layout.rows = m_a->config.ranks;
    return fitRows(layout, each - titleHeight(), m_look.scaled(24.0), minRowHeight()).rowHeight;
}

QRectF ComparisonCanvas::memoryPlot() const
{
    const double band = std::max(memoryHeight(), height() * 0.26);
    const QRectF area(0, height() - band, width(), band);
    return area.adjusted(m_look.scaled(kLabelWidth), titleHeight(), -kRightMargin, -4);
}

void ComparisonCanvas::paintTitle(QPainter &painter, const QRectF &box, const QString &text)
{
    if (QFontMetricsF(painter.font()).horizontalAdvance(text) > box.width())
        m_elided.note(text);
    painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft, text);
}

void ComparisonCanvas::setRuns(TracePtr a, TracePtr b, Look look, TraceUnits aUnits,
                               TraceUnits bUnits)
{
    m_a = std::move(a);
    m_b = std::move(b);
    m_look = look;
    m_units[0] = aUnits;
    m_units[1] = bUnits;
    setMinimumHeight(neededHeight()); // the page scrolls rather than squeeze the labels
    updateGeometry();
    QWidget::update();
}

core::SimTime ComparisonCanvas::axisEnd(int run) const
{
    if (m_units[0] == m_units[1])
        return laterEnd(m_a, m_b);
    return laterEnd(run == 0 ? m_a : m_b, nullptr);
}

double ComparisonCanvas::xOf(double ticks, int run) const
{
    const double end = double(axisEnd(run).ticks()) * 1.02;
    const double label = m_look.scaled(kLabelWidth);
    return label + ticks / end * (width() - label - kRightMargin);
}

void ComparisonCanvas::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    m_elided.clear();
    if (!m_a || !m_b) {
        TimelinePainter::paintPlaceholder(painter, rect(), palette(), font(),
                                          tr("Compare your run with the solution or with your "
                                             "previous run"),
                                          m_look.zoom);
        return;
    }
    const double memoryBand = std::max(memoryHeight(), height() * 0.26);
    const double each = (height() - memoryBand) / 2.0;
    const double titleBand = titleHeight();
    const bool twoClocks = m_units[0] != m_units[1];
    const auto title = [&](int run) {
        if (!twoClocks)
            return run == 0 ? tr("A: this run") : tr("B: the run compared with it");
        const bool real = m_units[run] == TraceUnits::Seconds;
        return (run == 0 ? QStringLiteral("A: ") : QStringLiteral("B: ")) +
               (real ? tr("the run on real processes") : tr("its simulation"));
    };
    int i = 0;
    for (const TracePtr &trace : {m_a, m_b}) {
        TimeAxis axis;
        axis.from = 0;
        axis.to = double(axisEnd(i).ticks()) * 1.02;
        axis.left = m_look.scaled(kLabelWidth); // the rank labels grow with the zoom
        axis.width = std::max(1.0, width() - axis.left - kRightMargin);
        const double top = i * each;
        painter.save();
        painter.translate(0, top);
        painter.setPen(palette().color(QPalette::WindowText));
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        paintTitle(painter, QRectF(4, 0, width() - 8, titleBand),
                   title(i) + QStringLiteral(" (") +
                       tr("end %1 %2")
                           .arg(QString::fromStdString(trace->figures.endTime.toString()),
                                timeUnitName(m_units[i])) +
                       QStringLiteral(")"));
        painter.translate(0, titleBand);
        const double h = each - titleBand;
        if (!trace->events.empty()) {
            RowLayout layout;
            layout.rows = trace->config.ranks;
            layout.labelWidth = axis.left;
            layout = fitRows(layout, h, m_look.scaled(24.0), minRowHeight());
            TimelineScene scene;
            scene.trace = trace.get();
            scene.layout = layout;
            scene.axis = axis;
            scene.bounds = QRect(0, 0, width(), int(h));
            scene.palette = palette();
            scene.font = font();
            scene.look = m_look;
            scene.timeUnit = timeUnitName(m_units[i]);
            TimelinePainter(painter, scene).paint();
        }
        painter.restore();
        ++i;
    }
    paintMemory(painter, QRectF(0, height() - memoryBand, width(), memoryBand));
}

// The memory of the rank that peaked in each run, over time: a step at each of its events.
void ComparisonCanvas::paintMemory(QPainter &painter, const QRectF &area)
{
    const bool twoClocks = m_units[0] != m_units[1];
    const std::int64_t shared =
        std::max<std::int64_t>({m_a->figures.maxMemory, m_b->figures.maxMemory, std::int64_t(1)});
    const QRectF plot = memoryPlot();
    painter.setPen(palette().color(QPalette::Mid));
    painter.drawRect(plot);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.setFont(font());
    paintTitle(
        painter, QRectF(4, area.top(), width() - 8, titleHeight()),
        twoClocks
            ? tr("Memory of the rank that peaked: A solid, B dashed (each to its own peak: "
                 "A %1, B %2)")
                  .arg(formatMemory(m_a->figures.maxMemory), formatMemory(m_b->figures.maxMemory))
            : tr("Memory of the rank that peaked: A solid, B dashed (top: %1)")
                  .arg(formatMemory(shared)));
    int i = 0;
    for (const TracePtr &trace : {m_a, m_b}) {
        const std::int64_t top =
            twoClocks ? std::max<std::int64_t>(trace->figures.maxMemory, 1) : shared;
        QPainterPath path;
        bool first = true;
        std::int64_t last = 0;
        for (const core::Event &e : trace->events) {
            if (e.rank != trace->figures.maxMemoryRank)
                continue;
            const double x = xOf(double(e.start.ticks()), i);
            const double y = plot.bottom() - double(e.memory) / double(top) * plot.height();
            if (first)
                path.moveTo(x, y);
            else
                path.lineTo(x, plot.bottom() - double(last) / double(top) * plot.height());
            path.lineTo(x, y);
            first = false;
            last = e.memory;
        }
        QPen pen(m_look.colors().rank(i == 0 ? 0 : 2), m_look.scaled(2.0),
                 i == 0 ? Qt::SolidLine : Qt::DashLine);
        painter.setPen(pen);
        painter.drawPath(path);
        ++i;
    }
}

} // namespace rankstep::gui
