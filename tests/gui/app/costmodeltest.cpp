// SPDX-License-Identifier: MIT
// Run > Cost Model (docs/cost-models.md): a real-scale preset runs the lesson's code
// under it, the views show seconds and bytes, and the run is checked but neither solves nor
// counts against the lesson; the notebook's costs grade again.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "resultspanel.h"
#include "runsession.h"

#include <QAction>
#include <QSignalSpy>

namespace rankstep::gui::testing {
namespace {

class CostModelTest : public WindowTest
{};

TEST_F(CostModelTest, ARealScalePresetIsShownInSecondsAndNotGraded)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->parts().editor->setText(
        QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    QAction *zero = window->findChild<QAction *>(QStringLiteral("cost:zero-paper-7.5b"));
    QAction *notebook = window->findChild<QAction *>(QStringLiteral("cost:notebook"));
    ASSERT_NE(zero, nullptr);
    ASSERT_NE(notebook, nullptr);
    EXPECT_TRUE(notebook->isChecked());

    zero->trigger();
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    window->runCode();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    ASSERT_TRUE(window->parts().session->trace());
    EXPECT_EQ(window->parts().session->trace()->config.cost.name, "zero-paper-7.5b");
    EXPECT_EQ(window->parts().session->units(), TraceUnits::Seconds);
    const std::string results = utf8(window->parts().results->text());
    EXPECT_NE(results.find("Correct under the cost model zero-paper-7.5b"), std::string::npos)
        << results;
    EXPECT_NE(results.find("Under zero-paper-7.5b: Timesteps"), std::string::npos) << results;
    EXPECT_EQ(results.find("target"), std::string::npos) << "no notebook targets\n" << results;
    EXPECT_EQ(results.find("Each rank should hold"), std::string::npos)
        << "the notebook's formula does not hold under another cost model\n"
        << results;
    EXPECT_NE(progress().state(QStringLiteral("ddp")), ProgressStore::State::Solved);

    notebook->trigger();
    window->runCode();
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));
    EXPECT_EQ(window->parts().session->units(), TraceUnits::SimulatedSteps);
    const std::string graded = utf8(window->parts().results->text());
    EXPECT_NE(graded.find("Solved!"), std::string::npos) << graded;
    EXPECT_NE(graded.find("Each rank should hold"), std::string::npos) << graded;
    EXPECT_EQ(progress().state(QStringLiteral("ddp")), ProgressStore::State::Solved);
}

} // namespace
} // namespace rankstep::gui::testing
