// SPDX-License-Identifier: MIT
// Presenting at a projector's 1920x1080 and 150%: the memory chart keeps a quarter of the height
// however the window got its size, and the text of the lesson, code included, grows with the zoom.
#include "appearance.h"
#include "guitestsupport.h"
#include "lessonpanel.h"
#include "memorychart.h"
#include "presentation.h"
#include "quizcontroller.h"
#include "resultspanel.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tests/gui/support/layoutwaits.h"
#include "timelineview.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFontMetricsF>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

namespace rankstep::gui::testing {
namespace {

using PresentationSizeTest = WindowTest;

TEST_F(PresentationSizeTest, TheMemoryChartKeepsAQuarterOfTheHeightAt1920x1080And150Percent)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next(); // stepping: the state tab
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(settleLayouts(*window));
    window->resize(1920, 1080); // as a projector's full screen arrives: after the arrangement
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_GE(window->parts().memoryChart->height(), 1080 / 4);
}

// Seen presenting at 1920x1080 and 150%: the results showed the verdict and Timesteps, and
// Maximum memory only after scrolling.
TEST_F(PresentationSizeTest, TheResultsShowBothFiguresAt1920x1080And150Percent)
{
    auto window = makeWindow();
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("gpipe")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->resize(1920, 1080); // the projector's full screen arrives (the offscreen one is small)
    ASSERT_TRUE(settleLayouts(*window));
    ASSERT_TRUE(runAndWait(*window)); // and the teacher runs again: the run's end arranges
    ASSERT_TRUE(settleLayouts(*window));
    const ResultsPanel &results = *window->parts().results;
    ASSERT_TRUE(results.text().contains(QStringLiteral("Maximum memory")));
    EXPECT_GE(results.height(), results.headHeight())
        << window->height() << " " << window->parts().memoryChart->height() << " "
        << window->parts().presentation->isActive();
    // The head is the verdict and two rows at the zoomed font: more than four lines of it.
    EXPECT_GT(results.headHeight(), 4 * QFontMetricsF(results.font()).lineSpacing());
}

TEST_F(PresentationSizeTest, At1280x800EveryRanksRowOfTheTimelineHasRoomForItsName)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next(); // stepping: the state tab
    window->parts().presentation->setActive(true);
    ASSERT_TRUE(settleLayouts(*window));
    window->resize(1280, 800); // the offscreen screen is smaller
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const TimelineView &timeline = *window->parts().timeline;
    EXPECT_GE(timeline.rowLayout().rowHeight, QFontMetricsF(timeline.font()).height())
        << "4 rows in " << timeline.height() << " pixels";
    EXPECT_GE(window->parts().memoryChart->height(), 800 / 4);
}

// Seen presenting at 1280x800 and 150%: the window grew to 906 px high, past the screen, because
// the Experiments tab's chart (180 px and a table) set the left tabs' minimum height. Every tab
// shown once, the window's minimum still fits the screen.
TEST_F(PresentationSizeTest, At1280x800And150PercentTheWindowFitsTheScreen)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("bubble"))); // has experiments
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    ASSERT_TRUE(runAndWait(*window));
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_LE(window->minimumSizeHint().height(), 800);
    EXPECT_LE(window->minimumSizeHint().width(), 1280);
    EXPECT_LE(window->height(), 800);
}

// Presenting at 1280x800 and 150% with the quiz, the window was 928 px high on the 800 px screen
// (the left tabs counted every page's least height and their hidden bar's, above two rows of tab
// titles), rank 0's row was half scrolled away and rank 3's hidden, and a question about rank 2's
// memory showed four summaries too small to answer from. The window fits, every rank's row shows
// whole, and a question about a rank shows its panel large.
TEST_F(PresentationSizeTest, At1280x800And150PercentTheQuizFitsWithEveryRowAndItsRanksPanel)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    window->findChild<QAction *>(QStringLiteral("quizAction"))->setChecked(true);
    ASSERT_TRUE(settleLayouts(*window)); // full screen first, then the 1280x800 screen's size
    StepController &stepper = *window->parts().stepper;
    stepper.setStepMode(StepController::StepMode::Operation);
    stepper.home();
    const QuizController &quiz = *window->parts().quiz;
    bool askedAboutARank = false;
    for (int press = 0; press < 60 && !askedAboutARank; ++press) {
        stepper.next();
        askedAboutARank = quiz.isAsking() && quiz.question()->rank >= 0;
    }
    ASSERT_TRUE(askedAboutARank) << "the DDP run asks about one rank's memory";
    window->resize(1280, 800);
    ASSERT_TRUE(settleLayouts(*window));
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    EXPECT_LE(window->minimumSizeHint().height(), 800);
    EXPECT_LE(window->height(), 800);
    const TimelineView &timeline = *window->parts().timeline;
    const RowLayout &rows = timeline.rowLayout();
    ASSERT_EQ(rows.rows, 4);
    for (int row = 0; row < rows.rows; ++row) {
        EXPECT_GE(rows.rowTop(row), rows.axisHeight - 0.5) << "row " << row << " scrolled away";
        EXPECT_LE(rows.rowTop(row + 1), timeline.height() + 0.5) << "row " << row << " cut";
    }
    const StateView &state = *window->parts().stateView;
    EXPECT_TRUE(state.isFocusing());
    EXPECT_EQ(state.focusedRank(), quiz.question()->rank);
    EXPECT_FALSE(state.showsSummary(quiz.question()->rank)) << "its objects, labelled";
}

// The largest point size of the fixed-pitch (code) text in a document; 0 when there is none.
double codePointSize(const QTextDocument &document)
{
    double size = 0;
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.fontFixedPitch() || format.font().fixedPitch())
                size = std::max(size, format.font().pointSizeF());
        }
    return size;
}

TEST_F(PresentationSizeTest, InlineCodeInTheLessonGrowsWithTheZoom)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const double before = codePointSize(*window->parts().lessonPanel->textDocument());
    ASSERT_GT(before, 0) << "the lesson has inline code";
    window->parts().appearance->setZoom(1.5);
    // The lesson's text is restyled once the zoom arrived, in as many event rounds as it takes.
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return codePointSize(*window->parts().lessonPanel->textDocument()) > before; },
        kSettleTimeoutMs));
    const double after = codePointSize(*window->parts().lessonPanel->textDocument());
    EXPECT_NEAR(after / before, 1.5, 0.1);
    EXPECT_NEAR(after, QApplication::font().pointSizeF(), 0.6) << "as large as the text around";
}

} // namespace
} // namespace rankstep::gui::testing
