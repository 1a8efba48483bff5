// SPDX-License-Identifier: MIT
// The window as a learner uses it: clicks, keys and real runs of rankstep-cli in a child process.
#include "guitestsupport.h"
#include "tests/gui/support/eventwaits.h"

#include "codeeditor.h"
#include "lessonlistmodel.h"
#include "lessonpanel.h"
#include "memorychart.h"
#include "resultspanel.h"
#include "timelineview.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QElapsedTimer>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

namespace rankstep::gui::testing {
namespace {

using MainWindowTest = WindowTest;

QModelIndex lessonRow(const QAbstractItemModel &model, const QString &id)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, 0).data(LessonListModel::IdRole).toString() == id) {
            return model.index(row, 0);
        }
    }
    return {};
}

QString starterOf(const QString &id)
{
    return QString::fromStdString(builtinLesson(id).starter);
}

QString solutionOf(const QString &id)
{
    return QString::fromStdString(builtinLesson(id).solution);
}

TEST_F(MainWindowTest, OpensDdpFromTheListAndSolvesItWithF5)
{
    auto window = makeWindow();
    QListView *list = window->parts().lessonList;
    QAbstractItemModelTester tester(list->model(),
                                    QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex ddp = lessonRow(*list->model(), QStringLiteral("ddp"));
    ASSERT_TRUE(ddp.isValid());
    ASSERT_NE(window->currentLesson()->id, "ddp") << "a fresh start opens the first lesson";

    list->scrollTo(ddp);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(ddp).center());
    ASSERT_EQ(window->currentLesson()->id, "ddp");
    EXPECT_EQ(utf8(window->parts().editor->text()), utf8(starterOf(QStringLiteral("ddp"))));
    EXPECT_EQ(utf8(ddp.data(LessonListModel::StateRole).toString()), "new");

    CodeEditor *editor = window->parts().editor;
    editor->replaceAllUndoable(solutionOf(QStringLiteral("ddp")));
    QTest::keyClick(editor, Qt::Key_End, Qt::ControlModifier);
    QTest::keyClick(editor, Qt::Key_Return);
    QTest::keyClicks(editor, QStringLiteral("# typed by the test"));
    ASSERT_TRUE(editor->text().contains(QStringLiteral("# typed by the test")));

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::keyClick(window.get(), Qt::Key_F5);
    ASSERT_TRUE(window->parts().runController->isRunning() || !finished.isEmpty())
        << "F5 started no run";
    ASSERT_TRUE(finished.wait(kRunTimeoutMs));

    const QString results = window->parts().results->text();
    EXPECT_TRUE(results.contains(QStringLiteral("Solved!"))) << results.toStdString();
    EXPECT_TRUE(results.contains(QStringLiteral("5.1"))) << results.toStdString();
    EXPECT_TRUE(results.contains(QStringLiteral("1835008"))) << results.toStdString();
    EXPECT_EQ(utf8(ddp.data(LessonListModel::StateRole).toString()), "solved");
    EXPECT_EQ(window->parts().timeline->rowCount(), 4);
    // The run saved what was typed first.
    EXPECT_EQ(utf8(savedText(progress(), QStringLiteral("ddp"))), utf8(editor->text()));
}

// Memory by kind from the View menu and its key, the same switch as the chart's button.
TEST_F(MainWindowTest, MemoryByKindIsInTheViewMenuAndFollowsTheChartsButton)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->showScriptCode(solutionOf(QStringLiteral("gpipe")));
    ASSERT_TRUE(runAndWait(*window));
    auto *action = window->findChild<QAction *>(QStringLiteral("memoryByKindAction"));
    ASSERT_TRUE(action);
    EXPECT_EQ(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+K")));
    MemoryChart &chart = *window->parts().memoryChart;
    EXPECT_FALSE(chart.byKind());

    action->trigger();
    EXPECT_TRUE(chart.byKind());
    EXPECT_TRUE(chart.byKindButton()->isChecked());
    EXPECT_EQ(chart.kindRank(), 1); // GPipe's maximum

    chart.byKindButton()->click();
    EXPECT_FALSE(chart.byKind());
    EXPECT_FALSE(action->isChecked());
}

