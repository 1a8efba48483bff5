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
#include "windowsettings.h"
#include "zoom.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QListView>
#include <QMainWindow>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QTemporaryDir>
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

TEST(FitWindow, AWindowThatFitsStaysAsItIs)
{
    const QRect available(0, 27, 1920, 1053);
    EXPECT_EQ(fitWindow({100, 80, 1500, 940}, {0, 30, 0, 0}, available).geometry,
              QRect(100, 80, 1500, 940));
    EXPECT_FALSE(fitWindow({100, 80, 1500, 940}, {0, 30, 0, 0}, available).maximized);
}

TEST(FitWindow, AWindowStickingOutIsMovedInside)
{
    const WindowFit fit = fitWindow({1000, 500, 1500, 940}, {2, 30, 2, 2}, {0, 0, 1920, 1080});
    EXPECT_FALSE(fit.maximized);
    EXPECT_EQ(fit.geometry.size(), QSize(1500, 940));
    EXPECT_TRUE(QRect(0, 0, 1920, 1080).contains(fit.geometry.marginsAdded({2, 30, 2, 2})));
}

TEST(FitWindow, AWindowLargerThanTheScreenIsMaximizedAndReturnsToWhatFits)
{
    const QRect available(0, 0, 1280, 772); // a 1280x800 laptop with a panel
    const WindowFit fit = fitWindow({0, 0, 1500, 940}, {0, 30, 0, 0}, available);
    EXPECT_TRUE(fit.maximized);
    EXPECT_EQ(fit.geometry, QRect(0, 30, 1280, 742));
    // Too tall only, as 1500x940 is on 1600x900.
    EXPECT_TRUE(fitWindow({0, 0, 1500, 940}, {}, {0, 0, 1600, 900}).maximized);
}

TEST_F(WindowSettingsTest, AGeometrySavedOnALargerScreenIsFittedToThisOne)
{
    const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
    {
        QMainWindow large; // as a window on a 4K screen saved it
        large.setGeometry(40, 40, screen.width() + 600, screen.height() + 400);
        QSettings().setValue(settingskeys::geometry, large.saveGeometry());
    }
    auto window = makeWindow();
    EXPECT_TRUE(window->isMaximized());
    EXPECT_LE(window->frameGeometry().width(), screen.width());
    EXPECT_LE(window->frameGeometry().height(), screen.height());
}

// The app itself on a 1280x800 screen: its first window, and the window it restores after one
// that was saved on a larger screen, fit the screen. The screenshot is the window's size.
TEST_F(WindowSettingsTest, TheAppsWindowFitsA1280x800Screen)
{
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const QString screens = home.filePath(QStringLiteral("screens.json"));
    const auto writeScreen = [&screens](int width, int height) {
        QFile file(screens);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QStringLiteral("{\"screens\": [{\"name\": \"s\", \"x\": 0, \"y\": 0, "
                                  "\"width\": %1, \"height\": %2, \"logicalDpi\": 96, "
                                  "\"logicalBaseDpi\": 96, \"dpr\": 1}]}")
                       .arg(width)
                       .arg(height)
                       .toUtf8());
    };
    const auto shoot = [&](const QStringList &more) {
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            env.insert(QString::fromLatin1(name), home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=") + screens);
        app.setProcessEnvironment(env);
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QString shot = home.filePath(QStringLiteral("shot.png"));
        QFile::remove(shot);
        app.start(QStringLiteral(RANKSTEP_APP),
                  QStringList{QStringLiteral("--lesson"), QStringLiteral("ddp"),
                              QStringLiteral("--screenshot"), shot} +
                      more);
        EXPECT_TRUE(app.waitForFinished(60000));
        return QImage(shot).size();
    };
    writeScreen(1280, 800);
    QSize first = shoot({});
    EXPECT_TRUE(first.isValid());
    EXPECT_LE(first.width(), 1280);
    EXPECT_LE(first.height(), 800);

    writeScreen(2560, 1600); // a larger screen: the window grows there and is saved so
    const QSize large = shoot({QStringLiteral("--size"), QStringLiteral("2400x1500")});
    ASSERT_EQ(large, QSize(2400, 1500));
    writeScreen(1280, 800);
    const QSize restored = shoot({});
    EXPECT_TRUE(restored.isValid());
    EXPECT_LE(restored.width(), 1280);
    EXPECT_LE(restored.height(), 800);
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
