// SPDX-License-Identifier: MIT
// Recording a demonstration and replaying it in class (docs/demonstrations.md): every
// step replays to the view it recorded, forwards and back, without running the code again; the
// clicker's PageDown and PageUp step the recording while it is replayed; Play goes through it on
// its own; a broken, foreign or newer file is refused and the window keeps the learner's code; a
// replay never grades; another lesson stops a recording without losing it.
#include "codeeditor.h"
#include "demoactions.h"
#include "demobar.h"
#include "demostage.h"
#include "guitestsupport.h"
#include "runsession.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tests/gui/support/eventwaits.h"
#include "tests/support/fulldisk.h"

#include "appearance.h"

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

#include <string>
#include <vector>

namespace rankstep::gui::testing {
namespace {

class DemonstrationTest : public WindowTest
{
protected:
    // What the recorder sees of this window, to compare a replayed view with a recorded one.
    static DemoStage stageOf(MainWindow &window)
    {
        DemoStage stage;
        stage.session = window.parts().session;
        stage.appearance = window.parts().appearance;
        stage.tab = [&window] {
            return tabName(window.currentTab());
        };
        return stage;
    }

    QString writeFile(const QString &name, const std::string &text)
    {
        const QString path = root() + QLatin1Char('/') + name;
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(text.data(), qint64(text.size()));
        return path;
    }

    // Lets the recorder take the step the last change asked for: once the change has arrived
    // (posted events), it waits for an idle loop, a zero timer, which fires before one started
    // after it.
    static void settle() { ASSERT_TRUE(deliverPostedEvents() && letTimersFire(0)); }

    // Replays `path` from step `first` and waits until that step is on screen.
    static bool replayAndWait(MainWindow &window, const QString &path, int first = 0)
    {
        QSignalSpy shown(&window.parts().demonstrations->player(), &DemoPlayer::stepShown);
        QString why;
        if (!window.parts().demonstrations->replay(path, first, &why)) {
            ADD_FAILURE() << utf8(why);
            return false;
        }
        return !shown.isEmpty() || shown.wait(kRunTimeoutMs);
    }

    static bool goToAndWait(MainWindow &window, int step)
    {
        DemoPlayer &player = window.parts().demonstrations->player();
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.goTo(step);
        return !shown.isEmpty() || shown.wait(kRunTimeoutMs);
    }

    // The DDP solution with 3 steps on its first run: stops 0, 5 and 10.
    io::Demonstration handMade() const
    {
        io::Demonstration demo;
        demo.lesson = "ddp";
        demo.runs.push_back({builtinLesson(QStringLiteral("ddp")).solution, "notebook"});
        for (int stop : {0, 5, 10}) {
            io::DemoStep step;
            step.change = "step";
            step.run = 0;
            step.tab = "state";
            step.cursor = io::DemoCursor{io::DemoCursor::Kind::Stop, stop, {}};
            step.caption = "At stop " + std::to_string(stop);
            demo.steps.push_back(step);
        }
        return demo;
    }
};

TEST_F(DemonstrationTest, EveryRecordedStepReplaysToTheViewItRecordedForwardsAndBack)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    const QString solution = QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution);
    window->showScriptCode(solution); // not the learner's code: nothing is graded
    DemoActions &demos = *window->parts().demonstrations;
    demos.startRecording();
    ASSERT_TRUE(demos.recorder().isRecording());
    EXPECT_TRUE(window->parts().demoBar->isVisible());
    window->parts().demoBar->captionEdit()->setText(QStringLiteral("Four ranks, a model each."));
    demos.recorder().setCaption(window->parts().demoBar->captionEdit()->text());

