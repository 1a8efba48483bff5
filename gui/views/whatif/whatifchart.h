// SPDX-License-Identifier: MIT
// The What if tab's scatter: a point per finished setting, Timesteps against peak memory, the
// Pareto front as a dashed staircase with its points ringed, the run on screen ringed larger, a
// star over each setting above the device's memory and that memory as a line; each point labelled
// with what its setting varies, clear of the others (sweeplabels.h). Hovering a point says its
// setting and figures; a click asks to open the run of the nearest point.
#pragma once

#include "core/io/sweeprow.h"
#include "describable.h"

#include <QChartView>

#include <vector>

class QChart;
class QGraphicsLineItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace rankstep::gui {

class Appearance;

class WhatIfChart : public QChartView
{
    Q_OBJECT
public:
    explicit WhatIfChart(Appearance &appearance, QWidget *parent = nullptr);

    // Draws `rows` (kept by reference until the next plot) with rows[current] ringed (-1: none).
    void plot(const std::vector<io::SweepRow> &rows, int current);
    // Pens, markers and fonts at the appearance's look and zoom.
    void applyLook();

    QScatterSeries *pointSeries() const { return m_points; }
    QScatterSeries *overMemorySeries() const { return m_overMemory; }
    QLineSeries *deviceMemoryLine() const { return m_deviceLine; }
    // The points' labels as drawn: their words and where they sit in the chart.
    QList<QPair<QString, QRectF>> pointLabels() const;
    // The labels that found no clear place at the last placing.
    QStringList elidedTexts() const { return m_elided.texts(); }

Q_SIGNALS:
    void rowClicked(int row); // the index into the plotted rows of the nearest point

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void onPointClicked(const QPointF &value);
    void onPointHovered(const QPointF &value, bool on);
    void placePointLabels(); // beside the points, clear of each other (sweeplabels.h)

    Appearance &m_appearance;
    const std::vector<io::SweepRow> *m_rows;
    std::vector<int> m_pointRows; // the row of each of m_points' points
    int m_current = -1;
    QChart *m_chart;
    QScatterSeries *m_points;
    QLineSeries *m_frontLine;
    QScatterSeries *m_frontPoints;
    QScatterSeries *m_currentPoint;
    QScatterSeries *m_overMemory; // the points whose peak is above the device's memory
    QLineSeries *m_deviceLine;    // the device's memory, top to bottom
    QValueAxis *m_memoryAxis;
    QValueAxis *m_timeAxis;
    std::vector<QGraphicsSimpleTextItem *> m_pointLabels; // owned by the chart
    std::vector<QGraphicsLineItem *> m_leaders;           // each label's to its point, or hidden
    ElidedTexts m_elided;
};

} // namespace rankstep::gui
