// SPDX-License-Identifier: MIT
#include "explainfigure.h"

#include "kindcolors.h"
#include "memoryplotpainter.h"
#include "memoryseries.h"
#include "palette.h"
#include "statepainter.h"

#include "core/explain/memoryexplain.h"
#include "core/explain/waitexplain.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace rankstep::gui {
namespace {

constexpr double kMargin = 24.0;

// At most one sample per pixel column: the one with the highest total.
std::vector<explain::KindSample> perColumn(const std::vector<explain::KindSample> &samples,
                                           core::SimTime end, int columns)
{
    std::vector<explain::KindSample> kept;
    std::int64_t column = -1;
    for (const explain::KindSample &s : samples) {
        const std::int64_t c =
            end.ticks() > 0 ? s.time.ticks() * columns / std::max<std::int64_t>(end.ticks(), 1) : 0;
        if (c != column || kept.empty()) {
            kept.push_back(s);
            column = c;
        } else if (s.byKind.total() > kept.back().byKind.total()) {
            kept.back().byKind = s.byKind;
        }
    }
    return kept;
}

// Stacked areas, weights at the bottom, each kind's band in its color; the axes' round ticks.
void paintStacked(QPainter &p, const QRectF &plot, const std::vector<explain::KindSample> &samples,
                  core::SimTime end, std::int64_t top, std::optional<std::int64_t> target)
{
    const double endSteps = std::max(end.toDouble(), 1e-3);
    const auto x = [&](core::SimTime t) {
        return plot.left() + t.toDouble() / endSteps * plot.width();
    };
    const auto y = [&](double bytes) {
        return plot.bottom() - bytes / double(top) * plot.height();
    };
    std::vector<double> lower(samples.size(), 0.0);
    for (int kind = 0; kind < core::kObjectKindCount; ++kind) {
        QPainterPath band;
        std::vector<QPointF> upper, bottom;
        for (std::size_t i = 0; i < samples.size(); ++i) {
            const double left = x(samples[i].time);
            const double right = i + 1 < samples.size() ? x(samples[i + 1].time) : plot.right();
            const double up = lower[i] + double(samples[i].byKind.bytes[std::size_t(kind)]);
            upper.insert(upper.end(), {QPointF(left, y(up)), QPointF(right, y(up))});
            bottom.insert(bottom.end(), {QPointF(left, y(lower[i])), QPointF(right, y(lower[i]))});
            lower[i] = up;
        }
        if (upper.empty())
            continue;
        band.moveTo(upper.front());
        for (const QPointF &pt : upper)
            band.lineTo(pt);
        for (auto pt = bottom.rbegin(); pt != bottom.rend(); ++pt)
            band.lineTo(*pt);
        band.closeSubpath();
        p.fillPath(band, kindBrush(core::ObjectKind(kind)));
    }
    p.setPen(QPen(Qt::black, 1.0));
    p.drawRect(plot);
    const double step = niceStep(double(top), 5);
    for (double v = 0; v <= double(top) + 1; v += step) {
        p.drawLine(QPointF(plot.left() - 4, y(v)), QPointF(plot.left(), y(v)));
        p.drawText(QRectF(plot.left() - 96, y(v) - 8, 90, 16), Qt::AlignRight | Qt::AlignVCenter,
                   formatMemory(std::int64_t(v)));
    }
    const double tick = niceStep(endSteps, 8);
    for (double t = 0; t <= endSteps + 1e-9; t += tick) {
        const double at = plot.left() + t / endSteps * plot.width();
        p.drawLine(QPointF(at, plot.bottom()), QPointF(at, plot.bottom() + 4));
        p.drawText(QRectF(at - 30, plot.bottom() + 4, 60, 16), Qt::AlignCenter,
                   QString::number(t, 'g', 6));
    }
    if (target) {
        p.setPen(QPen(Qt::black, 1.5, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), y(double(*target))),
                   QPointF(plot.right(), y(double(*target))));
    }
}

// The device's memory as the memory chart draws it: an orange dash-dot line, its words above it
// at the left on the plot's white (the stacked kinds of a peak that does not fit run behind them).
void paintDeviceLine(QPainter &p, const QRectF &plot, std::int64_t top, std::int64_t device)
{
    const double at = plot.bottom() - double(device) / double(top) * plot.height();
    p.setPen(QPen(kDeviceMemory, 2.0, Qt::DashDotLine));
    p.drawLine(QPointF(plot.left(), at), QPointF(plot.right(), at));
    const QString words = deviceMemoryLabel(device);
    const QFontMetricsF metrics(p.font());
    const QRectF box(plot.left() + 3, at - 1 - metrics.height(),
                     metrics.horizontalAdvance(words) + 6, metrics.height());
    QColor backdrop(Qt::white);
    backdrop.setAlpha(215);
    p.fillRect(box, backdrop);
    p.setPen(kDeviceMemory.darker(130));
    p.drawText(box, Qt::AlignCenter, words);
}

void paintLegend(QPainter &p, QPointF at)
{
    for (int kind = 0; kind < core::kObjectKindCount; ++kind) {
        paintKindSwatch(p, QRectF(at.x(), at.y() + 3, 12, 12), core::ObjectKind(kind),
                        kindColor(core::ObjectKind(kind)));
        const QString name = kindPlural(core::ObjectKind(kind));
        p.setPen(Qt::black);
        p.drawText(QPointF(at.x() + 16, at.y() + 14), name);
        at.rx() += 16 + p.fontMetrics().horizontalAdvance(name) + 18;
    }
}