    ASSERT_TRUE(runAndWait(*window));
    settle();
    StepController &stepper = window->parts().session->stepper();
    stepper.setStepMode(StepController::StepMode::Operation);
    stepper.home();
    settle();
    for (int k = 0; k < 3; ++k) {
        stepper.next();
        settle();
    }
    demos.recorder().setCaption(QStringLiteral("Rank 0 has done three operations."));
    stepper.setStepMode(StepController::StepMode::Time);
    stepper.next();
    settle();
    window->showTab(Tab::Why);
    settle();
    window->parts().session->setSelectedRank(2);
    settle();
    window->parts().session->setShownRanks({0, 2});
    settle();
    const TimeRange visible = window->parts().session->visibleRange();
    window->parts().session->setVisibleRange(visible.from + 1000, visible.to / 2);
    settle();
    window->parts().appearance->setZoom(1.25);
    settle();
    window->parts().session->stepper().end();
    settle();

    demos.stopRecording();
    EXPECT_FALSE(demos.recorder().isRecording());
    const io::Demonstration recorded = demos.unsaved();
    ASSERT_EQ(recorded.runs.size(), 1U);
    EXPECT_EQ(recorded.runs[0].code, solution.toStdString());
    EXPECT_EQ(recorded.runs[0].cost, "notebook");
    std::vector<std::string> changes;
    for (const io::DemoStep &step : recorded.steps)
        changes.push_back(step.change);
    const std::vector<std::string> expected = {"lesson", "run",  "step", "step",   "step",
                                               "step",   "step", "tab",  "select", "ranks",
                                               "view",   "zoom", "step"};
    EXPECT_EQ(changes, expected);
    ASSERT_EQ(recorded.steps.size(), expected.size());
    EXPECT_EQ(recorded.steps[0].caption, "Four ranks, a model each.");
    EXPECT_EQ(recorded.steps[5].caption, "Rank 0 has done three operations.");
    EXPECT_EQ(recorded.steps[6].cursor->kind, io::DemoCursor::Kind::Cut);
    EXPECT_EQ(recorded.steps[8].rank, 2);

    const QString path = root() + QStringLiteral("/ddp-demo.json");
    QString why;
    ASSERT_TRUE(demos.saveUnsaved(path, &why)) << utf8(why);
    EXPECT_TRUE(demos.unsaved().steps.empty());
    window->parts().appearance->setZoom(1);
    window->openLesson(QStringLiteral("basic"));

    QSignalSpy runs(window.get(), &MainWindow::runFinished);
    ASSERT_TRUE(replayAndWait(*window, path));
    EXPECT_EQ(window->currentLesson()->id, "ddp");
    const DemoStage stage = stageOf(*window);
    const auto check = [&](int k) {
        ASSERT_TRUE(goToAndWait(*window, k)) << k;
        const io::DemoStep &want = recorded.steps[std::size_t(k)];
        const io::DemoStep now = captureStep(stage, want.run, want.change);
        EXPECT_TRUE(sameView(now, want)) << "step " << k << ":\n"
                                         << io::demonstrationToJson({1, "ddp", {}, {now}})
                                         << io::demonstrationToJson({1, "ddp", {}, {want}});
        EXPECT_EQ(window->parts().demoBar->caption()->text().toStdString(), want.caption) << k;
        if (want.run >= 0) {
            EXPECT_EQ(window->parts().editor->text(), solution) << k;
            EXPECT_TRUE(window->parts().editor->isReadOnly()) << k;
        }
    };
    for (int k = 0; k < int(recorded.steps.size()); ++k)
        check(k);
    for (int k = int(recorded.steps.size()) - 1; k >= 0; --k)
        check(k);
    EXPECT_EQ(runs.size(), 1) << "the one run is made once and kept";
    EXPECT_NE(progress().state(QStringLiteral("ddp")), ProgressStore::State::Solved)
        << "a replayed run never grades";

    window->parts().demonstrations->player().finish();
    EXPECT_FALSE(window->parts().demoBar->isVisible());
    EXPECT_FALSE(window->parts().editor->isReadOnly());
    EXPECT_EQ(window->parts().editor->text().toStdString(),
              builtinLesson(QStringLiteral("ddp")).starter)
        << "the learner's own code is back";
}

