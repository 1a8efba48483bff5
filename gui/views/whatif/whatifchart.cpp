// SPDX-License-Identifier: MIT
#include "whatifchart.h"

#include "appearance.h"
#include "memoryseries.h"
#include "sweeplabels.h"
#include "whatiftable.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rankstep::gui {
namespace {

const std::vector<io::SweepRow> kNoRows;

} // namespace

WhatIfChart::WhatIfChart(Appearance &appearance, QWidget *parent)
    : QChartView(new QChart, parent)
    , m_appearance(appearance)
    , m_rows(&kNoRows)
    , m_chart(chart())
    , m_points(new QScatterSeries)
    , m_frontLine(new QLineSeries)
    , m_frontPoints(new QScatterSeries)
    , m_currentPoint(new QScatterSeries)
    , m_overMemory(new QScatterSeries)
    , m_deviceLine(new QLineSeries)
    , m_memoryAxis(new QValueAxis)
    , m_timeAxis(new QValueAxis)
{
    m_points->setName(tr("settings"));
    m_points->setMarkerSize(11);
    m_frontLine->setName(tr("Pareto front"));
    m_frontPoints->setMarkerSize(15);
    m_currentPoint->setName(tr("on screen"));
    m_currentPoint->setMarkerSize(24);
    // What does not fit a device: a star over its point, and the device's memory as a line.
    m_overMemory->setName(tr("over the device's memory"));
    m_overMemory->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_overMemory->setMarkerSize(17);
    m_overMemory->setColor(kOverMemory);
    m_overMemory->setBorderColor(kOverMemory.darker(130));
    m_chart->addSeries(m_deviceLine);
    m_chart->addSeries(m_frontLine);
    m_chart->addSeries(m_points);
    m_chart->addSeries(m_frontPoints);
    m_chart->addSeries(m_overMemory);
    m_chart->addSeries(m_currentPoint);
    m_chart->addAxis(m_memoryAxis, Qt::AlignBottom);
    m_chart->addAxis(m_timeAxis, Qt::AlignLeft);
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *>{
             m_deviceLine, m_frontLine, m_points, m_frontPoints, m_overMemory, m_currentPoint}) {
        series->attachAxis(m_memoryAxis);
        series->attachAxis(m_timeAxis);
    }
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    // The front's own points are drawn by the line's markers' twin: no legend entry of its own.
    m_chart->legend()->markers(m_frontPoints).front()->setVisible(false);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    setObjectName(QStringLiteral("whatIfChart"));
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(100);
    m_chart->setMinimumSize(0, 0); // the tab's height, not the chart's wish, sizes it
    setAccessibleName(tr("Timesteps against peak memory"));
    // The points' labels follow the plot where a resize or new axes moved it.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { placePointLabels(); });
    for (QScatterSeries *series : {m_points, m_frontPoints, m_overMemory, m_currentPoint}) {
        connect(series, &QScatterSeries::clicked, this, &WhatIfChart::onPointClicked);
        connect(series, &QScatterSeries::hovered, this, &WhatIfChart::onPointHovered);
    }
}

void WhatIfChart::resizeEvent(QResizeEvent *event)
{
    // Ticks a label's width apart, and the legend only where the plot keeps its height.
    const double zoom = m_appearance.look().zoom;
    const int label = int(8 * fontMetrics().averageCharWidth() * zoom);
    m_memoryAxis->setTickCount(std::clamp(width() / std::max(1, label), 3, 9));
    m_memoryAxis->applyNiceNumbers(); // round ticks at the new count
    m_chart->legend()->setVisible(height() > int(260 * zoom));
    QChartView::resizeEvent(event);
}

