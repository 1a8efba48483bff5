// SPDX-License-Identifier: MIT
// The step bar and its keys on the DDP reference run, and stepping in the whole window after a
// real run: the timeline's ghosts, the editor's rank chips, clicks on the timeline and chart.
#include "codeeditor.h"
#include "describable.h"
#include "guitestsupport.h"
#include "memorychart.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "tests/gui/support/eventwaits.h"
#include "timelineview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLocale>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardItemModel>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>

namespace rankstep::gui {
namespace {

TracePtr ddpTrace()
{
    static const TracePtr trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, &rankstep::testing::ddp));
    return trace;
}

// A window with the bar over an editor, shown and active so window shortcuts fire.
class StepBarTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto *layout = new QVBoxLayout(&m_window);
        m_bar = new StepBar(m_context.session, m_context.appearance);
        m_editor = new CodeEditor(m_context.appearance);
        m_editor->setCode(QStringLiteral("x = 1\ny = 2\n"));
        layout->addWidget(m_bar);
        layout->addWidget(m_editor);
        m_context.session.setTrace(ddpTrace());
        m_window.show();
        m_window.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&m_window));
        m_bar->setFocus();
    }
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
    {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key(key), modifiers);
    }

    testing::ViewContext m_context;
    StepController &m_controller = m_context.session.stepper();
    QWidget m_window;
    StepBar *m_bar = nullptr;
    CodeEditor *m_editor = nullptr;
};

TEST_F(StepBarTest, KeysStepInTheCurrentMode)
{
    ASSERT_EQ(QApplication::focusWidget(), m_bar->playButton());
    m_controller.setStepMode(StepController::StepMode::Operation);
    press(Qt::Key_Home);
    EXPECT_TRUE(m_controller.atHome());
    press(Qt::Key_F10);
    EXPECT_EQ(m_controller.appliedEvents(), 1U);
    press(Qt::Key_PageDown);
    EXPECT_EQ(m_controller.appliedEvents(), 2U);
    press(Qt::Key_F10, Qt::ShiftModifier);
    EXPECT_EQ(m_controller.appliedEvents(), 1U);
    press(Qt::Key_PageUp);
    EXPECT_TRUE(m_controller.atHome());
    m_controller.setStepMode(StepController::StepMode::Time);
    EXPECT_EQ(m_bar->modeBox()->currentIndex(), 0);
    press(Qt::Key_F10);
    press(Qt::Key_PageDown);
    EXPECT_EQ(m_controller.cursorTime(), core::SimTime::steps(1));
    press(Qt::Key_End);
    EXPECT_TRUE(m_controller.atEnd());
}

TEST_F(StepBarTest, NavigationKeysStayWithTheEditorButF10Steps)
{
    m_editor->setFocus();
    ASSERT_EQ(QApplication::focusWidget(), m_editor);
    press(Qt::Key_Home);
    press(Qt::Key_PageUp);
    EXPECT_TRUE(m_controller.atEnd()) << "Home and PageUp moved the caret, not the run";
    press(Qt::Key_F10, Qt::ShiftModifier);
    EXPECT_EQ(m_controller.appliedEvents(), 36U);
    EXPECT_FALSE(m_controller.atEnd());
    press(Qt::Key_Space);
    EXPECT_FALSE(m_controller.isPlaying());
    EXPECT_TRUE(m_editor->text().contains(QLatin1Char(' ')));
}

TEST_F(StepBarTest, SpaceOnThePlayButtonPlaysAndPauses)
{
    m_controller.home();
    press(Qt::Key_Space);
    EXPECT_TRUE(m_controller.isPlaying());
    EXPECT_EQ(m_bar->playButton()->text(), QStringLiteral("Pause"));
    press(Qt::Key_Space);
    EXPECT_FALSE(m_controller.isPlaying());
    EXPECT_EQ(m_bar->playButton()->text(), QStringLiteral("Play"));
}

TEST_F(StepBarTest, ClickedPlayRunsToTheEnd)
{
    m_controller.setSpeed(50);
    m_controller.setStepMode(StepController::StepMode::Time);
    QSignalSpy playing(&m_controller, &StepController::playingChanged);
    QTest::mouseClick(m_bar->playButton(), Qt::LeftButton);
    EXPECT_TRUE(m_controller.atHome());
    ASSERT_TRUE(playing.wait(testing::kSettleTimeoutMs));
    EXPECT_TRUE(m_controller.atEnd());
    EXPECT_EQ(m_bar->scrubber()->value(), m_bar->scrubber()->maximum());
}