TEST_F(DemonstrationTest, TheClickerStepsTheRecordingWhileItIsReplayed)
{
    auto window = makeWindow();
    const QString path =
        writeFile(QStringLiteral("hand.json"), io::demonstrationToJson(handMade()));
    ASSERT_TRUE(replayAndWait(*window, path));
    DemoPlayer &player = window->parts().demonstrations->player();
    StepController &stepper = window->parts().session->stepper();
    ASSERT_EQ(player.shownStep(), 0);
    EXPECT_EQ(stepper.cursor()->stop(), 0U);
    window->parts().editor->setFocus(); // the editor scrolls with PageDown, but not while replaying
    QTest::keyClick(window->parts().editor, Qt::Key_PageDown);
    EXPECT_EQ(player.shownStep(), 1);
    EXPECT_EQ(stepper.cursor()->stop(), 5U);
    EXPECT_EQ(window->parts().demoBar->caption()->text(), QStringLiteral("At stop 5"));
    QTest::keyClick(window->parts().editor, Qt::Key_PageDown);
    EXPECT_EQ(stepper.cursor()->stop(), 10U);
    QTest::keyClick(window->parts().editor, Qt::Key_PageDown); // the last step stays
    EXPECT_EQ(player.shownStep(), 2);
    QTest::keyClick(window->parts().editor, Qt::Key_PageUp);
    EXPECT_EQ(stepper.cursor()->stop(), 5U);
    window->parts().appearance->setPresenting(true);
    QTest::keyClick(window->parts().lessonList, Qt::Key_PageUp);
    EXPECT_EQ(player.shownStep(), 0);
    EXPECT_EQ(stepper.cursor()->stop(), 0U);
    window->parts().appearance->setPresenting(false);

    player.finish();
    window->showScriptCode(QString::fromStdString(builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    stepper.home();
    stepper.setStepMode(StepController::StepMode::Operation);
    window->parts().stepBar->setFocus();
    QTest::keyClick(window->parts().stepBar, Qt::Key_PageDown);
    EXPECT_EQ(stepper.appliedEvents(), 1U) << "after the replay PageDown steps the run again";
}

TEST_F(DemonstrationTest, PlayGoesThroughTheStepsOnItsOwn)
{
    auto window = makeWindow();
    const QString path =
        writeFile(QStringLiteral("hand.json"), io::demonstrationToJson(handMade()));
    ASSERT_TRUE(replayAndWait(*window, path));
    DemoPlayer &player = window->parts().demonstrations->player();
    QSignalSpy shown(&player, &DemoPlayer::stepShown);
    QSignalSpy playing(&player, &DemoPlayer::playingChanged);
    player.setPace(0.05);
    player.setPlaying(true);
    EXPECT_TRUE(window->parts().demoBar->playButton()->isChecked());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !player.isPlaying(); }, 5000));
    EXPECT_EQ(shown.size(), 2);
    EXPECT_EQ(player.shownStep(), 2);
    EXPECT_FALSE(window->parts().demoBar->playButton()->isChecked());
}

TEST_F(DemonstrationTest, ABrokenForeignOrNewerFileIsRefusedAndTheLearnersCodeStays)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("basic")));
    window->parts().editor->setText(QStringLiteral("# mine\n"));
    const std::string good = io::demonstrationToJson(handMade());
    std::string newer = good;
    newer.replace(newer.find("\"version\": 1"), 12, "\"version\": 7");
    std::string elsewhere = good;
    elsewhere.replace(elsewhere.find("\"ddp\""), 5, "\"no_such_lesson\"");
    std::string cost = good;
    cost.replace(cost.find("\"notebook\""), 10, "\"no-such-cost\"");
    const std::pair<std::string, std::string> cases[] = {
        {good.substr(0, good.size() / 2), "JSON line"},
        {"{\"traceEvents\": []}", "not a Rankstep demonstration"},
        {newer, "newer Rankstep (file format 7"},
        {elsewhere, "the lesson no_such_lesson, which this Rankstep does not have"},
        {cost, "cost model no-such-cost"},
    };
    for (const auto &[text, reason] : cases) {
        const QString path = writeFile(QStringLiteral("bad.json"), text);
        QString why;
        EXPECT_FALSE(window->parts().demonstrations->replay(path, 0, &why));
        EXPECT_NE(why.toStdString().find(reason), std::string::npos) << utf8(why);
        EXPECT_FALSE(window->parts().demonstrations->player().isActive());
        EXPECT_EQ(window->currentLesson()->id, "basic");
        EXPECT_EQ(window->parts().editor->text(), QStringLiteral("# mine\n"));
        EXPECT_FALSE(window->parts().demoBar->isVisible());
    }
    QString why;
    EXPECT_FALSE(
        window->parts().demonstrations->replay(root() + QStringLiteral("/none.json"), 0, &why));
    EXPECT_NE(why.indexOf(QStringLiteral("Cannot read")), -1) << utf8(why);
}