// The row whose point is nearest, on the axes' scales.
void WhatIfChart::onPointClicked(const QPointF &value)
{
    const double xSpan = std::max(1e-12, m_memoryAxis->max() - m_memoryAxis->min());
    const double ySpan = std::max(1e-12, m_timeAxis->max() - m_timeAxis->min());
    int best = -1;
    double bestDistance = 0;
    for (int i = 0; i < m_points->count(); ++i) {
        const QPointF p = m_points->at(i);
        const double d = std::hypot((p.x() - value.x()) / xSpan, (p.y() - value.y()) / ySpan);
        if (best < 0 || d < bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    if (best >= 0 && std::size_t(best) < m_pointRows.size())
        Q_EMIT rowClicked(m_pointRows[std::size_t(best)]);
}

void WhatIfChart::onPointHovered(const QPointF &value, bool on)
{
    if (!on) {
        QToolTip::hideText();
        return;
    }
    for (int i = 0; i < m_points->count(); ++i)
        if (m_points->at(i) == value) {
            const io::SweepRow &row = (*m_rows)[std::size_t(m_pointRows[std::size_t(i)])];
            QToolTip::showText(
                QCursor::pos(),
                tr("%1 ranks, %2 layers, %3 batches%4: Timesteps %5, peak %6, idle %7. "
                   "Click to open this run.")
                    .arg(row.point.ranks)
                    .arg(row.point.layers)
                    .arg(row.point.batches)
                    .arg((row.point.bandwidth > 0 ? tr(", %1 GB/s").arg(row.point.bandwidth)
                                                  : QString()) +
                         (row.point.tensor > 1 || row.point.pipeline > 1
                              ? tr(", tensor %1 x pipeline %2")
                                    .arg(row.point.tensor)
                                    .arg(row.point.pipeline)
                              : QString()) +
                         (row.overDeviceMemory()
                              ? tr(", over the device's %1").arg(formatMemory(*row.deviceMemory))
                              : QString()))
                    .arg(sweepTimeText(row, row.timesteps),
                         formatMemory(row.peakMemory.value_or(0)),
                         percentText(row.idleShare.value_or(0))),
                this);
            return;
        }
}

void WhatIfChart::plot(const std::vector<io::SweepRow> &rows, int current)
{
    m_rows = &rows;
    m_current = current;
    std::int64_t largestMemory = 1;
    double largestTime = 0;
    bool seconds = false;
    for (const io::SweepRow &row : rows)
        if (row.finished() && row.peakMemory) {
            largestMemory = std::max(largestMemory, *row.peakMemory);
            largestTime = std::max(largestTime, io::sweepTimeValue(row, *row.timesteps));
            seconds = row.seconds;
        }
    const bool gigabytes = largestMemory >= 1'000'000'000;
    const double unit = gigabytes ? 1e9 : 1e6;
    const auto x = [unit](const io::SweepRow &row) {
        return double(*row.peakMemory) / unit;
    };
    const auto y = [](const io::SweepRow &row) {
        return io::sweepTimeValue(row, *row.timesteps);
    };
    QList<QPointF> points;
    m_pointRows.clear();
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].finished() && rows[i].peakMemory) {
            points.append(QPointF(x(rows[i]), y(rows[i])));
            m_pointRows.push_back(int(i));
        }
    m_points->replace(points);
    QList<QPointF> over;
    std::int64_t device = 0;
    for (const io::SweepRow &row : rows) {
        if (row.finished() && row.overDeviceMemory())
            over.append(QPointF(x(row), y(row)));
        if (row.deviceMemory)
            device = *row.deviceMemory;
    }
    m_overMemory->replace(over);
    // Their legend entries only where a device's memory is known.
    m_chart->legend()->markers(m_overMemory).front()->setVisible(!over.isEmpty());
    m_chart->legend()->markers(m_deviceLine).front()->setVisible(device > 0);
    // The front from the smallest to the fastest: a staircase down and to the right.
    const std::vector<bool> front = io::paretoFront(rows);
    std::vector<std::size_t> onFront;
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (front[i])
            onFront.push_back(i);
    std::sort(onFront.begin(), onFront.end(), [&rows](std::size_t a, std::size_t b) {
        return *rows[a].peakMemory < *rows[b].peakMemory;
    });
    QList<QPointF> line;
    for (std::size_t i : onFront)
        line.append(QPointF(x(rows[i]), y(rows[i])));
    m_frontLine->replace(line);
    m_frontPoints->replace(line);
    m_currentPoint->clear();
    if (current >= 0)
        m_currentPoint->append(x(rows[std::size_t(current)]), y(rows[std::size_t(current)]));
    m_memoryAxis->setTitleText(gigabytes ? tr("peak memory of a rank, GB")
                                         : tr("peak memory of a rank, MB"));
    m_timeAxis->setTitleText(seconds ? tr("Timesteps, s") : tr("Timesteps"));
    // No finished setting yet: plain axes, not a megabyte's millionth.
    m_memoryAxis->setRange(0, points.isEmpty() ? 1.0 : double(largestMemory) / unit * 1.1);
    // The device's memory as a line where the points' axis reaches it.
    m_deviceLine->clear();
    m_deviceLine->setName(device > 0 ? tr("device memory, %1").arg(formatMemory(device))
                                     : QString());
    if (device > 0 && !points.isEmpty() && double(device) <= double(largestMemory) * 1.1) {
        m_deviceLine->append(double(device) / unit, 0);
        m_deviceLine->append(double(device) / unit, largestTime > 0 ? largestTime * 1.1 : 1);
    }
    m_timeAxis->setRange(0, largestTime > 0 ? largestTime * 1.1 : 1);
    m_memoryAxis->applyNiceNumbers();
    m_timeAxis->applyNiceNumbers();
    m_memoryAxis->setLabelFormat(QStringLiteral("%.3g"));
    m_timeAxis->setLabelFormat(QStringLiteral("%.3g"));
    m_chart->setTitle(rows.empty() ? tr("Run the sweep to see each setting here") : QString());
    placePointLabels();
}