TEST_F(StepBarTest, TheScrubberMovesTheCursorAndFollowsIt)
{
    // The slider counts the current mode's steps, as the counter does.
    QSlider *scrubber = m_bar->scrubber();
    ASSERT_EQ(std::size_t(scrubber->maximum()), m_controller.stepCount());
    scrubber->setValue(0);
    EXPECT_TRUE(m_controller.atHome());
    scrubber->setValue(scrubber->maximum() / 2);
    EXPECT_EQ(m_controller.stepIndex(), std::size_t(scrubber->maximum() / 2));
    m_controller.setStepMode(StepController::StepMode::Operation);
    EXPECT_EQ(scrubber->maximum(), 36);
    m_controller.toEvent(3);
    EXPECT_EQ(std::size_t(scrubber->value()), m_controller.stepIndex());
}

TEST_F(StepBarTest, TheLabelSaysTheTimeEveryRankStandsAt)
{
    // By simulated time (the default) one time for every rank: 5 events of each rank and the
    // allreduce of layer 0 are done, the updates of layer 0 run from 4.3.
    m_controller.home();
    for (int k = 0; k < 6; ++k)
        m_controller.next();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "t = 4.3 · 24 of 36 operations done · 4 running");
    m_controller.end();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "t = 5.6 · 36 of 36 operations done · end of the run");
}

TEST_F(StepBarTest, ByOperationTheLabelCountsOperationsAndNamesTheRankThatStarts)
{
    m_controller.setStepMode(StepController::StepMode::Operation);
    m_controller.home();
    m_controller.next();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "operation 1 of 36 · t = 0 · rank 0 starts · 1 running");
    // In the order of simulated start: the four forwards of layer 0, then rank 0's of layer 1.
    for (int k = 0; k < 4; ++k)
        m_controller.next();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "operation 5 of 36 · t = 1 · rank 0 starts · 1 running");
    m_controller.end();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "operation 36 of 36 · t = 5.6 · end of the run");
}

TEST_F(StepBarTest, BySchedulerTurnTheLabelSaysEachRankStandsAtItsOwnTime)
{
    const int turn = m_bar->modeBox()->findData(int(StepController::StepMode::Slice));
    ASSERT_GE(turn, 0);
    EXPECT_EQ(m_bar->modeBox()->itemText(turn), QStringLiteral("by scheduler turn"));
    m_controller.setStepMode(StepController::StepMode::Slice);
    m_controller.home();
    m_controller.next();
    EXPECT_EQ(testing::utf8(m_bar->positionText()),
              "turn 1 of 10 · rank 0 at t = 4 · each rank at its own time");
}

TEST_F(StepBarTest, OffersTheSnapshotModeAndListsEveryDrawByItsLine)
{
    const int mode = m_bar->modeBox()->findData(int(StepController::StepMode::Snapshot));
    ASSERT_GE(mode, 0);
    EXPECT_EQ(m_bar->modeBox()->itemText(mode), QStringLiteral("by snapshot (draw)"));
    EXPECT_TRUE(m_bar->snapshotBox()->isHidden()) << "a run without draws has no snapshot list";
    auto trace = std::make_shared<core::Trace>(*ddpTrace());
    const replay::Position first = replay::StopPoints(*trace).position(1);
    trace->marks = {core::Mark{0, 7, first.events, first.changes, "draw"},
                    core::Mark{2, 9, first.events, first.changes, "draw_group"}};
    m_context.session.setTrace(trace);
    EXPECT_EQ(m_bar->modeBox()->currentIndex(), mode);
    QComboBox *list = m_bar->snapshotBox();
    EXPECT_FALSE(list->isHidden());
    ASSERT_EQ(list->count(), 2);
    EXPECT_EQ(list->itemText(0), QStringLiteral("rank 0, line 7: draw(...)"));
    EXPECT_EQ(list->itemText(1), QStringLiteral("rank 2, line 9: draw_group(...)"));
    EXPECT_EQ(list->currentIndex(), -1) << "the run is shown from its end, at no snapshot";
    press(Qt::Key_Home);
    press(Qt::Key_F10);
    press(Qt::Key_F10);
    EXPECT_EQ(m_controller.snapshot(), 1U);
    EXPECT_EQ(list->currentIndex(), 1);
    list->activated(0);
    EXPECT_EQ(m_controller.snapshot(), 0U);
    EXPECT_EQ(list->currentIndex(), 0);
}

