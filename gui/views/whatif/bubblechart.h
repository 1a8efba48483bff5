// SPDX-License-Identifier: MIT
// The What if tab's comparison of pipeline schedules: for every program a sweep ran (1F1B,
// interleaved 1F1B, zero-bubble, the learner's own), its measured bubble over micro-batches as
// a solid line with points and its paper's formula as a dashed line of the same color, the
// legend naming each schedule. A function of the sweep's rows and the appearance.
#pragma once

#include "core/io/sweeprow.h"

#include <QChartView>
#include <QPointF>
#include <QString>

#include <vector>

class QValueAxis;

namespace rankstep::gui {

class Appearance;

// One program's two lines: the bubble as a share of the ideal time, in percent, against m.
struct BubbleCurve {
    QString program;     // the row's program ("" for a sweep of one)
    QString schedule;    // "1f1b", "interleaved_1f1b", ...; "" when no row was a pipeline run
    QString name;        // the legend's: "Interleaved 1F1B (v = 2), measured"
    QString formulaName; // "Interleaved 1F1B: (p-1)/(v·m)"
    std::vector<QPointF> measured; // (m, percent), by m
    std::vector<QPointF> formula;
};

// The rows grouped by program in the order they first appear, each group's points sorted by m.
// Rows that did not finish, or are not pipeline runs, give no points.
std::vector<BubbleCurve> bubbleCurves(const std::vector<io::SweepRow> &rows);

// A program of a comparison as a person names it: "zero_bubble" for ".../solution.py:zero_bubble",
// the file's name for a program given without its function.
QString programTitle(const std::string &program);

// A formula's legend label on two lines (rich text): its words, then the formula whole.
QString legendLines(const QString &formulaName);

// The step between whole, round ticks (1, 2, 5, 10, 20, ...) that puts at most `most` steps
// on an axis from 0 to `end`: 0, 2, 4, ... 16 for an end of 17, never 0, 3, 5.
double roundTickStep(double end, int most = 10);

class BubbleChart : public QChartView
{
    Q_OBJECT
public:
    explicit BubbleChart(Appearance &appearance, QWidget *parent = nullptr);

    // Draws these rows' curves (replacing what was drawn).
    void setRows(const std::vector<io::SweepRow> &rows);
    // The curves drawn (tests): what the legend and the lines say.
    const std::vector<BubbleCurve> &curves() const { return m_curves; }
    // Whether any row was a pipeline run (else the chart says how to get one).
    bool hasPipelines() const;

private:
    void rebuild();

    Appearance &m_appearance;
    std::vector<BubbleCurve> m_curves;
    QValueAxis *m_mAxis;
    QValueAxis *m_shareAxis;
};

} // namespace rankstep::gui
