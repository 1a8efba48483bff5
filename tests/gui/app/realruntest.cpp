// SPDX-License-Identifier: MIT
// Run for real (Ctrl+F5): the learner's code on real processes from the window, its
// verdict in the "For real" tab beside the simulated run of the same code, and a plain answer
// when PyTorch is missing.
#include "codeeditor.h"
#include "comparisonview.h"
#include "guitestsupport.h"
#include "realrunactions.h"
#include "realruncontroller.h"
#include "realrunview.h"
#include "runsession.h"
#include "stepbar.h"
#include "torchsupport.h"

#include <QAction>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextDocument>

#include <algorithm>
#include <cstdlib>

namespace rankstep::gui::testing {
namespace {

constexpr int kRealRunTimeoutMs = 180000;

class RealRunTest : public WindowTest
{};

TEST_F(RealRunTest, CtrlF5RunsTheCodeForRealBesideItsSimulation)
{
    REQUIRE_TORCH();
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->parts().editor->setText(
        QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    window->parts().realRun->controller().setSizes(16, 4);
    EXPECT_EQ(window->parts().realRun->action()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F5));
    QSignalSpy finished(&window->parts().realRun->controller(), &RealRunController::finished);
    QSignalSpy simulated(window.get(), &MainWindow::runFinished);
    window->parts().realRun->action()->trigger();
    EXPECT_TRUE(window->parts().session->realRunInProgress());
    EXPECT_TRUE(window->parts().realRunView->isVisible()); // the tab came to the front
    ASSERT_TRUE(finished.wait(kRealRunTimeoutMs));
    ASSERT_TRUE(simulated.count() > 0 || simulated.wait(kRunTimeoutMs));

    const auto &outcome = window->parts().session->realRun();
    ASSERT_TRUE(outcome);
    EXPECT_EQ(outcome->exitCode, 0) << utf8(outcome->output);
    ASSERT_TRUE(outcome->report);
    EXPECT_TRUE(outcome->report->weightsMatch);
    EXPECT_EQ(outcome->report->perRank.size(), 4U);
    EXPECT_FALSE(window->parts().session->realRunInProgress());
    ASSERT_TRUE(window->parts().session->trace());
    EXPECT_TRUE(window->parts().session->trace()->correct()); // the simulation of the same code
    const std::string page = utf8(window->parts().realRunView->text());
    EXPECT_NE(page.find("match one process trained on every batch"), std::string::npos) << page;
    // Rank 3's row: real seconds and the simulated run's share of communication beside them.
    EXPECT_NE(page.find("Trains what one process trains."), std::string::npos) << page;
    EXPECT_EQ(page.find("–"), std::string::npos) << "a rank without its simulated share\n" << page;

    // Ctrl+Shift+F5: the views show the real run in milliseconds, its simulation second.
    const TracePtr simulatedTrace = window->parts().session->trace();
    QAction *show = window->parts().realRun->showRealAction();
    ASSERT_TRUE(show->isEnabled());
    EXPECT_EQ(show->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F5));
    show->trigger();
    EXPECT_EQ(window->parts().session->units(), TraceUnits::Seconds);
    EXPECT_EQ(window->parts().session->trace(), outcome->trace);
    EXPECT_EQ(window->parts().session->comparison(), simulatedTrace);
    EXPECT_EQ(window->parts().session->trace()->events.size(), simulatedTrace->events.size());
    EXPECT_TRUE(window->parts().stepBar->positionText().contains(QStringLiteral(" ms")))
        << utf8(window->parts().stepBar->positionText());
    EXPECT_TRUE(
        window->parts().comparisonView->summary().contains(QStringLiteral("real processes")))
        << utf8(window->parts().comparisonView->summary());
    // The tab still sets the real seconds beside the simulation's shares.
    EXPECT_EQ(utf8(window->parts().realRunView->text()).find("–"), std::string::npos);
    show->trigger(); // and back
    EXPECT_EQ(window->parts().session->units(), TraceUnits::SimulatedSteps);
    EXPECT_EQ(window->parts().session->trace(), simulatedTrace);
    EXPECT_NE(window->parts().session->comparison(), simulatedTrace);

