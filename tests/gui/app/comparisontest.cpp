// SPDX-License-Identifier: MIT
// The Compare tab's two sources: the lesson's solution, run by a runner of its own, and the
// previous run on screen.
#include "comparisonactions.h"
#include "comparisonview.h"
#include "guitestsupport.h"
#include "runsession.h"

#include "comparisoncanvas.h"
#include "tabs.h"
#include "tests/gui/support/layoutwaits.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>

namespace rankstep::gui::testing {
namespace {

class ComparisonTest : public WindowTest
{};

TEST_F(ComparisonTest, TheSolutionRunsBesideTheLearnersRunWithoutReplacingIt)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window)); // the starter
    const auto learners = window->parts().session->trace();
    QSignalSpy shown(window->parts().comparison, &ComparisonActions::comparisonShown);
    window->parts().comparison->compareWithSolution(QStringLiteral("gpipe"));
    ASSERT_TRUE(shown.wait(kRunTimeoutMs));
    EXPECT_EQ(window->parts().session->trace(), learners);
    ASSERT_TRUE(window->parts().session->comparison());
    EXPECT_EQ(window->parts().session->comparison()->figures.endTime.toString(), "33.8");
    EXPECT_NE(utf8(window->parts().comparisonView->summary()).find("against 33.8 (B)"),
              std::string::npos);
}

TEST_F(ComparisonTest, ThePreviousRunIsOfferedOnlyOnceThereIsOne)
{
    auto window = makeWindow();
    RunSession &session = *window->parts().session;
    QSignalSpy messages(window->parts().comparison, &ComparisonActions::message);
    session.setTrace(referenceTrace("gpipe"));
    window->parts().comparison->compareWithPreviousRun();
    EXPECT_FALSE(session.comparison());
    ASSERT_EQ(messages.count(), 1);
    session.setTrace(referenceTrace("pipeline"));
    window->parts().comparison->compareWithPreviousRun();
    ASSERT_TRUE(session.comparison());
    EXPECT_EQ(session.comparison()->figures.endTime.toString(), "33.8");
}

// At 1500x940 the Compare tab's memory plot, below both runs' timelines, was reached only by
// scrolling: the tab takes the room the What if tab takes, and both plots show whole.
TEST_F(ComparisonTest, At1500x940BothTimelinesAndTheMemoryPlotShowWithoutScrolling)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("gpipe")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->resize(1500, 940);
    window->parts().session->setComparison(referenceTrace("pipeline"));
    window->showTab(Tab::Compare);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const auto *canvas =
        static_cast<const ComparisonCanvas *>(window->parts().comparisonView->canvas());
    const auto *area = window->parts().comparisonView->findChild<QScrollArea *>();
    ASSERT_TRUE(area);
    const QRect viewport = area->viewport()->rect();
    const QRectF plot = canvas->memoryPlot();
    const QPoint top = canvas->mapTo(area->viewport(), plot.topLeft().toPoint());
    const QPoint bottom = canvas->mapTo(area->viewport(), plot.bottomRight().toPoint());
    EXPECT_TRUE(viewport.contains(top) && viewport.contains(bottom))
        << "plot " << top.y() << " to " << bottom.y() << " in a viewport " << viewport.height()
        << " high";
    EXPECT_EQ(area->verticalScrollBar()->value(), 0);
}

} // namespace
} // namespace rankstep::gui::testing
