// SPDX-License-Identifier: MIT
// Predict the next step (docs/quiz.md): presenting with the quiz on, a step forward
// first asks the room (the step held), the next reveals the answer with the step; not presenting,
// stepping back and Play never wait; a whole run's questions never quote the lesson's solution.
#include "codeeditor.h"
#include "guitestsupport.h"
#include "quizcontroller.h"
#include "quizpanel.h"
#include "runsession.h"
#include "stepcontroller.h"

#include "appearance.h"

#include <QAction>
#include <QLabel>
#include <QTest>

#include <string>

namespace rankstep::gui::testing {
namespace {

class QuizTest : public WindowTest
{
protected:
    // The DDP solution run and at its start, presenting with the quiz on.
    std::unique_ptr<MainWindow> ready(bool presenting = true)
    {
        auto window = makeWindow();
        EXPECT_TRUE(window->openLesson(QStringLiteral("ddp")));
        window->showScriptCode(
            QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
        EXPECT_TRUE(runAndWait(*window));
        window->parts().appearance->setPresenting(presenting);
        window->findChild<QAction *>(QStringLiteral("quizAction"))->setChecked(true);
        window->parts().stepper->setStepMode(StepController::StepMode::Operation);
        window->parts().stepper->home();
        return window;
    }

    static std::size_t stop(MainWindow &window) { return window.parts().stepper->cursor()->stop(); }

    static void pageDown(MainWindow &window)
    {
        QTest::keyClick(window.parts().editor, Qt::Key_PageDown);
    }
};

TEST_F(QuizTest, AStepAsksFirstAndTheNextPressRevealsTheAnswerWithTheStep)
{
    auto window = ready();
    QuizController &quiz = *window->parts().quiz;
    QuizPanel &panel = *window->parts().quizPanel;
    ASSERT_TRUE(quiz.isEnabled());
    const std::size_t first = window->parts().stepper->cursor()->nextOperation().stop();
    ASSERT_GT(first, 0U);
    pageDown(*window);
    ASSERT_TRUE(quiz.isAsking());
    EXPECT_EQ(stop(*window), 0U) << "the step waits for the room";
    EXPECT_TRUE(panel.isVisible());
    EXPECT_FALSE(panel.isRevealed());
    EXPECT_EQ(panel.question()->text(), QStringLiteral("Predict: How will this run end?"));
    const int answer = quiz.question()->answer;

    pageDown(*window);
    EXPECT_FALSE(quiz.isAsking());
    EXPECT_EQ(stop(*window), first) << "revealed with the step";
    EXPECT_TRUE(panel.isRevealed());
    EXPECT_TRUE(panel.choice(answer)->text().startsWith(QStringLiteral("✓")));
    EXPECT_TRUE(panel.choice(answer)->text().contains(QStringLiteral("Every rank finishes")));
    for (int i = 0; i < 4; ++i) {
        if (i != answer && panel.choice(i)->isVisible()) {
            EXPECT_FALSE(panel.choice(i)->isEnabled()) << "the wrong choices are greyed";
        }
    }
    EXPECT_TRUE(panel.footer()->text().startsWith(QStringLiteral("Every rank finishes, at t =")));

    pageDown(*window); // the next step's question
    EXPECT_TRUE(quiz.isAsking());
    EXPECT_EQ(stop(*window), first);
    EXPECT_FALSE(panel.isRevealed());
}

TEST_F(QuizTest, NotPresentingStepsAtOnce)
{
    auto window = ready(false);
    const std::size_t first = window->parts().stepper->cursor()->nextOperation().stop();
    window->parts().stepper->next();
    EXPECT_FALSE(window->parts().quiz->isAsking());
    EXPECT_EQ(stop(*window), first);
    EXPECT_FALSE(window->parts().quizPanel->isVisible());
}

TEST_F(QuizTest, StepBackDropsTheQuestionAndPlayNeverWaits)
{
    auto window = ready();
    StepController &stepper = *window->parts().stepper;
    stepper.next();
    stepper.next(); // revealed: at stop 1
    stepper.next(); // asks about stop 2
    ASSERT_TRUE(window->parts().quiz->isAsking());
    stepper.previous();
    EXPECT_FALSE(window->parts().quiz->isAsking());
    EXPECT_FALSE(window->parts().quizPanel->isVisible());
    EXPECT_EQ(stop(*window), 0U);

    stepper.setSpeed(1000);
    stepper.play();
    ASSERT_TRUE(QTest::qWaitFor([&] { return stepper.atEnd(); }, 10000));
    EXPECT_FALSE(window->parts().quizPanel->isVisible());
}

TEST_F(QuizTest, AWholeRunsQuestionsNeverQuoteTheSolution)
{
    auto window = ready();
    StepController &stepper = *window->parts().stepper;
    const std::string solution = builtinLesson(QStringLiteral("ddp")).solution;
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < solution.size();) {
        const std::size_t end = std::min(solution.find('\n', at), solution.size());
        std::string line = solution.substr(at, end - at);
        line.erase(0, line.find_first_not_of(' '));
        if (line.size() > 8 && line[0] != '#')
            lines.push_back(line);
        at = end + 1;
    }
    int asked = 0;
    for (int presses = 0; presses < 200 && !stepper.atEnd(); ++presses) {
        stepper.next();
        if (!window->parts().quiz->isAsking())
            continue;
        ++asked;
        QString shown = window->parts().quizPanel->question()->text();
        for (int i = 0; i < 4; ++i)
            shown += QLatin1Char('\n') + window->parts().quizPanel->choice(i)->text();
        for (const std::string &line : lines)
            EXPECT_EQ(shown.toStdString().find(line), std::string::npos) << line;
        for (const char *code : {"await ", "model.", "def "})
            EXPECT_EQ(shown.toStdString().find(code), std::string::npos) << utf8(shown);
    }
    EXPECT_TRUE(stepper.atEnd());
    EXPECT_GT(asked, 10);
}

} // namespace
} // namespace rankstep::gui::testing