    // A new simulated run while the real one is shown takes its place and turns the switch off.
    show->trigger();
    ASSERT_EQ(window->parts().session->units(), TraceUnits::Seconds);
    QSignalSpy again(window.get(), &MainWindow::runFinished);
    window->runCode();
    ASSERT_TRUE(again.wait(kRunTimeoutMs));
    EXPECT_EQ(window->parts().session->units(), TraceUnits::SimulatedSteps);
    EXPECT_NE(window->parts().session->trace(), outcome->trace);
    EXPECT_FALSE(show->isChecked());
    EXPECT_NE(window->parts().session->comparison(), outcome->trace);
}

// Only the real library has a recorder: rank 1 raises in the real run, never in the simulation.
// The editor marks the line, as it marks a simulated run's error.
TEST_F(RealRunTest, ARealRanksErrorIsMarkedOnItsLine)
{
    REQUIRE_TORCH();
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    std::string code = builtinLesson(QStringLiteral("ddp")).solution;
    const std::string anchor = "    for layer in range(model.LAYERS):\n";
    const std::size_t at = code.find(anchor);
    ASSERT_NE(at, std::string::npos);
    code.insert(at,
                "    if model.rank == 1 and hasattr(model, 'recorder'):\n"
                "        raise ValueError('only for real')\n");
    const int line = int(std::count(code.begin(), code.begin() + std::ptrdiff_t(at), '\n')) + 2;
    window->parts().editor->setText(QString::fromStdString(code));
    window->parts().realRun->controller().setSizes(16, 4);
    QSignalSpy finished(&window->parts().realRun->controller(), &RealRunController::finished);
    QSignalSpy simulated(window.get(), &MainWindow::runFinished);
    window->parts().realRun->action()->trigger();
    ASSERT_TRUE(finished.wait(kRealRunTimeoutMs));
    ASSERT_TRUE(simulated.count() > 0 || simulated.wait(kRunTimeoutMs));
    ASSERT_TRUE(window->parts().session->realRun());
    EXPECT_EQ(window->parts().session->realRun()->exitCode, 2)
        << utf8(window->parts().session->realRun()->output);
    EXPECT_EQ(window->parts().editor->errorLine(), line);
}

// A lesson laid out with experts runs for real with its layout: the simulation gives every rank
// its expert, and each expert trains what one process trains.
TEST_F(RealRunTest, TheExpertLessonRunsForRealWithItsLayout)
{
    REQUIRE_TORCH();
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("expert_parallel")));
    window->parts().editor->setText(
        QString::fromStdString(builtinLesson(QStringLiteral("expert_parallel")).solution));
    window->parts().realRun->controller().setSizes(16, 4);
    QSignalSpy finished(&window->parts().realRun->controller(), &RealRunController::finished);
    window->parts().realRun->action()->trigger();
    ASSERT_TRUE(finished.wait(kRealRunTimeoutMs));
    const auto &outcome = window->parts().session->realRun();
    ASSERT_TRUE(outcome);
    EXPECT_EQ(outcome->exitCode, 0) << utf8(outcome->output);
    ASSERT_TRUE(outcome->report);
    EXPECT_TRUE(outcome->report->weightsMatch);
    const std::string page = utf8(window->parts().realRunView->text());
    EXPECT_NE(page.find("match one process trained on every batch"), std::string::npos) << page;
}

TEST_F(RealRunTest, WithoutPyTorchTheTabSaysHowToInstallIt)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    qputenv("RANKSTEP_PYTHON", "/nonexistent/python3");
    QSignalSpy finished(&window->parts().realRun->controller(), &RealRunController::finished);
    window->parts().realRun->runForReal();
    const bool ended = finished.wait(kRealRunTimeoutMs);
    qunsetenv("RANKSTEP_PYTHON");
    ASSERT_TRUE(ended);
    ASSERT_TRUE(window->parts().session->realRun());
    EXPECT_TRUE(window->parts().session->realRun()->torchMissing());
    const std::string page = utf8(window->parts().realRunView->text());
    EXPECT_NE(page.find("apt-get install python3-torch"), std::string::npos) << page;
    EXPECT_NE(page.find("PyTorch is missing."), std::string::npos) << page;
}

TEST(RealRunMarkdown, NamesTheFirstWrongLayerEvenWhereTheSimulatorFoundNothing)
{
    RealRunOutcome outcome;
    outcome.exitCode = 1;
    io::RealReport report;
    report.ranks = 2;
    report.layers = 2;
    report.firstWrongLayer = 1;
    report.perLayer = {{0, 1e-17, ""}, {1, 3e-7, "differs from one process"}};
    report.perRank = {{0, 1.5, 0.5, 2.0}, {1, 1.0, 1.0, 2.0}};
    outcome.report = report;
    const std::string page = utf8(realRunMarkdown(&outcome, nullptr, false));
    EXPECT_NE(page.find("Layer 1 is the first that differs"), std::string::npos) << page;
    EXPECT_NE(page.find("| 0 | 1.500 s | 0.500 s | 25 % | – |"), std::string::npos) << page;
    EXPECT_NE(page.find("| 1 | 3e-07 | differs from one process |"), std::string::npos) << page;
    EXPECT_NE(utf8(realRunMarkdown(nullptr, nullptr, false)).find("Ctrl+F5"), std::string::npos);
    EXPECT_NE(utf8(realRunMarkdown(nullptr, nullptr, true)).find("Running for real"),
              std::string::npos);
}

// A rank's error reads as it was printed (wrapped, nothing taken as Markdown), under a headline.
TEST(RealRunMarkdown, ARanksErrorIsShownAsPrintedUnderAHeadline)
{
    RealRunOutcome outcome;
    outcome.exitCode = 2;
    outcome.output = QStringLiteral(
        "Error (rank 2, line 12): ValueError: *not* [bold]_\n"
        "Every rank process was stopped.");
    EXPECT_EQ(utf8(realRunHeadline(&outcome, false)),
              "A rank raised an error: every rank was stopped.");
    QTextDocument page;
    page.setMarkdown(realRunMarkdown(&outcome, nullptr, false));
    const std::string text = utf8(page.toPlainText());
    EXPECT_NE(text.find("Error (rank 2, line 12): ValueError: *not* [bold]_\nEvery rank"),
              std::string::npos)
        << text;
    outcome.output = QStringLiteral(
        "The simulation of this program does not solve the puzzle, so "
        "it was not run for real:");
    EXPECT_EQ(utf8(realRunHeadline(&outcome, false)), "The simulator stopped it first.");
}

} // namespace
} // namespace rankstep::gui::testing
