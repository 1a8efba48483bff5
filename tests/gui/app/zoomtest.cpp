// SPDX-License-Identifier: MIT
// Zoom and themes in the whole window: Ctrl+Plus, Ctrl+Minus and Ctrl+0 scale every view's text
// and lines together; the View > Theme menu sets the palette, and the chart follows.
#include "appearance.h"
#include "guitestsupport.h"
#include "memorychart.h"
#include "paintrecorder.h"
#include "palette.h"
#include "runsession.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "timelinepainter.h"
#include "timelineview.h"
#include "viewcontrols.h"
#include "zoom.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

TracePtr ddpTrace()
{
    static const TracePtr trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, &rankstep::testing::ddp));
    return trace;
}

// The window's look is the application's: put it back for the next test.
class LookTest : public WindowTest
{
protected:
    void TearDown() override
    {
        QApplication::setPalette(themePalette(Theme::System));
        WindowTest::TearDown();
    }

    // The trace in the views, the cursor a few steps in (so the timeline draws its cursor).
    static void showTrace(MainWindow &window)
    {
        window.parts().session->setTrace(ddpTrace());
        window.parts().stepper->home();
        for (int i = 0; i < 5; ++i)
            window.parts().stepper->next();
        QApplication::processEvents();
    }

    // The timeline paints from a cached picture: record its painter with what the view feeds it
    // (its font, the trace, the cursor) instead.
    static PaintSizes paintTimeline(MainWindow &window)
    {
        const TimelineView &view = *window.parts().timeline;
        return recordPaint(QSize(900, 300), [&](QPainter &painter) {
            TimelineScene scene;
            scene.trace = ddpTrace().get();
            scene.layout = fitRows(RowLayout{4}, 300, 32.0);
            const double end = double(ddpTrace()->figures.endTime.ticks());
            scene.axis = {0.0, end, scene.layout.labelWidth, 900 - scene.layout.labelWidth};
            scene.bounds = QRect(0, 0, 900, 300);
            scene.palette = view.palette();
            scene.font = view.font();
            scene.cursor = view.cursorTime();
            scene.hovered = 0; // outlined with the widest pen
            scene.look = window.parts().appearance->look();
            TimelinePainter(painter, scene).paint();
        });
    }

    static QChart *chartOf(MainWindow &window)
    {
        return window.parts().memoryChart->findChild<QChartView *>()->chart();
    }
};

TEST(Zoom, StepsAlongItsLadderAndStopsAtTheEnds)
{
    EXPECT_DOUBLE_EQ(nextZoomIn(1.0), 1.1);
    EXPECT_DOUBLE_EQ(nextZoomOut(1.0), 0.9);
    EXPECT_DOUBLE_EQ(nextZoomIn(1.2), 1.25);
    EXPECT_DOUBLE_EQ(nextZoomOut(1.2), 1.1);
    EXPECT_DOUBLE_EQ(nextZoomIn(kMaxZoom), kMaxZoom);
    EXPECT_DOUBLE_EQ(nextZoomOut(kMinZoom), kMinZoom);
}

TEST_F(LookTest, CtrlPlusGrowsEveryViewsTextAndLinesAndCtrlZeroPutsThemBack)
{
    auto window = makeWindow();
    showTrace(*window);
    const PaintSizes timeline = paintTimeline(*window);
    window->parts().timeline->grab();
    const int renders = window->parts().timeline->baseRenders();
    const PaintSizes state = recordPaint(*window->parts().stateView);
    const double font = QApplication::font().pointSizeF();
    const double axis = chartOf(*window)->axes().first()->labelsFont().pointSizeF();
    ASSERT_GT(timeline.texts, 0);
    ASSERT_GT(timeline.widestPen, 0);

    QTest::keyClick(window.get(), Qt::Key_Plus, Qt::ControlModifier);
    QTest::keyClick(window.get(), Qt::Key_Equal, Qt::ControlModifier); // Plus without Shift
    QApplication::processEvents(); // the font reaches the widgets by posted events
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 1.25);
    const PaintSizes bigTimeline = paintTimeline(*window);
    window->parts().timeline->grab();
    EXPECT_GT(window->parts().timeline->baseRenders(), renders) << "the cached picture was redrawn";
    const PaintSizes bigState = recordPaint(*window->parts().stateView);
    EXPECT_GT(bigTimeline.tallestText, timeline.tallestText * 1.15);
    EXPECT_DOUBLE_EQ(bigTimeline.widestPen, timeline.widestPen * 1.25);
    EXPECT_GT(bigState.tallestText, state.tallestText * 1.15);
    // (The state view's panel frames come from a cached picture the recorder does not see into;
    // its text, drawn directly, shows the zoom.)
    EXPECT_DOUBLE_EQ(QApplication::font().pointSizeF(), font * 1.25);
    EXPECT_DOUBLE_EQ(chartOf(*window)->axes().first()->labelsFont().pointSizeF(), axis * 1.25);

    QTest::keyClick(window.get(), Qt::Key_0, Qt::ControlModifier);
    QApplication::processEvents();
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 1.0);
    EXPECT_DOUBLE_EQ(paintTimeline(*window).tallestText, timeline.tallestText);
    EXPECT_DOUBLE_EQ(QApplication::font().pointSizeF(), font);
    EXPECT_DOUBLE_EQ(chartOf(*window)->axes().first()->labelsFont().pointSizeF(), axis);
}

