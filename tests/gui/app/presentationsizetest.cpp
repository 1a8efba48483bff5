// SPDX-License-Identifier: MIT
// Presenting at a projector's 1920x1080 and 150%: the memory chart keeps a quarter of the height
// however the window got its size, and the text of the lesson, code included, grows with the zoom.
#include "appearance.h"
#include "guitestsupport.h"
#include "lessonpanel.h"
#include "memorychart.h"
#include "presentation.h"
#include "stepcontroller.h"
#include "timelineview.h"

#include <gtest/gtest.h>

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
    window->stepController()->home();
    window->stepController()->next(); // stepping: the state tab
    window->presentation().setActive(true);
    window->appearance().setZoom(1.5);
    QTest::qWait(50);
    window->resize(1920, 1080); // as a projector's full screen arrives: after the arrangement
    QTest::qWait(100);
    EXPECT_GE(window->memoryChart()->height(), 1080 / 4);
}

TEST_F(PresentationSizeTest, At1280x800EveryRanksRowOfTheTimelineHasRoomForItsName)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    window->stepController()->home();
    window->stepController()->next(); // stepping: the state tab
    window->presentation().setActive(true);
    QTest::qWait(50);
    window->resize(1280, 800); // the offscreen screen is smaller
    QTest::qWait(50);
    window->arrangeViews();
    QTest::qWait(100);
    const TimelineView &timeline = *window->timeline();
    EXPECT_GE(timeline.rowLayout().rowHeight, QFontMetricsF(timeline.font()).height())
        << "4 rows in " << timeline.height() << " pixels";
    EXPECT_GE(window->memoryChart()->height(), 800 / 4);
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
    const double before = codePointSize(*window->lessonPanel()->textDocument());
    ASSERT_GT(before, 0) << "the lesson has inline code";
    window->appearance().setZoom(1.5);
    QTest::qWait(50);
    const double after = codePointSize(*window->lessonPanel()->textDocument());
    EXPECT_NEAR(after / before, 1.5, 0.1);
    EXPECT_NEAR(after, QApplication::font().pointSizeF(), 0.6) << "as large as the text around";
}

} // namespace
} // namespace rankstep::gui::testing