// At the end of a run whose step bar said "snapshot 2 of 2" the box was blank: it names the last
// snapshot passed, between snapshots too, and the placeholder before the first.
TEST_F(StepBarTest, TheSnapshotBoxNamesTheLastSnapshotPassed)
{
    auto trace = std::make_shared<core::Trace>(*ddpTrace());
    const replay::StopPoints stops(*trace);
    const replay::Position first = stops.position(1), second = stops.position(stops.last());
    trace->marks = {core::Mark{0, 7, first.events, first.changes, "draw"},
                    core::Mark{2, 9, second.events, second.changes, "draw_group"}};
    m_context.session.setTrace(trace);
    QComboBox *list = m_bar->snapshotBox();
    const auto shown = [list] {
        return list->property(kShownTextProperty).toString();
    };
    m_controller.setStepMode(StepController::StepMode::Snapshot);
    press(Qt::Key_Home);
    EXPECT_EQ(shown(), QString()) << "before the first snapshot: the placeholder";
    press(Qt::Key_F10);
    EXPECT_EQ(shown(), QStringLiteral("rank 0, line 7"));
    // Between the snapshots, by operation: the first is the last passed.
    m_controller.setStepMode(StepController::StepMode::Operation);
    press(Qt::Key_F10);
    ASSERT_FALSE(m_controller.snapshot());
    EXPECT_EQ(list->currentIndex(), -1);
    EXPECT_EQ(shown(), QStringLiteral("after rank 0, line 7"));
    m_controller.setStepMode(StepController::StepMode::Snapshot);
    press(Qt::Key_End);
    ASSERT_TRUE(m_controller.atEnd());
    EXPECT_TRUE(m_bar->positionText().startsWith(QStringLiteral("snapshot 2 of 2")))
        << m_bar->positionText().toStdString();
    EXPECT_EQ(shown(), QStringLiteral("after rank 2, line 9"));
    EXPECT_TRUE(list->toolTip().contains(list->itemText(1))) << list->toolTip().toStdString();
}

// Stepping by snapshot in a run without draw() calls said "snapshot 0 of 0" and went nowhere: the
// mode is greyed out with why, the run steps by time and the label says there are no snapshots;
// the learner's choice comes back with a run that has some.
TEST_F(StepBarTest, ARunWithoutDrawsStepsByTimeAndSaysItHasNoSnapshots)
{
    const int mode = m_bar->modeBox()->findData(int(StepController::StepMode::Snapshot));
    const QStandardItem *item =
        static_cast<QStandardItemModel *>(m_bar->modeBox()->model())->item(mode);
    ASSERT_NE(item, nullptr);
    EXPECT_FALSE(item->isEnabled()) << "the ddp run calls no draw()";
    EXPECT_EQ(item->toolTip(),
              QStringLiteral("This run has no snapshots: the code calls draw() to make them"));

    auto drawn = std::make_shared<core::Trace>(*ddpTrace());
    const replay::Position first = replay::StopPoints(*drawn).position(1);
    drawn->marks = {core::Mark{0, 7, first.events, first.changes, "draw"}};
    m_context.session.setTrace(drawn);
    EXPECT_TRUE(item->isEnabled());
    EXPECT_TRUE(item->toolTip().isEmpty());
    m_controller.setStepMode(StepController::StepMode::Snapshot); // the learner's choice

    m_context.session.setTrace(ddpTrace());
    EXPECT_EQ(m_controller.stepMode(), StepController::StepMode::Time);
    EXPECT_EQ(m_bar->modeBox()->currentIndex(),
              m_bar->modeBox()->findData(int(StepController::StepMode::Time)));
    m_controller.home();
    press(Qt::Key_F10);
    EXPECT_GT(m_controller.appliedEvents(), 0U) << "a step goes somewhere";
    const QString position = m_bar->positionText();
    EXPECT_FALSE(position.contains(QStringLiteral("snapshot 0 of 0"))) << testing::utf8(position);
    EXPECT_TRUE(position.contains(QStringLiteral(" · no snapshots: the code calls no draw()")))
        << testing::utf8(position);
    EXPECT_TRUE(m_bar->modeBox()->toolTip().contains(QStringLiteral("no snapshots")));

    m_context.session.setTrace(drawn);
    EXPECT_EQ(m_controller.stepMode(), StepController::StepMode::Snapshot);
    EXPECT_FALSE(m_bar->positionText().contains(QStringLiteral("no snapshots")));
}

TEST_F(StepBarTest, TheModeBoxSetsTheStepMode)
{
    EXPECT_EQ(m_bar->modeBox()->currentIndex(), 0) << "stepping by simulated time comes first";
    Q_EMIT m_bar->modeBox()->activated(2);
    EXPECT_EQ(m_controller.stepMode(), StepController::StepMode::Slice);
    m_controller.home();
    press(Qt::Key_F10);
    EXPECT_EQ(m_controller.appliedEvents(), 5U);
}