TEST_F(LookTest, CtrlMinusShrinksTheTimeline)
{
    auto window = makeWindow();
    showTrace(*window);
    const PaintSizes before = paintTimeline(*window);
    QTest::keyClick(window.get(), Qt::Key_Minus, Qt::ControlModifier);
    QApplication::processEvents();
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 0.9);
    const PaintSizes after = paintTimeline(*window);
    EXPECT_LT(after.tallestText, before.tallestText);
    EXPECT_DOUBLE_EQ(after.widestPen, before.widestPen * 0.9);
}

TEST_F(LookTest, TheThemeMenuSetsThePaletteAndTheChartFollows)
{
    auto window = makeWindow();
    const QColor systemWindow = QApplication::palette().color(QPalette::Window);
    window->parts().viewControls->action(QStringLiteral("theme-dark"))->trigger();
    QApplication::processEvents(); // the palette reaches the widgets by posted events
    EXPECT_TRUE(isDark(QApplication::palette()));
    EXPECT_TRUE(isDark(window->parts().timeline->palette()));
    EXPECT_EQ(chartOf(*window)->theme(), QChart::ChartThemeDark);

    window->parts().viewControls->action(QStringLiteral("theme-high-contrast"))->trigger();
    EXPECT_EQ(QApplication::palette().color(QPalette::Window), QColor(Qt::black));
    EXPECT_EQ(QApplication::palette().color(QPalette::Text), QColor(Qt::white));
    EXPECT_EQ(chartOf(*window)->theme(), QChart::ChartThemeDark);

    window->parts().viewControls->action(QStringLiteral("theme-light"))->trigger();
    QApplication::processEvents();
    EXPECT_FALSE(isDark(QApplication::palette()));
    EXPECT_EQ(chartOf(*window)->theme(), QChart::ChartThemeLight);

    window->parts().viewControls->action(QStringLiteral("theme-system"))->trigger();
    EXPECT_EQ(QApplication::palette().color(QPalette::Window), systemWindow);
    EXPECT_TRUE(window->parts().viewControls->action(QStringLiteral("theme-system"))->isChecked());
    EXPECT_FALSE(window->parts().viewControls->action(QStringLiteral("theme-dark"))->isChecked());
}

TEST_F(LookTest, WithTheSystemThemeTheChartFollowsAPaletteChange)
{
    auto window = makeWindow();
    ASSERT_EQ(window->parts().appearance->theme(), Theme::System);
    ASSERT_EQ(chartOf(*window)->theme(), QChart::ChartThemeLight);
    // What the platform does when the desktop turns dark: a new application palette.
    QApplication::setPalette(themePalette(Theme::Dark));
    QApplication::processEvents(); // the palette reaches the widgets by posted events
    EXPECT_EQ(chartOf(*window)->theme(), QChart::ChartThemeDark);
    QApplication::setPalette(themePalette(Theme::System));
    QApplication::processEvents();
    EXPECT_EQ(chartOf(*window)->theme(), QChart::ChartThemeLight);
}

TEST_F(LookTest, TheColorBlindToggleSwitchesThePaletteScheme)
{
    auto window = makeWindow();
    QAction *toggle = window->parts().viewControls->action(QStringLiteral("colorBlindAction"));
    ASSERT_FALSE(toggle->isChecked());
    const QColor green = Palette::of(Palette::Scheme::Standard).layer(0, 4);
    toggle->trigger();
    EXPECT_EQ(window->parts().appearance->look().scheme, Palette::Scheme::ColorBlindSafe);
    EXPECT_NE(window->parts().appearance->look().colors().layer(0, 4), green);
    toggle->trigger();
    EXPECT_EQ(window->parts().appearance->look().scheme, Palette::Scheme::Standard);
}

} // namespace
} // namespace rankstep::gui::testing
