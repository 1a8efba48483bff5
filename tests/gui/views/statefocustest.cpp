// SPDX-License-Identifier: MIT
// The state view at every panel size: each object labelled with its kind, a summary in panels
// too small for that, one rank shown large beside the others, and 64 ranks one at a time.
#include "statetestsupport.h"
#include "stateview.h"
#include "tests/core/referencepuzzles.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include <QComboBox>
#include <QDir>
#include <QPixmap>
#include <QRegularExpression>
#include <QTest>

namespace gui = rankstep::gui;

namespace {

// "w0", "opt5", "a1,3", "ga2", "gw4": an object's label, which the view lists when it cut it.
QStringList objectLabels(const QStringList &texts)
{
    static const QRegularExpression label(QStringLiteral("^(w|opt|a|ga|gw)[0-9][0-9,]*$"));
    QStringList labels;
    for (const QString &text : texts)
        if (label.match(text).hasMatch())
            labels << text;
    return labels;
}

struct ShownState {
    gui::testing::ViewContext context;
    gui::StateView view{context.session, context.appearance};

    ShownState(gui::testing::ReplayedRun &run, QSize size, double fraction)
    {
        context.session.setTrace(run.trace());
        view.setAnimated(false);
        view.resize(size);
        view.show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(&view));
        view.setState(run.stateAt(run.home().fromFraction(fraction)));
        view.grab(); // a paint: what it cut is known after one
    }
    double area(int rank) const
    {
        const QRectF panel = view.panelRectOf(rank);
        return panel.width() * panel.height();
    }
};

// FSDP's four ranks as a 1500x940 window shows them (panels about 240x195): every weight shard,
// optimizer shard and gradient keeps its label.
TEST(StateFocus, FourFsdpPanelsLabelEveryObject)
{
    gui::testing::ReplayedRun run("fsdp");
    ShownState shown(run, QSize(498, 434), 0.5);
    for (int rank = 0; rank < 4; ++rank)
        EXPECT_FALSE(shown.view.showsSummary(rank)) << rank;
    EXPECT_LT(shown.view.panelRectOf(0).height(), 220);
    EXPECT_EQ(objectLabels(shown.view.elidedTexts()), QStringList())
        << shown.view.elidedTexts().join(QStringLiteral(" | ")).toStdString();
}

// FSDP's pane at 1500x940 (498 wide, 396 to 434 high as the splitters share the window) has
// no room for the key's words on one line beside the focus box: they take two lines, beside it or
// below it, every kind named in words (beside the box its short names "w", "opt", "a", "ga",
// "gw" named none), and the panels still label every object.
TEST(StateFocus, AtFifteenHundredTheKeyNamesEveryKindInWords)
{
    gui::testing::ReplayedRun run("fsdp");
    for (const QSize size : {QSize(498, 434), QSize(498, 396)}) {
        ShownState shown(run, size, 0.5);
        const QStringList cut = shown.view.elidedTexts();
        for (const char *words : {"w weights", "opt optimizer states", "a activations",
                                  "ga activation gradients", "gw weight gradients"})
            EXPECT_FALSE(cut.contains(QString::fromUtf8(words)))
                << size.width() << "x" << size.height() << ": " << words
                << " cut: " << cut.join(QStringLiteral(" | ")).toStdString();
        EXPECT_EQ(objectLabels(cut), QStringList())
            << cut.join(QStringLiteral(" | ")).toStdString();
        for (int rank = 0; rank < 4; ++rank)
            EXPECT_FALSE(shown.view.showsSummary(rank)) << size.width() << ": rank " << rank;
    }
}

// Sixteen panels of a 1280x800 window are too small to label their objects: they show what each
// rank holds by kind, and a click shows that rank large beside the others.
TEST(StateFocus, SmallPanelsShowSummariesAndAClickShowsOneLarge)
{
    gui::testing::ReplayedRun run("pipeline_fsdp");
    ShownState shown(run, QSize(290, 290), 0.4);
    gui::StateView &view = shown.view;
    ASSERT_EQ(view.visibleRanks().size(), 16U);
    EXPECT_TRUE(view.showsSummary(5));
    EXPECT_EQ(view.focusedRank(), -1);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.panelRectOf(5).center().toPoint());
    EXPECT_TRUE(view.isFocusing());
    EXPECT_EQ(view.focusedRank(), 5);
    EXPECT_EQ(shown.context.session.selectedRank(), 5); // other views highlight it
    EXPECT_FALSE(view.showsSummary(5));
    EXPECT_GT(shown.area(5), 4 * shown.area(6));
    EXPECT_EQ(view.focusBox()->currentText().toStdString(), "Rank 5 large");
    // Selecting another rank elsewhere (the timeline) moves the focus with it.
    shown.context.session.setSelectedRank(9);
    EXPECT_EQ(view.focusedRank(), 9);
    EXPECT_GT(shown.area(9), 4 * shown.area(5));
    // A double click on the large panel shows every panel alike again.
    QTest::mouseDClick(&view, Qt::LeftButton, {}, view.panelRectOf(9).center().toPoint());
    EXPECT_FALSE(view.isFocusing());
    EXPECT_DOUBLE_EQ(shown.area(9), shown.area(5));
}

// Sixty-four ranks: the rank chosen in "Show large" is drawn whole, its objects labelled, beside
// summaries of the ranks the picker shows.
TEST(StateFocus, ASixtyFourRankRunIsReadOneRankAtATime)
{
    gui::testing::ReplayedRun run({64, 2, 64, {}}, rankstep::testing::fsdp);
    ShownState shown(run, QSize(640, 480), 0.5);
    gui::StateView &view = shown.view;
    QComboBox *box = view.focusBox();
    ASSERT_FALSE(box->isHidden());
    ASSERT_EQ(box->count(), 65);
    Q_EMIT box->activated(41); // "Rank 40 large"
    EXPECT_EQ(view.focusedRank(), 40);
    EXPECT_FALSE(view.showsSummary(40));
    EXPECT_TRUE(view.showsSummary(0));
    EXPECT_FALSE(view.panelRectOf(40).intersects(view.panelRectOf(0)));
    const QPixmap picture = view.grab();
    for (const QString &label : objectLabels(view.elidedTexts()))
        ADD_FAILURE() << "cut: " << label.toStdString();
    // The docs' picture, with RANKSTEP_SCREENSHOTS=folder.
    if (const char *folder = std::getenv("RANKSTEP_SCREENSHOTS")) {
        EXPECT_TRUE(picture.save(
            QDir(QString::fromLocal8Bit(folder)).filePath(QStringLiteral("state-focus-64.png"))));
    }
    Q_EMIT box->activated(0); // "All ranks"
    EXPECT_FALSE(view.isFocusing());
    EXPECT_TRUE(view.panelRectOf(40).isEmpty()); // not among the first 16
}

TEST(StateFocus, DescribesItselfAsTheStateAtTheCursorsTime)
{
    gui::testing::ReplayedRun run("ddp");
    ShownState shown(run, QSize(600, 400), 1.0);
    EXPECT_EQ(shown.view.describedName().toStdString(), "state");
    ASSERT_TRUE(shown.context.session.stepper().cursor());
    EXPECT_EQ(shown.view.shownTime(), shown.context.session.stepper().cursorTime());
    // Too narrow for the kinds' words: the key says "w", "opt", ... and lists what it cut.
    shown.view.resize(240, 300);
    shown.view.grab();
    EXPECT_TRUE(shown.view.elidedTexts().contains(QStringLiteral("w weights")))
        << shown.view.elidedTexts().join(QStringLiteral(" | ")).toStdString();
}

} // namespace