using StepWindowTest = testing::WindowTest;

TEST_F(StepWindowTest, ARunCanBeSteppedThroughInTheWindow)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    window->parts().editor->setCode(
        QString::fromStdString(testing::builtinLesson(QStringLiteral("ddp")).solution));
    ASSERT_TRUE(runAndWait(*window));
    StepController *step = window->parts().stepper;
    TimelineView *timeline = window->parts().timeline;
    ASSERT_TRUE(step->cursor() && step->atEnd());
    step->setStepMode(StepController::StepMode::Operation);
    EXPECT_FALSE(timeline->ghostAfter());
    EXPECT_EQ(timeline->cursorTime(), core::SimTime::fromTicks(5600));
    EXPECT_GT(window->parts().editor->selectedRankLine(), 0);

    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    window->parts().stepBar->setFocus();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Home);
    EXPECT_EQ(timeline->ghostAfter(), 0U);
    EXPECT_EQ(window->parts().editor->selectedRankLine(), 0)
        << "no rank has a line before it starts";
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_F10);
    EXPECT_EQ(timeline->ghostAfter(), 1U);
    const int line = step->trace()->events[0].line;
    EXPECT_EQ(window->parts().editor->selectedRankLine(), line);
    EXPECT_EQ(testing::utf8(window->parts().editor->rankMarginText(line)), "  0 ");

    Q_EMIT timeline->eventClicked(19); // its operation step: every rank at its start
    EXPECT_EQ(step->cursor()->lastEvent(), 19U);
    EXPECT_EQ(timeline->cursorTime(), step->trace()->events[19].start);
    Q_EMIT window->parts().memoryChart->timeClicked(core::SimTime::fromTicks(4800));
    EXPECT_EQ(timeline->cursorTime(), core::SimTime::fromTicks(4800));
    EXPECT_EQ(step->cursorTime(), core::SimTime::fromTicks(4800));
}

TEST_F(StepWindowTest, AHungRunShowsEachRankAtTheCallItWaitsIn)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("hang")));
    ASSERT_TRUE(runAndWait(*window));
    const TracePtr trace = window->parts().stepper->trace();
    ASSERT_TRUE(trace && trace->diagnosis);
    EXPECT_TRUE(window->parts().stepper->atEnd());
    for (const core::RankWait &wait : trace->diagnosis->ranks) {
        if (wait.finished)
            continue;
        // The margin shows many ranks compactly ("0-2"); its tooltip names every one.
        const QString tip = window->parts().editor->rankMarginToolTip(wait.line);
        EXPECT_FALSE(window->parts().editor->rankMarginText(wait.line).trimmed().isEmpty());
        EXPECT_TRUE(tip.section(QLatin1Char(' '), 1)
                        .split(QStringLiteral(", "))
                        .contains(QString::number(wait.rank)))
            << "rank " << wait.rank << " is not shown at line " << wait.line << ": "
            << tip.toStdString();
    }
    if (QMessageBox *box = testing::visibleMessageBox())
        box->close();
}

// Rank 0 stops at an error after rank 1's message, and rank 1 waits for its answer for ever: no
// rank waits in a collective, so the run has no hang's diagnosis. Rank 1's marker stood on its
// pass_to, not on the receive it waits in, as a rank waiting in a collective's would.
TEST_F(StepWindowTest, ARankLeftWaitingInAReceiveByAnErrorStandsAtTheReceive)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("pass_along")));
    const QString code = QStringLiteral(
        "async def pass_along(model):\n"
        "    weights, opt_states, activations, grad_activations, grad_weights = model.storage()\n"
        "    activations[0] = model.get_activation(range(model.BATCHES))\n"
        "    if model.rank == 0:\n"
        "        activations[1] = await model.receive(1)\n"
        "        del activations[2]  # fails\n"
        "        await model.pass_to(1, activations[1])\n"
        "    else:\n"
        "        await model.pass_to(0, activations[0])  # sends\n"
        "        activations[1] = await model.receive(0)  # waits\n"
        "    return model\n");
    const auto lineOf = [&code](const char *comment) {
        return int(code.left(code.indexOf(QLatin1String(comment))).count(QLatin1Char('\n'))) + 1;
    };
    window->showScriptCode(code);
    ASSERT_TRUE(runAndWait(*window));
    const TracePtr trace = window->parts().stepper->trace();
    ASSERT_TRUE(trace && trace->error);
    ASSERT_FALSE(trace->diagnosis);
    ASSERT_EQ(trace->error->line, lineOf("# fails"));
    EXPECT_TRUE(window->parts().stepper->atEnd());
    CodeEditor *editor = window->parts().editor;
    EXPECT_EQ(editor->rankMarginText(lineOf("# waits")).trimmed(), QStringLiteral("1"));
    EXPECT_TRUE(editor->rankMarginText(lineOf("# sends")).trimmed().isEmpty());
    EXPECT_EQ(editor->rankMarginText(lineOf("# fails")).trimmed(), QStringLiteral("0"));
    if (QMessageBox *box = testing::visibleMessageBox())
        box->close();
}

