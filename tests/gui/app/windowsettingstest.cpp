// SPDX-License-Identifier: MIT
// What the window keeps across a restart (a window destroyed and made again over the same
// settings), and presentation mode: full screen, zoomed, spoilers hidden, clicker keys step.
#include "appearance.h"
#include "codeeditor.h"
#include "guitestsupport.h"
#include "lessonpanel.h"
#include "palette.h"
#include "presentation.h"
#include "runsession.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "viewcontrols.h"
#include "zoom.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QListView>
#include <QPushButton>
#include <QSplitter>
#include <QTest>

namespace rankstep::gui::testing {
namespace {

class WindowSettingsTest : public WindowTest
{
protected:
    void TearDown() override
    {
        forgetLook();
        WindowTest::TearDown();
    }

    // What a new process starts with: no zoom, the standard colors, the system palette.
    static void forgetLook() { QApplication::setPalette(themePalette(Theme::System)); }

    static QSplitter *workSplitter(MainWindow &window)
    {
        // The one holding the editor beside the lesson.
        return window.findChild<QSplitter *>(QStringLiteral("work")); // beside the editor's pane
    }
};

TEST_F(WindowSettingsTest, ZoomThemeLessonSpeedAndLayoutSurviveARestart)
{
    QList<int> sizes;
    {
        auto window = makeWindow();
        ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
        Appearance *look = window->parts().appearance;
        look->setTheme(Theme::Dark);
        look->setColorBlindSafe(true);
        look->setZoom(1.5);
        window->parts().stepper->setSpeed(12);
        window->resize(1600, 880);
        QApplication::processEvents();
        QSplitter *work = workSplitter(*window);
        ASSERT_NE(work, nullptr);
        work->setSizes({420, 980}); // the zoomed editor keeps its columns
        sizes = work->sizes();
        ASSERT_NEAR(double(sizes[0]) / sizes[1], 420.0 / 980, 0.02) << "not the default split";
    }
    forgetLook();
    ASSERT_FALSE(isDark(QApplication::palette()));

    auto window = makeWindow();
    EXPECT_EQ(window->currentLesson()->id, "ddp");
    const Appearance *look = window->parts().appearance;
    EXPECT_EQ(look->theme(), Theme::Dark);
    EXPECT_TRUE(isDark(QApplication::palette()));
    EXPECT_TRUE(window->parts().viewControls->action(QStringLiteral("theme-dark"))->isChecked());
    EXPECT_TRUE(look->colorBlindSafe());
    EXPECT_EQ(window->parts().appearance->look().scheme, Palette::Scheme::ColorBlindSafe);
    EXPECT_TRUE(
        window->parts().viewControls->action(QStringLiteral("colorBlindAction"))->isChecked());
    EXPECT_DOUBLE_EQ(look->zoom(), 1.5);
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 1.5);
    EXPECT_DOUBLE_EQ(window->parts().stepper->speed(), 12);
    EXPECT_DOUBLE_EQ(window->parts().stepBar->findChild<QDoubleSpinBox *>()->value(), 12);
    EXPECT_EQ(window->size(), QSize(1600, 880));
    // The same split; its pixels follow the restored zoom's wider lesson list.
    const QList<int> restored = workSplitter(*window)->sizes();
    ASSERT_EQ(restored.size(), 2);
    EXPECT_NEAR(double(restored[0]) / restored[1], double(sizes[0]) / sizes[1], 0.02);
}

TEST_F(WindowSettingsTest, AFreshStartUsesTheDefaults)
{
    auto window = makeWindow();
    const Appearance *look = window->parts().appearance;
    EXPECT_EQ(look->theme(), Theme::System);
    EXPECT_FALSE(look->colorBlindSafe());
    EXPECT_DOUBLE_EQ(look->zoom(), 1.0);
    EXPECT_EQ(window->size(), QSize(1500, 940));
}

TEST_F(WindowSettingsTest, PresentationModeIsFullScreenZoomedAndHidesSpoilersUntilAsked)
{
    auto window = makeWindow();
    auto *hint =
        window->parts().lessonPanel->findChild<QPushButton *>(QStringLiteral("hintButton"));
    auto *solution =
        window->parts().lessonPanel->findChild<QPushButton *>(QStringLiteral("solutionButton"));
    ASSERT_TRUE(hint->isVisible());
    QTest::keyClick(window.get(), Qt::Key_F11);
    EXPECT_TRUE(window->parts().viewControls->presentation()->isActive());
    EXPECT_TRUE(window->windowState() & Qt::WindowFullScreen);
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), kPresentationZoom);
    EXPECT_FALSE(hint->isVisible());
    EXPECT_FALSE(solution->isVisible());
    EXPECT_FALSE(window->parts().lessonList->isVisible());

    window->parts().viewControls->action(QStringLiteral("spoilersAction"))->trigger();
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(solution->isVisible());
    window->parts().viewControls->action(QStringLiteral("spoilersAction"))->trigger();
    EXPECT_FALSE(hint->isVisible());

    QTest::keyClick(window.get(), Qt::Key_F11);
    EXPECT_FALSE(window->parts().viewControls->presentation()->isActive());
    EXPECT_FALSE(window->windowState() & Qt::WindowFullScreen);
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 1.0);
    EXPECT_TRUE(hint->isVisible());
    EXPECT_TRUE(window->parts().lessonList->isVisible());
    EXPECT_GT(window->parts().lessonList->width(), 100);
}

TEST_F(WindowSettingsTest, InPresentationTheClickerStepsEvenFromTheEditor)
{
    auto window = makeWindow();
    StepController *step = window->parts().stepper;
    window->parts().session->setTrace(std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, &rankstep::testing::ddp)));
    step->setStepMode(StepController::StepMode::Operation); // one event per click
    step->home();
    window->parts().editor->setFocus();
    ASSERT_EQ(QApplication::focusWidget(), window->parts().editor);

    QTest::keyClick(window->parts().editor, Qt::Key_PageDown);
    EXPECT_EQ(step->appliedEvents(), 0U) << "outside presentation the editor keeps PageDown";

    window->parts().viewControls->presentation()->setActive(true);
    window->parts().editor->setFocus();
    QTest::keyClick(window->parts().editor, Qt::Key_PageDown);
    QTest::keyClick(window->parts().editor, Qt::Key_PageDown);
    EXPECT_EQ(step->appliedEvents(), 2U);
    QTest::keyClick(window->parts().editor, Qt::Key_PageUp);
    EXPECT_EQ(step->appliedEvents(), 1U);
}

TEST_F(WindowSettingsTest, APresentationsZoomAndFullScreenAreNotKept)
{
    {
        auto window = makeWindow();
        window->parts().appearance->setZoom(1.1);
        window->parts().viewControls->presentation()->setActive(true);
    }
    forgetLook();
    auto window = makeWindow();
    EXPECT_DOUBLE_EQ(window->parts().appearance->zoom(), 1.1);
    EXPECT_FALSE(window->windowState() & Qt::WindowFullScreen);
}

} // namespace
} // namespace rankstep::gui::testing