TEST_F(DemonstrationTest, AnotherLessonStopsTheRecordingAndKeepsItToBeSaved)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    DemoActions &demos = *window->parts().demonstrations;
    demos.startRecording();
    window->showTab(Tab::Why);
    settle();
    ASSERT_TRUE(window->openLesson(QStringLiteral("basic")));
    EXPECT_FALSE(demos.recorder().isRecording());
    ASSERT_EQ(demos.unsaved().steps.size(), 2U);
    EXPECT_EQ(demos.unsaved().lesson, "ddp");
    EXPECT_TRUE(window->parts().demoBar->isVisible()) << "Save and Discard on the bar";
    demos.startRecording(); // refused until it is saved or discarded
    EXPECT_FALSE(demos.recorder().isRecording());
    QString why;
    EXPECT_FALSE(demos.saveUnsaved(root() + QStringLiteral("/no/such/folder/x.json"), &why));
    EXPECT_NE(why.indexOf(QStringLiteral("The recording is kept")), -1) << utf8(why);
    EXPECT_EQ(demos.unsaved().steps.size(), 2U);
    demos.discardUnsaved();
    EXPECT_FALSE(window->parts().demoBar->isVisible());
    demos.startRecording();
    EXPECT_TRUE(demos.recorder().isRecording());
    EXPECT_EQ(demos.recorder().recording().lesson, "basic");
}

// A full disk: Qt 6.4's QSaveFile renamed an empty file over the demonstration that was there and
// said it was saved, and the recording was dropped.
TEST_F(DemonstrationTest, ASaveOnAFullDiskKeepsTheRecordingAndTheFileThatWasThere)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    DemoActions &demos = *window->parts().demonstrations;
    demos.startRecording();
    window->showTab(Tab::Why);
    settle();
    ASSERT_TRUE(window->openLesson(QStringLiteral("basic")));
    ASSERT_EQ(demos.unsaved().steps.size(), 2U);
    const QString path = root() + QStringLiteral("/talk.json");
    {
        QFile earlier(path);
        ASSERT_TRUE(earlier.open(QIODevice::WriteOnly));
        earlier.write("{\"earlier\": true}\n");
    }
    QString why;
    {
        const testsupport::FileSizeLimit full(0); // every write to a file fails
        EXPECT_FALSE(demos.saveUnsaved(path, &why));
    }
    EXPECT_NE(why.indexOf(QStringLiteral("(File too large). The recording is kept")), -1)
        << utf8(why);
    EXPECT_EQ(demos.unsaved().steps.size(), 2U);
    QFile earlier(path);
    ASSERT_TRUE(earlier.open(QIODevice::ReadOnly));
    EXPECT_EQ(earlier.readAll(), "{\"earlier\": true}\n");
    EXPECT_TRUE(demos.saveUnsaved(path, &why)) << utf8(why);
}

