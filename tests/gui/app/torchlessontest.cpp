// SPDX-License-Identifier: MIT
// A PyTorch lesson in the window (lessons/100-torch_loop): Run (F5) trains it for real,
// the results show every check and the loss curve replaces the timeline; the simulated views
// step aside while such a lesson is open and come back with a puzzle.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "losschart.h"
#include "realrunactions.h"
#include "realruncontroller.h"
#include "resultspanel.h"
#include "stateview.h"
#include "timelineview.h"
#include "torchsupport.h"

#include <QAction>
#include <QSignalSpy>
#include <QTabWidget>

#include <cstdlib>

namespace rankstep::gui::testing {
namespace {

constexpr int kTorchLessonTimeoutMs = 180000;

class TorchLessonTest : public WindowTest
{};

TEST_F(TorchLessonTest, RunTrainsForRealAndDrawsTheLossCurve)
{
    REQUIRE_TORCH();
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("torch_ddp")));
    window->parts().lessonRun->setTorchLessonSizes(8, 32);
    EXPECT_FALSE(window->parts().timeline->isVisibleTo(window.get()));
    EXPECT_TRUE(window->parts().lossChart->isVisibleTo(window.get()));
    EXPECT_FALSE(window->parts().realRun->action()->isEnabled()); // it always runs for real
    QTabWidget *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_FALSE(tabs->isTabEnabled(tabs->indexOf(window->parts().stateView)));

    for (const bool solution : {true, false}) {
        const lessons::Lesson &lesson = builtinLesson(QStringLiteral("torch_ddp"));
        window->parts().editor->setText(
            QString::fromStdString(solution ? lesson.solution : lesson.starter));
        QSignalSpy finished(window.get(), &MainWindow::runFinished);
        window->runCode();
        EXPECT_TRUE(window->parts().torchRun->isRunning());
        ASSERT_TRUE(finished.wait(kTorchLessonTimeoutMs));
        const std::string results = utf8(window->parts().results->text());
        ASSERT_NE(window->parts().session->lessonReport(), nullptr) << results;
        const QStringList series = window->parts().lossChart->seriesSummary();
        // Both ranks' curves, the reference's and the uniform guess, 8 steps each.
        EXPECT_TRUE(series.contains(QStringLiteral("rank 0: 8"))) << utf8(series.join(" | "));
        EXPECT_TRUE(series.contains(QStringLiteral("rank 1: 8"))) << utf8(series.join(" | "));
        EXPECT_TRUE(series.contains(QStringLiteral("one process, every rank's batches: 8")))
            << utf8(series.join(" | "));
        if (solution) {
            EXPECT_NE(results.find("Solved!"), std::string::npos) << results;
        } else {
            EXPECT_NE(results.find("Not solved yet."), std::string::npos) << results;
            EXPECT_NE(results.find("✗"), std::string::npos) << results;
            EXPECT_NE(results.find("rank 1's weights differ from rank 0's"), std::string::npos)
                << results;
        }
    }

    // Back to a puzzle: its views return.
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    EXPECT_TRUE(window->parts().timeline->isVisibleTo(window.get()));
    EXPECT_FALSE(window->parts().lossChart->isVisibleTo(window.get()));
    EXPECT_TRUE(tabs->isTabEnabled(tabs->indexOf(window->parts().stateView)));
    EXPECT_TRUE(window->parts().realRun->action()->isEnabled());
}

} // namespace
} // namespace rankstep::gui::testing
