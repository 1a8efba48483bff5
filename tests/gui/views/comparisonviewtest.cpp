// SPDX-License-Identifier: MIT
// Two runs side by side: the pipeline's reference run (A) against GPipe's (B).
#include "comparisoncanvas.h"
#include "comparisonview.h"
#include "guitestsupport.h"
#include "viewcontext.h"

#include <QFontMetricsF>
#include <QImage>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

TEST(ComparisonView, SaysWhatDiffersAndWhyAndDrawsBothRunsOnOneAxis)
{
    ViewContext context;
    ComparisonView view(context.session, context.appearance);
    view.resize(900, 700);
    EXPECT_EQ(utf8(view.summary()), "Run your code first.");
    context.session.setTrace(referenceTrace("pipeline"));
    EXPECT_EQ(utf8(view.summary()), "Choose what to compare your run with.");
    context.session.setComparison(referenceTrace("gpipe"));
    const std::string summary = utf8(view.summary());
    EXPECT_NE(summary.find("Same settings (4 ranks, 8 layers, 4 batches)."), std::string::npos);
    EXPECT_NE(summary.find("End time 67.4 (A) against 33.8 (B): B ends 33.6 earlier"),
              std::string::npos)
        << summary;
    EXPECT_NE(summary.find("B's is 1048576 B higher"), std::string::npos) << summary;

    // Both timelines are painted: each half of the canvas holds the colors of its blocks.
    view.show();
    const QImage image = view.canvas()->grab().toImage();
    const int h = image.height();
    EXPECT_GT(distinctColors(image.copy(0, 0, image.width(), int(h * 0.37))), 20);
    EXPECT_GT(distinctColors(image.copy(0, int(h * 0.37), image.width(), int(h * 0.37))), 20);
}

// Seen in the Compare tab at 1500x940 (a pane about 470x380): rank labels about 7 px high and
// the memory plot cut. The rows now keep a label's height, the memory plot its band with its
// title; the canvas asks for that height and its page scrolls.
TEST(ComparisonView, InAShortPaneRanksKeepReadableLabelsAndTheMemoryPlotIsWhole)
{
    ViewContext context;
    ComparisonView view(context.session, context.appearance);
    view.resize(470, 380);
    context.session.setTrace(referenceTrace("pipeline"));
    context.session.setComparison(referenceTrace("gpipe"));
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    auto *canvas = static_cast<ComparisonCanvas *>(view.canvas());
    QFont label = canvas->font();
    label.setPointSizeF(10.0);
    EXPECT_GE(canvas->rowHeight(), std::floor(QFontMetricsF(label).height()));
    const QRectF plot = canvas->memoryPlot();
    EXPECT_GE(plot.height(), 3 * QFontMetricsF(canvas->font()).height());
    EXPECT_LE(plot.bottom(), canvas->height());
    EXPECT_GE(canvas->height(), canvas->minimumHeight());
}

} // namespace
} // namespace rankstep::gui::testing