// Seen in German: every figure of a run is written with a point ("t = 5.4"), the speed with the
// locale's comma ("4,0 Schritte/s"); and Play was offered for a run of no operations.
TEST_F(StepBarTest, TheSpeedWritesItsPointAndARunWithoutOperationsHasNothingToPlay)
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    StepBar german(m_context.session, m_context.appearance);
    QLocale::setDefault(before);
    auto *speed = german.findChild<QDoubleSpinBox *>();
    ASSERT_NE(speed, nullptr);
    EXPECT_TRUE(speed->text().startsWith(QStringLiteral("4.0"))) << speed->text().toStdString();

    EXPECT_TRUE(m_bar->playButton()->isEnabled());
    auto empty = std::make_shared<core::Trace>();
    empty->status = core::RunStatus::Ok;
    m_context.session.setTrace(empty);
    EXPECT_FALSE(m_bar->playButton()->isEnabled());
}

// At 1280x800 (or in German) the position was cut mid-word: it now drops whole " · " parts and
// keeps the whole in its tooltip, and shows it all again once there is room.
TEST_F(StepBarTest, ThePositionDropsWholePartsWhenNarrow)
{
    m_controller.setStepMode(StepController::StepMode::Operation);
    m_controller.home();
    for (int k = 0; k < 12; ++k)
        m_controller.next();
    const QString full = m_bar->positionText();
    ASSERT_GE(full.count(QStringLiteral(" · ")), 2) << testing::utf8(full);
    QLabel *label = m_bar->positionLabel();
    const auto fits = [label] {
        return label->fontMetrics().horizontalAdvance(label->text()) <=
               label->contentsRect().width();
    };
    m_window.resize(640, m_window.height());
    // The label shortens once the new width reached it, in as many event rounds as that takes.
    EXPECT_TRUE(QTest::qWaitFor([&] { return label->text() != full; }, testing::kSettleTimeoutMs));
    EXPECT_TRUE(fits()) << testing::utf8(label->text());
    EXPECT_TRUE(full.startsWith(label->text())) << testing::utf8(label->text());
    EXPECT_LT(label->text().size(), full.size());
    EXPECT_EQ(label->toolTip(), full);
    m_window.resize(1600, m_window.height());
    EXPECT_TRUE(QTest::qWaitFor([&] { return label->text() == full; }, testing::kSettleTimeoutMs));
    EXPECT_EQ(label->text(), full);
    EXPECT_TRUE(label->toolTip().isEmpty());
}

// At 1280x800 a 16,384-rank run's position, "t = 1.872 · 11264 of 18038784 operations done ·
// 1024 running", lost its last part: where the whole does not fit, the shorter words ("11264/
// 18038784 done") come before a part is dropped, the whole in the tooltip, and nothing is cut.
TEST_F(StepBarTest, ThePositionTakesShorterWordsBeforeItDropsAPart)
{
    m_controller.home();
    for (int k = 0; k < 6; ++k)
        m_controller.next();
    const QString full = m_bar->positionText();
    const QString shorter = m_bar->positionText(true);
    ASSERT_TRUE(full.endsWith(QStringLiteral(" · 4 running"))) << testing::utf8(full);
    ASSERT_TRUE(shorter.endsWith(QStringLiteral(" · 4 running"))) << testing::utf8(shorter);
    QLabel *label = m_bar->positionLabel();
    const QFontMetrics metrics = label->fontMetrics();
    const int room = metrics.horizontalAdvance(shorter) + 2 * label->margin() + 2;
    ASSERT_LT(room, metrics.horizontalAdvance(full));
    label->setFixedWidth(room);
    EXPECT_TRUE(QTest::qWaitFor([&] { return label->text() != full; }, testing::kSettleTimeoutMs));
    EXPECT_EQ(label->text(), shorter);
    EXPECT_EQ(label->toolTip(), full);
    EXPECT_TRUE(m_bar->elidedTexts().isEmpty()) << testing::utf8(m_bar->elidedTexts().join(u'|'));
}

} // namespace
} // namespace rankstep::gui