TEST_F(MainWindowTest, WalkthroughStarterOpensTheErrorDialogAtTheRefusedUpdate)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("walkthrough")));
    ASSERT_TRUE(runAndWait(*window));

    QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
    ASSERT_NE(box, nullptr) << "no error dialog after the refused update";
    const QString said = box->text() + QLatin1Char('\n') + box->informativeText();
    EXPECT_TRUE(said.contains(QStringLiteral("batches {2, 3}"))) << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("line"), Qt::CaseInsensitive)) << said.toStdString();

    const int updateLine =
        lineContaining(builtinLesson(QStringLiteral("walkthrough")).starter,
                       QStringLiteral("model.update("), QStringLiteral("your code starts here"));
    ASSERT_GT(updateLine, 0) << "the starter has no update in the learner's part";
    EXPECT_EQ(window->parts().editor->errorLine(), updateLine);
    EXPECT_TRUE(said.contains(QString::number(updateLine))) << said.toStdString();
    EXPECT_EQ(utf8(window->parts().editor->text()), utf8(starterOf(QStringLiteral("walkthrough"))));
}

TEST_F(MainWindowTest, EscapeStopsARunawayLoopAtOnce)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString function = QString::fromStdString(builtinLesson(QStringLiteral("ddp")).function);
    window->showScriptCode(
        QString::fromStdString(testsupport::loopingFunction(function.toStdString())));
    RunController *run = window->parts().runController;
    QSignalSpy running(run, &RunController::runningChanged);
    QSignalSpy stopped(run, &RunController::runStopped);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);

    window->runCode();
    ASSERT_TRUE(waitForRunsInTheirLoops()) << "the code never reached its loop";
    ASSERT_TRUE(run->isRunning()) << "the endless loop ended by itself";
    ASSERT_TRUE(finished.isEmpty());

    QElapsedTimer clock;
    clock.start();
    QTest::keyClick(window.get(), Qt::Key_Escape);
    ASSERT_TRUE(!stopped.isEmpty() || stopped.wait(RunController::kStopGraceMs))
        << "Esc did not stop the run";
    // At once: the window does not wait out the grace the runner has to end its run.
    EXPECT_LT(clock.elapsed(), RunController::kStopGraceMs);
    ASSERT_GE(running.count(), 2);
    EXPECT_TRUE(running.first().at(0).toBool());
    EXPECT_FALSE(running.last().at(0).toBool());
    EXPECT_FALSE(run->isRunning());
    EXPECT_EQ(finished.count(), 1);
    EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Stopped")));

    // The window still works: the solution runs to the end.
    window->showScriptCode(solutionOf(QStringLiteral("ddp")));
    ASSERT_TRUE(runAndWait(*window));
    EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Solved!")))
        << window->parts().results->text().toStdString();
    EXPECT_EQ(stopped.count(), 1) << "the killed run reported again";
}

// An endless loop no longer shows "Running…" until the time limit: after a few seconds the panel
// asks what the operation budget's message asks, and says how to stop it.
TEST_F(MainWindowTest, ARunThatRunsOnAsksWhetherALoopRunsForever)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString function = QString::fromStdString(builtinLesson(QStringLiteral("ddp")).function);
    window->showScriptCode(
        QString::fromStdString(testsupport::loopingFunction(function.toStdString())));
    RunController *run = window->parts().runController;
    QSignalSpy stopped(run, &RunController::runStopped);
    window->runCode();
    ASSERT_TRUE(waitForRunsInTheirLoops()) << "the code never reached its loop";
    const auto asks = [&window] {
        return window->parts().results->text().contains(QStringLiteral("an endless loop?"));
    };
    EXPECT_TRUE(QTest::qWaitFor(asks, 20000)) << window->parts().results->text().toStdString();
    EXPECT_TRUE(run->isRunning());
    EXPECT_TRUE(window->parts().results->text().contains(QStringLiteral("Esc")))
        << window->parts().results->text().toStdString();
    QTest::keyClick(window.get(), Qt::Key_Escape);
    ASSERT_TRUE(!stopped.isEmpty() || stopped.wait(RunController::kStopGraceMs));
}

