// SPDX-License-Identifier: MIT
// How the window shares its room out (gui/app/viewshares.h), without a window: the editor keeps
// its columns, the splitters' sizes add up, the timeline gets its eight rows when there is room,
// and presenting, quizzing or a PyTorch lesson change who gets what.
#include "viewshares.h"

#include <gtest/gtest.h>

#include <numeric>

namespace rankstep::gui {
namespace {

// A 1500x940 window after a run of four ranks, on the state tab.
ViewSharesInput afterARun()
{
    ViewSharesInput in;
    in.lessonTab = false;
    in.ran = true;
    in.events = true;
    in.windowHeight = 940;
    in.workWidth = 1290;
    in.editorMinimum = 600;
    in.middleHeight = 860;
    in.viewsHandle = 6;
    in.resultsHead = 50;
    in.steppingBars = 70;
    in.timelineEightRows = 200;
    return in;
}

int sum(const QList<int> &sizes)
{
    return std::accumulate(sizes.begin(), sizes.end(), 0);
}

TEST(ViewShares, TheSplittersSizesAddUpToTheirRoom)
{
    const ViewSharesInput in = afterARun();
    const ViewShares out = shareViews(in);
    ASSERT_EQ(out.work.size(), 2);
    ASSERT_EQ(out.middle.size(), 2);
    ASSERT_EQ(out.views.size(), 4);
    EXPECT_EQ(sum(out.work), in.workWidth);
    EXPECT_EQ(sum(out.middle), in.middleHeight);
    EXPECT_EQ(sum(out.views), out.middle[1] - 2 * in.viewsHandle);
    EXPECT_TRUE(out.chartShown);
    EXPECT_EQ(out.views[3], 0) << "no loss curve for a simulated run";
}

// Presenting at 1920x1080 and 150%, the tabs' titles took three rows and the work above could
// not shrink to its share: the splitter took the difference from the views and scaled the
// results below their head. The views share what the work's least height leaves.
TEST(ViewShares, PresentingTheResultsKeepTheirHeadWhenTheWorkAboveCannotShrink)
{
    ViewSharesInput in = afterARun();
    in.presenting = true;
    in.windowHeight = 1080;
    in.middleHeight = 1000;
    in.resultsHead = 111;
    in.workMinimum = 440;
    const ViewShares out = shareViews(in);
    EXPECT_GE(out.middle[0], in.workMinimum);
    EXPECT_EQ(sum(out.middle), in.middleHeight);
    EXPECT_GE(out.views[0], in.resultsHead);
    EXPECT_EQ(sum(out.views), out.middle[1] - 2 * in.viewsHandle);
}

TEST(ViewShares, TheEditorKeepsItsColumnsAndTheLessonTakesLessWidthThanTheState)
{
    ViewSharesInput in = afterARun();
    in.workWidth = 800;
    EXPECT_EQ(shareViews(in).work[1], in.editorMinimum);
    in.workWidth = 1290;
    const int state = shareViews(in).work[0];
    in.lessonTab = true;
    EXPECT_LT(shareViews(in).work[0], state);
    in.lessonTab = false;
    in.wideTab = true;
    EXPECT_GT(shareViews(in).work[0], state);
}

TEST(ViewShares, BeforeARunThePlaceholdersTakeLittleHeightAndNoChart)
{
    ViewSharesInput in = afterARun();
    in.ran = false;
    in.events = false;
    const ViewShares before = shareViews(in);
    EXPECT_FALSE(before.chartShown);
    EXPECT_EQ(before.views[2], 0);
    EXPECT_LT(before.middle[1], shareViews(afterARun()).middle[1]);
}

TEST(ViewShares, TheTimelineGetsItsEightRowsAndTheChartNoLessThanItsFloor)
{
    const ViewSharesInput in = afterARun();
    const ViewShares out = shareViews(in);
    EXPECT_GE(out.views[1] - in.steppingBars, in.timelineEightRows);
    EXPECT_GE(out.views[2], kMemoryMinimumHeight);
    EXPECT_EQ(out.chartMinimumHeight, kMemoryMinimumHeight);
}

// At 1500x940 a solved run's share of the room (a fifth) cut the results' last line of their head
// (where the peak was) in half: the head is whole, as when presenting.
TEST(ViewShares, ASolvedRunsResultsKeepTheirWholeHead)
{
    ViewSharesInput in = afterARun();
    in.lessonTab = true;
    in.resultsHead = 120;
    EXPECT_GE(shareViews(in).views[0], in.resultsHead);
}

TEST(ViewShares, AFailedRunsResultsGetMoreRoom)
{
    ViewSharesInput in = afterARun();
    const int fine = shareViews(in).views[0];
    in.failed = true;
    EXPECT_GT(shareViews(in).views[0], fine);
}

// Where the timeline's rows fit beside it (four ranks' rows here); when they do not, the chart
// gives them room down to a sixth (PresentingEveryRankRowShowsAt1920x1080).
TEST(ViewShares, PresentingTheChartKeepsAQuarterOfTheWindowAndTheQuizTakesTheResults)
{
    ViewSharesInput in = afterARun();
    in.presenting = true;
    in.timelineEightRows = 120;
    const ViewShares presenting = shareViews(in);
    EXPECT_GE(presenting.chartMinimumHeight, in.windowHeight / 4);
    EXPECT_GE(presenting.views[2], in.windowHeight / 4);
    EXPECT_GE(presenting.views[0], in.resultsHead);
    in.quizShown = true;
    in.barsHeight = 120;
    const ViewShares quiz = shareViews(in);
    EXPECT_EQ(quiz.views[0], 0) << "the verdict stays in the status bar";
    EXPECT_EQ(quiz.chartMinimumHeight, kQuizChartMinimumHeight) << "the rows come first";
    EXPECT_EQ(quiz.views[2], std::max(kMemoryMinimumHeight, in.windowHeight / 6))
        << "a sixth where the rows fit";
    EXPECT_LT(quiz.views[2], presenting.views[2]);
}

// Presenting at 1280x800 and 150% with the quiz: rank 3's row of four was half scrolled away.
// While the quiz asks, the rows come before the chart's presenting floor and take from the code.
TEST(ViewShares, WhileTheQuizAsksEveryRankRowShowsAt1280x800)
{
    ViewSharesInput in = afterARun();
    in.presenting = true;
    in.quizShown = true;
    in.windowHeight = 800;
    in.workWidth = 1270;
    in.middleHeight = 690;
    in.resultsHead = 75;
    in.barsHeight = 115;
    in.steppingBars = 210; // the quiz, the step bar and the legend at 150%
    in.timelineEightRows = 165;
    const ViewShares out = shareViews(in);
    EXPECT_GE(out.views[1], in.steppingBars + in.timelineEightRows);
    EXPECT_GE(out.views[2], kMemoryMinimumHeight);
    EXPECT_EQ(sum(out.views), out.middle[1] - 2 * in.viewsHandle);
}

// Presenting at 1920x1080 and 150% on the Why tab: the legend wrapped onto a second line and the
// chart kept its quarter of the window, so rank 3 of four was behind the timeline's scroll bar.
// The chart gives room down to its floor, and its least height with it.
TEST(ViewShares, PresentingEveryRankRowShowsAt1920x1080)
{
    ViewSharesInput in = afterARun();
    in.presenting = true;
    in.windowHeight = 1080;
    in.workWidth = 1700;
    in.middleHeight = 990;
    in.resultsHead = 105;
    in.workMinimum = 380;
    in.steppingBars = 90; // the step bar and the legend's two lines at 150%
    in.timelineEightRows = 145;
    const ViewShares out = shareViews(in);
    EXPECT_GE(out.views[1], in.steppingBars + in.timelineEightRows);
    EXPECT_GE(out.views[2], in.windowHeight / 6);
    EXPECT_LE(out.chartMinimumHeight, out.views[2]) << "the splitter may give the chart less";
    EXPECT_EQ(sum(out.views), out.middle[1] - 2 * in.viewsHandle);
}

TEST(ViewShares, APyTorchLessonShowsTheVerdictOverTheLossCurve)
{
    ViewSharesInput in = afterARun();
    in.torch = true;
    const ViewShares out = shareViews(in);
    EXPECT_FALSE(out.chartShown);
    EXPECT_EQ(out.views[1], 0);
    EXPECT_EQ(out.views[2], 0);
    EXPECT_GE(out.views[0], int(out.middle[1] * 0.34));
    EXPECT_GT(out.views[3], 0);
}

} // namespace
} // namespace rankstep::gui