void WhatIfChart::placePointLabels()
{
    m_elided.clear();
    const std::vector<io::SweepRow> &rows = *m_rows;
    std::vector<io::SweepPoint> settings;
    for (const int row : m_pointRows)
        settings.push_back(rows[std::size_t(row)].point);
    const QStringList texts = sweepPointLabels(settings);
    // The front's points and the run on screen first: they keep their labels where space is short.
    const std::vector<bool> front = io::paretoFront(rows);
    std::vector<std::size_t> order(m_pointRows.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto rank = [&](std::size_t i) {
            const int row = m_pointRows[i];
            return row == m_current ? 0 : front[std::size_t(row)] ? 1 : 2;
        };
        return rank(a) < rank(b);
    });
    QFont font = m_memoryAxis->labelsFont();
    const QFontMetricsF metrics(font);
    std::vector<QPointF> points;
    std::vector<QSizeF> sizes;
    std::vector<double> radii; // the ring of the run on screen, the front's, or the dot
    for (const std::size_t i : order) {
        const int row = m_pointRows[i];
        radii.push_back((row == m_current          ? m_currentPoint->markerSize()
                         : front[std::size_t(row)] ? m_frontPoints->markerSize()
                                                   : m_points->markerSize()) /
                        2.0);
        points.push_back(m_chart->mapToPosition(m_points->at(int(i)), m_points));
        sizes.push_back(
            texts[qsizetype(i)].isEmpty()
                ? QSizeF()
                : QSizeF(metrics.horizontalAdvance(texts[qsizetype(i)]) + 2, metrics.height()));
    }
    const auto placed = gui::placePointLabels(points, sizes, m_chart->plotArea(), radii);
    while (m_pointLabels.size() < placed.size()) {
        m_pointLabels.push_back(new QGraphicsSimpleTextItem(m_chart));
        m_leaders.push_back(new QGraphicsLineItem(m_chart));
    }
    for (std::size_t k = 0; k < m_pointLabels.size(); ++k) {
        QGraphicsSimpleTextItem *label = m_pointLabels[k];
        QGraphicsLineItem *leader = m_leaders[k];
        const QString text = k < order.size() ? texts[qsizetype(order[k])] : QString();
        if (k >= placed.size() || !placed[k] || text.isEmpty()) {
            if (!text.isEmpty())
                m_elided.note(text); // no clear place: its point says it on hover
            label->hide();
            leader->hide();
            continue;
        }
        // A label moved out of a tight cluster: a line to its point says whose it is.
        const QPointF end = leaderEnd(*placed[k], points[k]);
        const bool far = QLineF(points[k], end).length() > radii[k] + 4.0;
        leader->setLine(QLineF(points[k], end));
        QColor ink = palette().color(QPalette::WindowText); // as the label, lighter
        ink.setAlpha(140);
        leader->setPen(QPen(ink, 1));
        leader->setZValue(4);
        leader->setVisible(far);
        label->setFont(font);
        label->setBrush(palette().color(QPalette::WindowText));
        label->setText(text);
        label->setPos(placed[k]->topLeft() + QPointF(1, 0));
        label->setZValue(5);
        label->show();
    }
}

QList<QPair<QString, QRectF>> WhatIfChart::pointLabels() const
{
    QList<QPair<QString, QRectF>> labels;
    for (const QGraphicsSimpleTextItem *label : m_pointLabels)
        if (label->isVisible())
            labels.append({label->text(), label->mapRectToParent(label->boundingRect())});
    return labels;
}

void WhatIfChart::applyLook()
{
    const Look look = m_appearance.look();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * look.zoom);
    m_chart->legend()->setFont(font);
    m_chart->setTitleFont(font);
    for (QValueAxis *axis : {m_memoryAxis, m_timeAxis}) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
    const Palette &colors = look.colors();
    m_points->setColor(colors.rank(0));
    m_points->setBorderColor(colors.rank(0).darker(130));
    m_frontLine->setPen(QPen(colors.maximum(), look.scaled(2), Qt::DashLine));
    m_frontPoints->setColor(Qt::transparent);
    m_frontPoints->setBorderColor(colors.maximum());
    m_frontPoints->setPen(QPen(colors.maximum(), look.scaled(2.5)));
    m_currentPoint->setColor(Qt::transparent);
    m_currentPoint->setPen(QPen(palette().color(QPalette::WindowText), look.scaled(3)));
    m_points->setMarkerSize(look.scaled(11));
    m_frontPoints->setMarkerSize(look.scaled(17));
    m_currentPoint->setMarkerSize(look.scaled(26));
    m_overMemory->setMarkerSize(look.scaled(19));
    m_deviceLine->setPen(QPen(kOverMemory, look.scaled(2), Qt::DashDotLine));
    placePointLabels(); // in the new font
}

} // namespace rankstep::gui