// Found in review: Esc while a replay makes a step's run left that run marked as made, so its
// steps stayed blank for the rest of the replay.
TEST_F(DemonstrationTest, AStoppedReplayRunIsMadeAgainWhenItsStepIsShownAgain)
{
    auto window = makeWindow();
    io::Demonstration demo = handMade();
    demo.runs[0].code = testsupport::loopingFunction("ddp");
    demo.steps.resize(1);
    const QString path = writeFile(QStringLiteral("loop.json"), io::demonstrationToJson(demo));
    QString why;
    ASSERT_TRUE(window->parts().demonstrations->replay(path, 0, &why)) << utf8(why);
    DemoPlayer &player = window->parts().demonstrations->player();
    ASSERT_TRUE(player.isWaiting());
    ASSERT_TRUE(waitForRunsInTheirLoops()) << "the step's run never reached its loop";
    window->stopRun();
    EXPECT_FALSE(player.isWaiting());
    EXPECT_EQ(player.shownStep(), 0) << "the step shows, without its run";
    player.goTo(0);
    EXPECT_TRUE(player.isWaiting()) << "and showing it again runs it again";
    window->stopRun();
}

// Found in review: going to another step while a run was being made put that step's run on
// screen, and the run being made then took its place under the step's cursor.
TEST_F(DemonstrationTest, StepsChosenWhileARunIsMadeShowTheirOwnRun)
{
    auto window = makeWindow();
    io::Demonstration demo = handMade();
    std::string mistake = demo.runs[0].code;
    const std::string sum =
        "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";
    mistake.replace(mistake.find(sum), sum.size(), "");
    demo.runs.push_back({mistake, "notebook"});
    demo.steps.resize(2);
    demo.steps[1].run = 1;
    const QString path = writeFile(QStringLiteral("two.json"), io::demonstrationToJson(demo));
    ASSERT_TRUE(replayAndWait(*window, path)); // run 0 made, step 0 on screen
    DemoPlayer &player = window->parts().demonstrations->player();
    QSignalSpy shown(&player, &DemoPlayer::stepShown);
    player.goTo(1); // run 1 starts
    ASSERT_TRUE(player.isWaiting());
    player.goTo(0); // back before it ends
    ASSERT_TRUE(shown.wait(kRunTimeoutMs));
    EXPECT_EQ(player.shownStep(), 0);
    ASSERT_TRUE(window->parts().session->trace());
    EXPECT_FALSE(window->parts().session->trace()->error)
        << "run 0's trace (the solution), not run 1's";
    EXPECT_EQ(window->parts().editor->text().toStdString(), demo.runs[0].code);
    ASSERT_TRUE(goToAndWait(*window, 1));
    ASSERT_TRUE(window->parts().session->trace()->error)
        << "run 1, the update before the allreduce";
}

// Found in review: End Replay left the demonstration's cost model chosen.
TEST_F(DemonstrationTest, EndingAReplayGivesBackTheCostModelChosenBefore)
{
    auto window = makeWindow();
    auto *gpt2 = window->findChild<QAction *>(QStringLiteral("cost:gpt2-small-8xa100"));
    ASSERT_NE(gpt2, nullptr);
    gpt2->trigger();
    const QString path =
        writeFile(QStringLiteral("hand.json"), io::demonstrationToJson(handMade()));
    ASSERT_TRUE(replayAndWait(*window, path));
    EXPECT_TRUE(window->findChild<QAction *>(QStringLiteral("cost:notebook"))->isChecked());
    window->parts().demonstrations->player().finish();
    EXPECT_TRUE(gpt2->isChecked());
}

// Found in review: closing the window (Ctrl+Q) threw a recording away without asking.
TEST_F(DemonstrationTest, ClosingTheWindowAsksBeforeARecordingIsLost)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    DemoActions &demos = *window->parts().demonstrations;
    demos.startRecording();
    window->showTab(Tab::Why);
    settle();
    answerNextMessageBox(QMessageBox::Cancel);
    window->close();
    EXPECT_TRUE(window->isVisible()) << "Cancel keeps the window";
    EXPECT_EQ(demos.unsaved().steps.size(), 2U) << "and the recording";
    answerNextMessageBox(QMessageBox::Discard);
    window->close();
    EXPECT_FALSE(window->isVisible());
}

