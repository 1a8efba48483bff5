// SPDX-License-Identifier: MIT
// The memory chart's labels do not collide: the maximum's label stays clear of the target line
// and its label, of the model state's line and label, inside the plot (not over the memory axis'
// labels, not past the right edge).
#include "guitestsupport.h"
#include "longtraces.h"
#include "memorychart.h"
#include "stepcontroller.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QImage>
#include <QLineSeries>
#include <QTest>

namespace rankstep::gui {
namespace {

TEST(MemoryChartLabels, TheMaximumAtTheTargetKeepsClearOfTheTargetLineAndItsLabel)
{
    // The reference solution's maximum is exactly its target: one point on the dashed line.
    testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto trace = testing::referenceTrace("ddp");
    ASSERT_NE(trace, nullptr);
    lessons::Lesson lesson; // its target is the solution's maximum
    lesson.id = "memory_target";
    lesson.targets = lessons::Targets{core::SimTime(), trace->figures.maxMemory};
    context.session.setLesson(&lesson);
    context.session.setTrace(trace);
    chart.resize(1000, 220);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QApplication::processEvents();

    const QRectF label = chart.maximumLabelRect();
    const QRectF plot = chart.plotArea();
    const double targetY =
        chart.chart()->mapToPosition(QPointF(0, static_cast<double>(trace->figures.maxMemory))).y();
    EXPECT_FALSE(label.top() <= targetY && label.bottom() >= targetY)
        << "the label sits on the target line at y " << targetY;
    EXPECT_FALSE(label.intersects(chart.targetLabelRect()));
    EXPECT_GE(label.left(), plot.left()) << "over the memory axis' labels";
    EXPECT_LE(label.right(), plot.right() + 0.5) << "past the right edge";
}

// The cursor standing at the maximum drew its line through the maximum's label, and veiled the
// label's half after it: the label is drawn over the cursor, as it is with the cursor elsewhere.
TEST(MemoryChartLabels, TheCursorAtTheMaximumLeavesItsLabelReadable)
{
    testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto trace = testing::referenceTrace("ddp");
    ASSERT_NE(trace, nullptr);
    context.session.setTrace(trace);
    chart.resize(1000, 220);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QApplication::processEvents();
    QChartView *view = chart.chartView();
    const QRect label =
        view->mapFromScene(chart.chart()->mapRectToScene(chart.maximumLabelRect())).boundingRect();
    const auto labelPixels = [&] {
        QApplication::processEvents();
        return view->viewport()->grab().toImage().copy(label);
    };
    StepController &step = context.session.stepper();
    step.toCut(trace->figures.maxMemoryTime);
    ASSERT_TRUE(chart.cursorTime());
    const double x = chart.chart()->mapToPosition(QPointF(chart.cursorTime()->toDouble(), 0)).x();
    const QRectF labelInChart = chart.maximumLabelRect();
    ASSERT_TRUE(x > labelInChart.left() && x < labelInChart.right())
        << "the cursor at " << x << " does not cross the label";
    const QImage atMaximum = labelPixels();
    step.end(); // the cursor at the right edge, past the label: nothing over it
    ASSERT_GT(chart.chart()->mapToPosition(QPointF(chart.cursorTime()->toDouble(), 0)).x(),
              labelInChart.right());
    EXPECT_EQ(atMaximum, labelPixels()) << "the cursor line or its veil is over the label";
}

// A learner's loop of 5000 forwards peaks at its start (t 6 of 20,000 steps here), at the left
// where the model state's words sit under their dotted line just above the peak: the maximum's
// label went above its point, onto those words.
TEST(MemoryChartLabels, TheMaximumAtTheLeftKeepsClearOfTheModelStatesLabel)
{
    testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    const auto trace = testing::loopTrace(5000);
    ASSERT_EQ(trace->figures.maxMemory, 1600);
    lessons::Lesson lesson; // data-parallel: a rank holds 2 x hidden² x layers bytes of model
    lesson.id = "ddp";
    lesson.parallelism = lessons::Parallelism::DataParallel;
    context.session.setLesson(&lesson);
    chart.resize(900, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    // Just above the peak: 2 x 29² x 1 = 1682, 2 x 21² x 2 = 1764, 2 x 30² x 1 = 1800 bytes.
    for (const auto &[hidden, layers] : {std::pair{29, 1}, std::pair{21, 2}, std::pair{30, 1}}) {
        core::Trace model = *trace;
        model.config.cost.sizes.hidden = hidden;
        model.config.layers = layers;
        context.session.setTrace(std::make_shared<const core::Trace>(std::move(model)));
        const std::int64_t modelBytes = std::int64_t(2) * hidden * hidden * layers;
        QApplication::processEvents();
        ASSERT_TRUE(chart.modelStateLabel()->isVisible());
        const QRectF words =
            chart.modelStateLabel()->mapRectToParent(chart.modelStateLabel()->boundingRect());
        const QRectF label = chart.maximumLabelRect();
        const double lineY = chart.chart()->mapToPosition(QPointF(0, double(modelBytes))).y();
        EXPECT_FALSE(label.intersects(words))
            << "model state " << modelBytes << ": the maximum's label " << label.top() << "-"
            << label.bottom() << " covers the model state's words " << words.top() << "-"
            << words.bottom();
        EXPECT_FALSE(label.top() <= lineY && label.bottom() >= lineY)
            << "model state " << modelBytes << ": the label sits on the dotted line";
    }
}

// Whether a line through `points` (the chart's pixels, left to right) crosses `box`.
bool crosses(const QList<QPointF> &points, const QRectF &box)
{
    for (qsizetype i = 1; i < points.size(); ++i) {
        const QPointF a = points[i - 1], b = points[i];
        const double left = std::max(a.x(), box.left()), right = std::min(b.x(), box.right());
        if (left > right)
            continue;
        const auto yAt = [&](double x) {
            return b.x() == a.x() ? a.y() : a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x());
        };
        const double top = std::min(yAt(left), yAt(right)),
                     bottom = std::max(yAt(left), yAt(right));
        if (b.x() == a.x()
                ? !(std::max(a.y(), b.y()) < box.top() || std::min(a.y(), b.y()) > box.bottom())
                : !(bottom < box.top() || top > box.bottom()))
            return true;
    }
    return false;
}

// Presenting a run of more than eight ranks at 150%, the ranks' numbers at the lines' right ends
// ("ranks 0-15") lay across the lines they name.
TEST(MemoryChartLabels, TheRanksNumbersAtTheLinesEndsKeepOffTheLines)
{
    testing::ViewContext context;
    context.appearance.setZoom(1.5);
    MemoryChart chart(context.session, context.appearance);
    const auto trace = testing::referenceTrace("pipeline_fsdp"); // 16 ranks
    ASSERT_NE(trace, nullptr);
    context.session.setTrace(trace);
    chart.resize(1800, 270);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QApplication::processEvents();
    const QList<QRectF> labels = chart.endLabelRects();
    ASSERT_FALSE(labels.isEmpty());
    int lines = 0;
    for (QAbstractSeries *series : chart.chart()->series()) {
        auto *line = qobject_cast<QLineSeries *>(series);
        if (!line || !line->name().startsWith(QStringLiteral("rank")))
            continue; // the cursor, the levels
        ++lines;
        QList<QPointF> points;
        for (const QPointF &point : line->points())
            points << chart.chart()->mapToPosition(point, line);
        for (const QRectF &label : labels)
            EXPECT_FALSE(crosses(points, label))
                << testing::utf8(line->name()) << " crosses the label at " << label.left() << ","
                << label.top() << " " << label.width() << "x" << label.height() << " ("
                << testing::utf8(chart.endLabelTexts().join(QStringLiteral(" | "))) << ")";
    }
    EXPECT_EQ(lines, 16);
}

} // namespace
} // namespace rankstep::gui
