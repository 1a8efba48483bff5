// SPDX-License-Identifier: MIT
// The memory chart's labels do not collide: the maximum's label stays clear of the target line
// and its label, inside the plot (not over the memory axis' labels, not past the right edge).
#include "guitestsupport.h"
#include "memorychart.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QChart>
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
    chart.setTrace(trace);
    chart.setTarget(trace->figures.maxMemory);
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

} // namespace
} // namespace rankstep::gui