// The teacher's demonstration of the DDP lesson shipped in resources/demonstrations/ddp.json
// (replayed to screenshots in docs/app.md): the common first try that updates before the allreduce,
// then the solution stepped through by time, with captions. The file is what the recorder makes
// of these actions; RANKSTEP_REFRESH_DEMOS=1 writes it again after a deliberate change.
TEST_F(DemonstrationTest, TheShippedDdpDemonstrationIsWhatTheRecorderMakesOfItsActions)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    DemoActions &demos = *window->parts().demonstrations;
    DemoRecorder &recorder = demos.recorder();
    demos.startRecording();
    recorder.setCaption(QStringLiteral(
        "Data parallel: four ranks, each with the whole model (2 layers) and its own batch."));
    const std::string solution = builtinLesson(QStringLiteral("ddp")).solution;
    const std::string allreduce =
        "        grad_weights[layer] = await model.allreduce(grad_weights[layer], layer)\n";
    const std::string update =
        "        weights[layer], opt_states[layer] = model.update(\n"
        "            layer, grad_weights[layer], weights[layer], "
        "opt_states[layer]\n"
        "        )\n";
    std::string mistake = solution;
    const auto at = mistake.find(allreduce + update);
    ASSERT_NE(at, std::string::npos);
    mistake.replace(at, allreduce.size() + update.size(), update + allreduce);
    window->showScriptCode(QString::fromStdString(mistake));
    ASSERT_TRUE(runAndWait(*window));
    settle();
    ASSERT_TRUE(window->parts().session->trace()->error);
    recorder.setCaption(QStringLiteral(
        "A common first try: update each layer, then allreduce. The update refuses: rank 0's "
        "gradient covers batch 0 only, and an update needs batches 0-3."));
    window->showScriptCode(QString::fromStdString(solution));
    ASSERT_TRUE(runAndWait(*window));
    settle();
    recorder.setCaption(QStringLiteral(
        "Allreduce first, then update: solved. Now step through it by time (PageDown)."));
    StepController &stepper = window->parts().session->stepper();
    stepper.setStepMode(StepController::StepMode::Time);
    stepper.home();
    settle();
    // A step each time every rank reaches the next boundary: 0, 1, 2, 3, 4, 4.3, 4.8, 5.1, 5.6.
    const char *captions[] = {
        "Time 0: each rank has loaded both layers' weights, the same model everywhere, and "
        "starts the forward on its own batch.",
        nullptr,
        "The loss and the backward of layer 1: each rank's gradient comes from its own batch "
        "only.",
        nullptr,
        "The allreduce of layer 0's gradient: every rank gets the sum over batches 0-3.",
        "Then the update of layer 0, the same on every rank.",
        nullptr,
        nullptr,
        "The end: the four ranks hold the same trained weights.",
    };
    for (const char *caption : captions) {
        stepper.next();
        settle();
        if (caption)
            recorder.setCaption(QString::fromUtf8(caption));
    }
    window->showTab(Tab::Why);
    settle();
    recorder.setCaption(QStringLiteral(
        "Why: each rank's memory holds the whole model; its time, the allreduce's wait."));
    demos.stopRecording();

    const std::string made = io::demonstrationToJson(demos.unsaved());
    const QString shipped =
        QStringLiteral(RANKSTEP_SOURCE_DIR) + QStringLiteral("/resources/demonstrations/ddp.json");
    if (qEnvironmentVariableIsSet("RANKSTEP_REFRESH_DEMOS")) {
        QFile out(shipped);
        ASSERT_TRUE(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(made.data(), qint64(made.size()));
    }
    QFile file(shipped);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << utf8(shipped);
    EXPECT_EQ(file.readAll().toStdString(), made);

    // It replays: every step shows, the mistake's run and the solution's each made once.
    QSignalSpy runs(window.get(), &MainWindow::runFinished);
    ASSERT_TRUE(replayAndWait(*window, shipped));
    const int count = window->parts().demonstrations->player().count();
    for (int k = 0; k < count; ++k)
        ASSERT_TRUE(goToAndWait(*window, k)) << k;
    EXPECT_EQ(runs.size(), 2);
}

} // namespace
} // namespace rankstep::gui::testing
