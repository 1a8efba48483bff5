// SPDX-License-Identifier: MIT
// The What if tab's comparison of pipeline schedules (gui/views/whatif/bubblechart.h): a line of
// measured bubble and a dashed line of formula for each program, named by its schedule in the
// legend, points in order of m; rows that are not pipeline runs give no line.
#include "appearance.h"
#include "bubblechart.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>

namespace rankstep::gui {
namespace {

io::SweepRow pipelineRow(int index, const std::string &program, const std::string &schedule, int v,
                         int m, double measured, double formula, const std::string &text)
{
    io::SweepRow row;
    row.index = index;
    row.program = program;
    row.point = {4, 8, m, 0};
    row.status = "solved";
    row.solved = true;
    row.timesteps = core::SimTime::fromTicks(1000);
    row.endTime = row.timesteps;
    row.pipeline = io::SweepPipeline{schedule, 4, m, v, measured, formula, text};
    return row;
}

std::string utf8(const QString &text)
{
    return text.toStdString();
}

TEST(BubbleChart, NamesEachScheduleAndDrawsMeasuredBesideFormulaByM)
{
    // Rows arrive in any order: m = 16 before m = 4.
    const std::vector<io::SweepRow> rows = {
        pipelineRow(1, "a.py:one_f_one_b", "1f1b", 1, 16, 0.1875, 0.1875, "(p-1)/m"),
        pipelineRow(0, "a.py:one_f_one_b", "1f1b", 1, 4, 0.75, 0.75, "(p-1)/m"),
        pipelineRow(2, "b.py:interleaved_1f1b", "interleaved_1f1b", 2, 4, 0.375, 0.375,
                    "(p-1)/(v*m)"),
        pipelineRow(4, "c.py:zero_bubble", "zero_bubble", 1, 4, 0.5, 0.25,
                    "(p-1)(F+B-W)/(m(F+B+W))"),
    };
    const std::vector<BubbleCurve> curves = bubbleCurves(rows);
    ASSERT_EQ(curves.size(), 3U);
    EXPECT_EQ(utf8(curves[0].name), "1F1B");
    EXPECT_EQ(utf8(curves[0].formulaName),
              "formula (p\u2212"
              "1)/m");
    EXPECT_EQ(utf8(curves[1].name), "Interleaved 1F1B (v = 2)");
    EXPECT_EQ(utf8(curves[1].formulaName),
              "formula (p\u2212"
              "1)/(v\u00b7m)");
    EXPECT_EQ(utf8(curves[2].name), "Zero bubble (ZB-H1)");
    ASSERT_EQ(curves[0].measured.size(), 2U);
    EXPECT_EQ(curves[0].measured[0], QPointF(4, 75));
    EXPECT_EQ(curves[0].measured[1], QPointF(16, 18.75));
    EXPECT_EQ(curves[2].measured[0], QPointF(4, 50));
    EXPECT_EQ(curves[2].formula[0], QPointF(4, 25));

    Appearance appearance;
    BubbleChart chart(appearance);
    EXPECT_FALSE(chart.hasPipelines());
    chart.setRows(rows);
    EXPECT_TRUE(chart.hasPipelines());
    QStringList legend;
    for (QLegendMarker *marker : chart.chart()->legend()->markers()) // its lines, as read
        legend << marker->label().replace(QStringLiteral("<br>"), QStringLiteral(" "));
    EXPECT_EQ(legend.size(), 6) << utf8(legend.join(QStringLiteral(" | ")));
    // Each schedule's name, then its formula.
    EXPECT_EQ(utf8(legend.join(QStringLiteral(" | "))),
              "1F1B | formula (p\u2212"
              "1)/m | Interleaved 1F1B (v = 2) | formula (p\u2212"
              "1)/(v\u00b7m) | Zero bubble (ZB-H1) | formula (p\u2212"
              "1)(F+B\u2212W)/ (m(F+B+W))");
    // A schedule's two lines share its hue, the formula's darker and dashed, drawn over it.
    const auto series = chart.chart()->series();
    ASSERT_EQ(series.size(), 6);
    const auto *measured = static_cast<QLineSeries *>(series[0]);
    const auto *formula = static_cast<QLineSeries *>(series[1]);
    EXPECT_EQ(formula->pen().color(), measured->pen().color().darker(160));
    EXPECT_EQ(formula->pen().style(), Qt::DashLine);
    EXPECT_EQ(measured->pen().style(), Qt::SolidLine);
    EXPECT_NE(measured->pen().color(), static_cast<QLineSeries *>(series[2])->pen().color());
}

TEST(BubbleChart, RowsThatAreNoPipelineGiveNoLineAndTwoOfAScheduleAreToldApart)
{
    io::SweepRow failed;
    failed.index = 0;
    failed.program = "mine.py";
    failed.status = "error";
    const std::vector<io::SweepRow> rows = {
        failed,
        pipelineRow(1, "run.py", "1f1b", 1, 4, 0.8, 0.75, "(p-1)/m"),
        pipelineRow(2, "/tmp/x/compared-1-one_f_one_b.py:one_f_one_b", "1f1b", 1, 4, 0.8, 0.75,
                    "(p-1)/m"),
    };
    const std::vector<BubbleCurve> curves = bubbleCurves(rows);
    ASSERT_EQ(curves.size(), 3U);
    EXPECT_TRUE(curves[0].measured.empty());
    EXPECT_EQ(utf8(curves[1].name), "1F1B (run.py)");
    EXPECT_EQ(utf8(curves[2].name), "1F1B (one_f_one_b)");
    Appearance appearance;
    BubbleChart chart(appearance);
    chart.setRows(rows);
    EXPECT_EQ(chart.chart()->series().size(), 4); // the failed program draws nothing
}

} // namespace
// Presenting, the legend beside the plot cut ZB-H1's formula short with "...": its label goes on
// lines of its own, whole, the long one broken after its division sign.
TEST(BubbleChart, AFormulasLegendLabelKeepsTheFormulaWhole)
{
    const QString label = legendLines(QStringLiteral("formula (p-1)(F+B-W)/(m(F+B+W))"));
    EXPECT_EQ(label.toStdString(), "formula<br>(p-1)(F+B-W)/<br>(m(F+B+W))");
    EXPECT_EQ(legendLines(QStringLiteral("formula (p-1)/m")).toStdString(), "formula<br>(p-1)/m");
}

} // namespace rankstep::gui
