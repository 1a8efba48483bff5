// SPDX-License-Identifier: MIT
// The walk-through's draw() snapshots in the whole window: a run with draws steps by snapshot,
// every draw is one stop at its own line, and `--step N --step-by MODE` stands where it says.
#include "guitestsupport.h"

#include "scripting.h"
#include "stepcontroller.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::gui::testing {
namespace {

using Mode = StepController::StepMode;

class SnapshotSteps : public WindowTest
{
protected:
    // The walk-through's reference solution run in a window; null when the run did not finish.
    std::unique_ptr<MainWindow> runWalkthrough()
    {
        auto window = makeWindow();
        if (!window->openLesson(QStringLiteral("walkthrough")))
            return nullptr;
        window->showScriptCode(QString::fromStdString(solution()));
        if (!runAndWait(*window) || !window->parts().stepper->trace())
            return nullptr;
        return window;
    }

    static const std::string &solution()
    {
        return builtinLesson(QStringLiteral("walkthrough")).solution;
    }

    // The 1-based line of every draw( and draw_group( call in the solution, top to bottom.
    static std::vector<int> drawLines()
    {
        std::vector<int> lines;
        int line = 1;
        std::size_t start = 0;
        for (std::size_t end; (end = solution().find('\n', start)) != std::string::npos; ++line) {
            const std::string text = solution().substr(start, end - start);
            const auto code = text.find_first_not_of(' ');
            if (code != std::string::npos && text.compare(code, 4, "draw") == 0)
                lines.push_back(line);
            start = end + 1;
        }
        return lines;
    }
};

TEST_F(SnapshotSteps, TheWalkthroughStepsByEveryDrawAtItsLine)
{
    const auto window = runWalkthrough();
    ASSERT_TRUE(window);
    StepController &stepper = *window->parts().stepper;
    EXPECT_EQ(stepper.stepMode(), Mode::Snapshot);
    const std::vector<int> lines = drawLines();
    ASSERT_EQ(lines.size(), 13U);
    ASSERT_EQ(stepper.trace()->marks.size(), 13U);
    stepper.home();
    std::vector<std::size_t> stops;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        stepper.next();
        ASSERT_EQ(stepper.snapshot(), k);
        EXPECT_EQ(stepper.trace()->marks[k].line, lines[k]) << "snapshot " << k;
        stops.push_back(stepper.cursor()->stop());
    }
    // The refused update, the faked gradients and their sum: three stops, one operation apart
    // at most, each at a state of its own.
    EXPECT_LT(stops[8], stops[9]);
    EXPECT_LT(stops[9], stops[10]);
    stepper.next();
    EXPECT_TRUE(stepper.atEnd());
    EXPECT_FALSE(stepper.snapshot());
}

TEST_F(SnapshotSteps, AScriptedStepCountsInTheNamedMode)
{
    const auto window = runWalkthrough();
    ASSERT_TRUE(window);
    StepController &stepper = *window->parts().stepper;
    ASSERT_TRUE(
        goToStep(*window->parts().stepper, QStringLiteral("10"), QStringLiteral("snapshot")));
    EXPECT_EQ(stepper.stepMode(), Mode::Snapshot);
    EXPECT_EQ(stepper.snapshot(), 9U);
    ASSERT_TRUE(
        goToStep(*window->parts().stepper, QStringLiteral("2"), QStringLiteral("operation")));
    EXPECT_EQ(stepper.stepMode(), Mode::Operation);
    EXPECT_EQ(stepper.appliedEvents(), 2U);
    ASSERT_TRUE(goToStep(*window->parts().stepper, QStringLiteral("1"), QStringLiteral("time")));
    EXPECT_EQ(stepper.stepMode(), Mode::Time);
    ASSERT_TRUE(goToStep(*window->parts().stepper, QStringLiteral("1"), QStringLiteral("slice")));
    EXPECT_EQ(stepper.stepMode(), Mode::Slice);
    EXPECT_FALSE(goToStep(*window->parts().stepper, QStringLiteral("1"), QStringLiteral("draw")));
    EXPECT_TRUE(goToStep(*window->parts().stepper, QStringLiteral("end")));
    EXPECT_TRUE(stepper.atEnd());
}

} // namespace
} // namespace rankstep::gui::testing
