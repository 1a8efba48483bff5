// SPDX-License-Identifier: MIT
// A short memory chart (1280x800: about 120 px) kept its legend, its axis title and six memory
// labels, and Qt Charts elided every axis label to "…": it now gives those to its labels.
#include "guitestsupport.h"
#include "memorychart.h"
#include "viewcontext.h"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QValueAxis>

namespace rankstep::gui::testing {
namespace {

TEST(ChartFit, AShortChartGivesItsLegendAndTitleToLabelsThatFit)
{
    ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    chart.resize(1000, 300);
    chart.show();
    context.session.setTrace(referenceTrace("gpipe"));
    auto *memory = qobject_cast<QCategoryAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
    auto *time = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(memory && time);
    EXPECT_TRUE(chart.chart()->legend()->isVisible()) << "a roomy chart keeps its legend";
    EXPECT_TRUE(time->isTitleVisible());

    chart.resize(1000, 120);
    EXPECT_FALSE(chart.chart()->legend()->isVisible());
    EXPECT_FALSE(time->isTitleVisible());
    const double label = QFontMetricsF(memory->labelsFont()).height();
    EXPECT_LE(memory->count() * 1.6 * label, 120.0) << memory->count() << " memory labels";
    EXPECT_GE(memory->count(), 2);
}

} // namespace
} // namespace rankstep::gui::testing
