// SPDX-License-Identifier: MIT
// The Compare tab's two sources: the lesson's solution, run by a runner of its own, and the
// previous run on screen.
#include "comparisonactions.h"
#include "comparisonview.h"
#include "guitestsupport.h"
#include "runsession.h"

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

} // namespace
} // namespace rankstep::gui::testing