void paintRankTable(QPainter &p, const QRectF &area, const core::Trace &trace,
                    const QString &timeSuffix)
{
    const auto &ranks = trace.figures.ranks;
    const QString header = QObject::tr("rank   busy   idle   communication");
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QPointF(area.left(), area.top() + 16),
               QObject::tr("Where time goes (each rank adds up to %1)")
                   .arg(QString::fromStdString(trace.figures.endTime.toString()) + timeSuffix));
    p.setFont(QFont(QStringLiteral("monospace"), p.font().pointSize()));
    double y = area.top() + 40;
    p.drawText(QPointF(area.left(), y), header);
    const std::size_t shown = std::min<std::size_t>(ranks.size(), 16);
    for (std::size_t r = 0; r < shown; ++r) {
        y += 18;
        p.drawText(QPointF(area.left(), y),
                   QStringLiteral("%1 %2 %3 %4")
                       .arg(r, 4)
                       .arg(QString::fromStdString(ranks[r].compute.toString()), 6)
                       .arg(QString::fromStdString(ranks[r].idle.toString()), 6)
                       .arg(QString::fromStdString(ranks[r].communication.toString()), 8));
    }
    if (ranks.size() > shown)
        p.drawText(QPointF(area.left(), y + 18),
                   QObject::tr("… and %1 more ranks").arg(ranks.size() - shown));
}

} // namespace

void paintExplainFigure(QPainter &p, const core::Trace &trace, const FigureOptions &options)
{
    const QSizeF size = QSizeF(options.size) / options.scale;
    p.save();
    p.scale(options.scale, options.scale);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    p.setPen(Qt::black);
    QFont font = p.font();
    font.setPointSizeF(10);
    QFont title = font;
    title.setPointSizeF(15);
    title.setBold(true);
    p.setFont(title);
    const double width = size.width() - 2 * kMargin;
    p.drawText(
        QRectF(kMargin, kMargin - 6, width, 28), Qt::AlignLeft | Qt::AlignVCenter,
        options.title.isEmpty() ? QObject::tr("Why the run behaves as it does") : options.title);
    p.setFont(font);
    const auto peak = explain::peakMemory(trace);
    // The window's unit: "ms" for ticks that are microseconds, after each time said.
    const QString unit = figureTimeUnit(trace, options.realRun);
    const QString timeSuffix = unit == QLatin1String("ms") ? QStringLiteral(" ms") : QString();
    const core::Phrasebook &phrasebook = options.words ? *options.words : core::english();
    QString words = peak
                        ? QString::fromStdString(explain::describeMoment(*peak, "Peak", phrasebook))
                        : QObject::tr("No operation took simulated time.");
    // As explain's text says it: whether the peak fits the device, then the target.
    if (peak)
        if (const std::string device = explain::describeDeviceFit(trace, peak->bytes, phrasebook);
            !device.empty())
            words += QStringLiteral("\n") + QString::fromStdString(device);
    if (peak && options.memoryTarget)
        if (const std::string over =
                explain::describeOverTarget(trace, *peak, *options.memoryTarget, phrasebook);
            !over.empty())
            words += QStringLiteral("\n") + QString::fromStdString(over);
    if (trace.status != core::RunStatus::Ok)
        words = QObject::tr("The run did not finish: explained up to where it stopped.\n") + words;
    const QRectF text(kMargin, kMargin + 26, width, 84);
    p.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, words);
    const double top = text.bottom() + 12;
    const QRectF plot(kMargin + 100, top + 24, width * 0.62 - 100, size.height() - top - 110);
    if (peak) {
        QFont bold = font;
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(
            QPointF(kMargin, top + 12),
            QObject::tr("Memory of rank %1 by kind over time (%2)").arg(peak->rank).arg(unit));
        p.setFont(font);
        const auto samples = perColumn(explain::memoryByKind(trace, peak->rank),
                                       trace.figures.endTime, int(plot.width()));
        const std::optional<std::int64_t> device = plotDeviceMemory(trace);
        std::int64_t highest = std::max(options.memoryTarget.value_or(0), device.value_or(0));
        for (const auto &s : samples)
            highest = std::max(highest, s.byKind.total());
        const std::int64_t axisTop = std::max<std::int64_t>(1, highest + highest / 12);
        paintStacked(p, plot, samples, trace.figures.endTime, axisTop, options.memoryTarget);
        if (device)
            paintDeviceLine(p, plot, axisTop, *device);
        paintLegend(p, QPointF(plot.left(), plot.bottom() + 26));
    }
    p.setFont(font);
    paintRankTable(p, QRectF(kMargin + width * 0.66, top, width * 0.34, plot.height()), trace,
                   timeSuffix);
    const auto path = explain::criticalPath(trace);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRectF(kMargin, size.height() - kMargin - 18, width, 18), Qt::AlignLeft,
               QObject::tr("Critical path: %1 operations across the ranks, from t 0 to t %2, set "
                           "the end time.")
                   .arg(path.size())
                   .arg(QString::fromStdString(trace.figures.endTime.toString()) + timeSuffix));
    p.restore();
}

QImage renderExplainFigure(const core::Trace &trace, const FigureOptions &options)
{
    QImage image(options.size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintExplainFigure(painter, trace, options);
    return image;
}

} // namespace rankstep::gui
