// SPDX-License-Identifier: MIT
// Every label of the memory chart grows with the zoom: the axes' numbers, the target's and the
// maximum's words (presenting at 150% showed them at 9 px).
#include "guitestsupport.h"
#include "memorychart.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QValueAxis>

namespace rankstep::gui {
namespace {

double sizeOf(const QFont &font)
{
    return font.pointSizeF() > 0 ? font.pointSizeF() : double(font.pixelSize());
}

struct LabelSizes {
    double timeLabels = 0, memoryLabels = 0, target = 0, maximum = 0;
};

LabelSizes labelSizes(const MemoryChart &chart)
{
    LabelSizes sizes;
    sizes.timeLabels = sizeOf(chart.chart()->axes(Qt::Horizontal).value(0)->labelsFont());
    sizes.memoryLabels = sizeOf(chart.chart()->axes(Qt::Vertical).value(0)->labelsFont());
    sizes.target = sizeOf(chart.targetLabel()->font());
    sizes.maximum = sizeOf(chart.maximumLabel()->font()); // its own item, placed clear of the rest
    return sizes;
}

TEST(MemoryChartZoom, EveryLabelGrowsWithTheZoom)
{
    testing::ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    context.session.setLesson(&testing::builtinLesson(QStringLiteral("gpipe"))); // its target
    context.session.setTrace(testing::referenceTrace("gpipe"));
    const LabelSizes before = labelSizes(chart);
    ASSERT_GT(before.maximum, 0) << "the maximum has its label";
    context.appearance.setZoom(1.5);
    const LabelSizes after = labelSizes(chart);
    EXPECT_NEAR(after.timeLabels / before.timeLabels, 1.5, 0.05);
    EXPECT_NEAR(after.memoryLabels / before.memoryLabels, 1.5, 0.05);
    EXPECT_NEAR(after.target / before.target, 1.5, 0.05);
    EXPECT_NEAR(after.maximum / before.maximum, 1.5, 0.05);
}

} // namespace
} // namespace rankstep::gui
