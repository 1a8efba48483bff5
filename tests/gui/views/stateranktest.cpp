// SPDX-License-Identifier: MIT
// Which ranks the state view shows of a run with more than 16: the text the learner types, and
// the picker above the panels driving the view while stepping.
#include "runsession.h"
#include "staterankpicker.h"
#include "stateranks.h"
#include "statetestsupport.h"
#include "stateview.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QLineEdit>
#include <QMenu>
#include <QTest>
#include <QToolButton>

#include <memory>

namespace gui = rankstep::gui;

namespace {

std::vector<int> parsed(const char *text, int count = 64, int most = 16)
{
    return gui::parseRankList(QString::fromUtf8(text), count, most).ranks;
}

std::string errorOf(const char *text, int count = 64, int most = 16)
{
    return gui::parseRankList(QString::fromUtf8(text), count, most).error.toStdString();
}

TEST(RankList, ReadsRanksAndRangesInAnyOrderWithSpaces)
{
    EXPECT_EQ(parsed("0-3, 8, 12-15"), (std::vector<int>{0, 1, 2, 3, 8, 12, 13, 14, 15}));
    EXPECT_EQ(parsed(" 9 ,2-3,, 2 "), (std::vector<int>{2, 3, 9}));
    EXPECT_EQ(parsed("63"), (std::vector<int>{63}));
    EXPECT_EQ(parsed("4 - 6"), (std::vector<int>{4, 5, 6}));
}

TEST(RankList, SaysWhatIsWrongWithTextItCannotRead)
{
    EXPECT_EQ(errorOf("0-3, x"), "'x' is not a rank or a range like 12-15");
    EXPECT_EQ(errorOf("1-2-3"), "'1-2-3' is not a rank or a range like 12-15");
    EXPECT_EQ(errorOf("-3"), "'-3' is not a rank or a range like 12-15");
    EXPECT_EQ(errorOf("7-4"), "the range 7-4 runs backward: write 4-7");
    EXPECT_EQ(errorOf("60-64"), "there is no rank 64: this run has ranks 0-63");
    EXPECT_EQ(errorOf(" , "), "name the ranks to show, like 0-3, 8, 12-15");
    EXPECT_EQ(errorOf("0-16"), "17 ranks named: at most 16 fit");
    EXPECT_EQ(errorOf("99999999999999999999"),
              "'99999999999999999999' is not a rank or a range like 12-15");
    EXPECT_TRUE(parsed("0-16").empty());
}

TEST(RankList, WritesTheShortestTextThatReadsBack)
{
    const std::vector<int> ranks{0, 1, 2, 3, 8, 12, 13, 14, 15};
    EXPECT_EQ(gui::rankListText(ranks).toStdString(), "0-3, 8, 12-15");
    EXPECT_EQ(parsed(gui::rankListText(ranks).toUtf8().constData()), ranks);
    EXPECT_EQ(gui::rankListText({5}).toStdString(), "5");
    EXPECT_EQ(gui::rankListText({}).toStdString(), "");
}

TEST(StateRankPicker, TypedRanksAreShownAndKeptWhileStepping)
{
    gui::testing::ReplayedRun run({24, 2, 24, {}}, rankstep::testing::fsdp);
    gui::testing::ViewContext context;
    gui::StateView view(context.session, context.appearance);
    context.session.setTrace(run.trace());
    view.resize(1200, 800);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.setAnimated(false);
    auto cursor = run.home();
    view.setState(run.stateAt(cursor));
    ASSERT_GT(view.state().ranks.size(), 16U);
    gui::StateRankPicker *picker = view.rankPicker();
    ASSERT_FALSE(picker->isHidden());
    EXPECT_EQ(picker->button()->text().toStdString(), "Ranks 0-15 ▾");
    EXPECT_GE(view.panelRectOf(0).top(), picker->geometry().bottom()); // panels below it
    picker->field()->setText(QStringLiteral("0-3, 20"));
    QTest::keyClick(picker->field(), Qt::Key_Return);
    EXPECT_EQ(view.visibleRanks(), (std::vector<int>{0, 1, 2, 3, 20}));
    EXPECT_EQ(picker->button()->text().toStdString(), "Ranks 0-3, 20 ▾");
    for (int i = 0; i < 30; ++i)
        cursor = cursor.nextOperation();
    view.setState(run.stateAt(cursor));
    EXPECT_EQ(view.visibleRanks(), (std::vector<int>{0, 1, 2, 3, 20}));
    picker->field()->setText(QStringLiteral("0-20"));
    QTest::keyClick(picker->field(), Qt::Key_Return);
    EXPECT_EQ(picker->message().toStdString(), "21 ranks named: at most 16 fit");
    EXPECT_EQ(view.visibleRanks(), (std::vector<int>{0, 1, 2, 3, 20})); // unchanged
}

// A run too wide to copy every rank's maps on each step: the view holds the maps of the ranks it
// shows (and the selected one), each equal to the stepper's, and those of ranks shown later or
// selected at once, while every rank's clock and memory stay its own.
TEST(StateViewOfAWideRun, HoldsTheShownRanksStateAsTheStepperHasIt)
{
    const auto trace = std::make_shared<const rankstep::core::Trace>(
        rankstep::testing::runProgram({288, 1, 288, {}}, rankstep::testing::fsdp));
    gui::testing::ViewContext context;
    gui::StateView view(context.session, context.appearance);
    view.setAnimated(false);
    context.session.setTrace(trace);
    gui::StepController &step = context.session.stepper();
    step.home();
    for (int i = 0; i < 5; ++i)
        step.next();
    const auto holdsAsTheStepper = [&](const std::vector<int> &ranks) {
        const rankstep::replay::RunState &kept = step.state();
        EXPECT_EQ(view.state().ranks.size(), kept.ranks.size());
        for (std::size_t r = 0; r < kept.ranks.size(); ++r) {
            EXPECT_EQ(view.state().ranks[r].clock, kept.ranks[r].clock) << r;
            EXPECT_EQ(view.state().ranks[r].memory, kept.ranks[r].memory) << r;
        }
        for (int rank : ranks)
            EXPECT_TRUE(view.state().ranks[std::size_t(rank)] == kept.ranks[std::size_t(rank)])
                << "rank " << rank;
    };
    holdsAsTheStepper(view.visibleRanks());
    ASSERT_FALSE(step.state().ranks[280].maps[0].empty() && step.state().ranks[280].maps[1].empty())
        << "rank 280 holds something to compare";
    context.session.setShownRanks({5, 280});
    holdsAsTheStepper({5, 280});
    step.next();
    holdsAsTheStepper({5, 280});
    context.session.setSelectedRank(200);
    holdsAsTheStepper({5, 200, 280});
}

TEST(StateRankPicker, TickingARankInTheListAddsItsPanel)
{
    gui::StateRankPicker picker;
    std::vector<int> chosen;
    QObject::connect(&picker, &gui::StateRankPicker::ranksChosen,
                     [&chosen](const std::vector<int> &ranks) { chosen = ranks; });
    picker.setRanks(32, 2, {0});
    QMenu *menu = picker.button()->menu();
    Q_EMIT menu->aboutToShow(); // what opening it does
    ASSERT_EQ(menu->actions().size(), 32);
    EXPECT_TRUE(menu->actions()[0]->isChecked());
    menu->actions()[9]->setChecked(true);
    EXPECT_EQ(chosen, (std::vector<int>{0, 9}));
    menu->actions()[12]->setChecked(true); // a third: too many
    EXPECT_FALSE(menu->actions()[12]->isChecked());
    EXPECT_EQ(picker.message().toStdString(), "at most 2 ranks fit: untick one first");
    EXPECT_EQ(picker.shown(), (std::vector<int>{0, 9}));
}

// In the state tab at 1280x800 the button was narrower than "Ranks 0-8, 16, 24, ..., 64 ▾" and
// showed "6, 24, 32, 40,", cut at both ends, then "Ranks 0-8, 16, 24, 3…", cut inside a rank that
// it named as 3: it now says whole ranks and ranges from the start and "…", the whole in its
// tooltip, and the whole again once it has the room.
TEST(StateRankPicker, ANarrowButtonSaysItsRanksFromTheStartCutBetweenRanks)
{
    QWidget window;
    auto *picker = new gui::StateRankPicker(&window);
    picker->setRanks(4096, 16, {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 32, 40, 48, 56, 64});
    QToolButton *button = picker->button();
    const QString whole = button->text();
    ASSERT_TRUE(whole.endsWith(QStringLiteral("64 ▾"))) << whole.toStdString();
    const auto drawn = [button] {
        const QVariant shown = button->property("shownText");
        return shown.isValid() ? shown.toString() : button->text();
    };
    picker->setGeometry(0, 0, 200, 40);
    window.resize(picker->size());
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_LT(button->width(), button->sizeHint().width());
    const QString shown = drawn();
    const QString cut = QStringLiteral(", … ▾");
    EXPECT_TRUE(shown.startsWith(QStringLiteral("Ranks 0"))) << shown.toStdString();
    ASSERT_TRUE(shown.endsWith(cut)) << shown.toStdString();
    EXPECT_TRUE(whole.startsWith(shown.chopped(cut.size()) + QStringLiteral(", ")))
        << shown.toStdString();
    EXPECT_EQ(button->toolTip(), whole);
    picker->setGeometry(0, 0, 900, 40);
    EXPECT_TRUE(QTest::qWaitFor([&] { return drawn() == whole; }));
}

} // namespace