TEST_F(MainWindowTest, TypedCodeSurvivesClosingAndReopening)
{
    const QString starter = starterOf(QStringLiteral("ddp"));
    const int learnerLine = lineContaining(builtinLesson(QStringLiteral("ddp")).starter,
                                           QStringLiteral("your code starts here"));
    ASSERT_GT(learnerLine, 0);
    QString typed;
    {
        auto first = makeWindow();
        ASSERT_TRUE(first->openLesson(QStringLiteral("ddp")));
        CodeEditor *editor = first->parts().editor;
        QSignalSpy edited(editor, &CodeEditor::codeEdited);
        editor->setCursorPosition(learnerLine, 0); // the empty line below the marker
        QTest::keyClicks(editor, QStringLiteral("    print('saved while typing')"));
        ASSERT_TRUE(edited.wait(kSettleTimeoutMs)) << "no debounced save";
        EXPECT_EQ(utf8(savedText(progress(), QStringLiteral("ddp"))), utf8(editor->text()));

        // Typed just before quitting: only close() can save this.
        QTest::keyClicks(editor, QStringLiteral("  # and at the last moment"));
        typed = editor->text();
        ASSERT_NE(utf8(savedText(progress(), QStringLiteral("ddp"))), utf8(typed));
        first->close();
    }
    ASSERT_NE(utf8(typed), utf8(starter));

    ProgressStore restarted(root());
    MainWindow second(builtinLessons(), restarted);
    ASSERT_NE(second.currentLesson(), nullptr);
    EXPECT_EQ(second.currentLesson()->id, "ddp");
    EXPECT_EQ(utf8(second.parts().editor->text()), utf8(typed));
}

TEST_F(MainWindowTest, ResetToStarterAsksAndIsOneUndoAway)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString starter = starterOf(QStringLiteral("ddp"));
    CodeEditor *editor = window->parts().editor;
    editor->setCursorPosition(0, 0);
    QTest::keyClicks(editor, QStringLiteral("# mine "));
    const QString typed = editor->text();
    ASSERT_NE(utf8(typed), utf8(starter));

    answerNextMessageBox(QMessageBox::Cancel);
    window->resetToStarter();
    EXPECT_EQ(utf8(editor->text()), utf8(typed)) << "Cancel still reset";

    QSignalSpy edited(editor, &CodeEditor::codeEdited);
    answerNextMessageBox(QMessageBox::Reset);
    window->resetToStarter();
    EXPECT_EQ(utf8(editor->text()), utf8(starter));
    EXPECT_FALSE(edited.isEmpty()) << "the reset was not saved";
    EXPECT_EQ(utf8(savedText(progress(), QStringLiteral("ddp"))), utf8(starter));

    editor->undo();
    EXPECT_EQ(utf8(editor->text()), utf8(typed));
}

TEST_F(MainWindowTest, HintsComeOneAtATimeAndTheSolutionAsksFirst)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    LessonPanel *panel = window->parts().lessonPanel;
    auto *hintButton = panel->findChild<QPushButton *>(QStringLiteral("hintButton"));
    auto *solutionButton = panel->findChild<QPushButton *>(QStringLiteral("solutionButton"));
    ASSERT_NE(hintButton, nullptr);
    ASSERT_NE(solutionButton, nullptr);
    const int hints = int(builtinLesson(QStringLiteral("ddp")).hints.size());
    ASSERT_GE(hints, 3);

    EXPECT_EQ(panel->hintsShown(), 0);
    const QString noneShown = hintButton->text();
    panel->showNextHint();
    const QString oneShown = hintButton->text();
    panel->showNextHint();
    EXPECT_EQ(panel->hintsShown(), 2);
    EXPECT_NE(utf8(oneShown), utf8(noneShown));
    EXPECT_NE(utf8(hintButton->text()), utf8(oneShown));
    EXPECT_TRUE(hintButton->isEnabled());

    QTest::mouseClick(hintButton, Qt::LeftButton);
    EXPECT_EQ(panel->hintsShown(), 3);
    EXPECT_EQ(hintButton->isEnabled(), hints > 3);

    CodeEditor *editor = window->parts().editor;
    const QString before = editor->text();
    QTest::mouseClick(solutionButton, Qt::LeftButton);
    QMessageBox *box = visibleMessageBox();
    ASSERT_NE(box, nullptr) << "the solution came without asking";
    EXPECT_EQ(utf8(editor->text()), utf8(before));
    ASSERT_NE(box->button(QMessageBox::Cancel), nullptr);
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_EQ(visibleMessageBox(), nullptr);
    EXPECT_EQ(utf8(editor->text()), utf8(before));

    QTest::mouseClick(solutionButton, Qt::LeftButton);
    box = visibleMessageBox();
    ASSERT_NE(box, nullptr);
    ASSERT_NE(box->button(QMessageBox::Yes), nullptr);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    EXPECT_EQ(utf8(editor->text()), utf8(solutionOf(QStringLiteral("ddp"))));
    editor->undo();
    EXPECT_EQ(utf8(editor->text()), utf8(before));
}

} // namespace
} // namespace rankstep::gui::testing
