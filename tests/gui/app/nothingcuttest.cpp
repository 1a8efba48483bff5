// SPDX-License-Identifier: MIT
// Nothing the window shows is cut at 1280x800: the tabs' titles, the snapshot the step bar
// stands at, the lessons' titles (elisions.h finds what is cut).
#include "elisions.h"
#include "guitestsupport.h"
#include "rosterview.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tabs.h"
#include "tabstrip.h"
#include "tests/gui/support/layoutwaits.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QHeaderView>
#include <QListView>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>

namespace rankstep::gui::testing {
namespace {

std::string listed(const QStringList &texts)
{
    return texts.join(QStringLiteral(" | ")).toStdString();
}

class NothingCut : public WindowTest
{
protected:
    std::unique_ptr<MainWindow> windowAt(QSize size)
    {
        auto window = makeWindow();
        window->resize(size);
        EXPECT_TRUE(settleLayouts(*window));
        return window;
    }
};

// The tab bar showed "Why it" and "Experi…" and scrolled the rest away at every size.
TEST_F(NothingCut, EveryEnabledTabsWholeTitleShowsAt1280x800)
{
    auto window = windowAt({1280, 800});
    ASSERT_TRUE(window->openLesson(QStringLiteral("bubble"))); // it has experiments
    ASSERT_TRUE(window->parts().tabs->isTabEnabled(int(Tab::Experiments)));
    for (const Tab shown : {Tab::Lesson, Tab::State, Tab::Class}) {
        window->showTab(shown);
        window->arrangeViews();
        ASSERT_TRUE(settleLayouts(*window));
        const QWidget &pane = *window->parts().tabsPane;
        EXPECT_TRUE(elidedTexts(pane).isEmpty()) << listed(elidedTexts(pane));
        auto *strip = pane.findChild<TabStrip *>();
        ASSERT_NE(strip, nullptr);
        for (const TabInfo &info : tabs()) {
            if (!window->parts().tabs->isTabEnabled(int(info.tab)))
                continue;
            const TabButton *button = strip->button(int(info.tab));
            ASSERT_NE(button, nullptr);
            EXPECT_TRUE(button->isVisible()) << info.name;
            EXPECT_EQ(button->text(), tabTitle(info.tab));
            EXPECT_GE(button->width(), button->sizeHint().width()) << info.name;
            EXPECT_TRUE(strip->rect().contains(button->geometry())) << info.name;
        }
    }
}

TEST_F(NothingCut, TheStripFollowsTheTabWidget)
{
    auto window = windowAt({1280, 800});
    QTabWidget &tabs = *window->parts().tabs;
    auto *strip = window->parts().tabsPane->findChild<TabStrip *>();
    ASSERT_NE(strip, nullptr);
    EXPECT_FALSE(tabs.tabBar()->isVisible()) << "the strip stands in for the bar";
    EXPECT_FALSE(strip->button(int(Tab::Hang))->isVisible()) << "no hang yet";
    tabs.setTabEnabled(int(Tab::Hang), true);
    EXPECT_TRUE(strip->button(int(Tab::Hang))->isVisibleTo(strip));
    strip->button(int(Tab::Why))->click();
    EXPECT_EQ(tabs.currentIndex(), int(Tab::Why));
    window->showTab(Tab::Compare);
    EXPECT_TRUE(strip->button(int(Tab::Compare))->isChecked());
    EXPECT_FALSE(strip->button(int(Tab::Why))->isChecked());
}

// The snapshot picker read "line 53: dra": it shows the snapshot's line whole.
TEST_F(NothingCut, TheSnapshotPickerShowsItsSnapshotWholeAt1280x800)
{
    auto window = windowAt({1280, 800});
    ASSERT_TRUE(window->openLesson(QStringLiteral("walkthrough")));
    window->showScriptCode(
        QString::fromStdString(builtinLesson(QStringLiteral("walkthrough")).solution));
    ASSERT_TRUE(runAndWait(*window));
    StepController &stepper = *window->parts().stepper;
    stepper.setStepMode(StepController::StepMode::Snapshot);
    stepper.home();
    for (int i = 0; i < 9 && !stepper.atEnd(); ++i)
        stepper.next();
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const QComboBox &box = *window->parts().stepBar->snapshotBox();
    ASSERT_TRUE(box.isVisible());
    ASSERT_GE(box.currentIndex(), 0);
    EXPECT_TRUE(elidedTexts(box).isEmpty()) << listed(elidedTexts(box));
    EXPECT_EQ(box.toolTip(), box.currentText()) << "the whole name, over the box";
}

// In German the lesson list is narrower: "Broadcast the initial …" stood over an empty row.
TEST_F(NothingCut, ALessonListNarrowedAfterItsLayoutWrapsItsTitlesWhole)
{
    auto window = windowAt({1280, 800});
    QSplitter &panes = *window->parts().panes;
    for (int width = 160; width <= 230; width += 5) {
        panes.setSizes({width, 1280 - width});
        ASSERT_TRUE(settleLayouts(*window));
        const QListView &list = *window->parts().lessonList;
        EXPECT_TRUE(elidedTexts(list).isEmpty()) << width << ": " << listed(elidedTexts(list));
    }
}

// A class as scripts/make-class.sh writes it: ten learners, eight lessons, the usual mistakes.
ClassRoster classOfTen()
{
    ClassRoster roster;
    roster.folder = QStringLiteral("/tmp/class");
    roster.lessons = {QStringLiteral("basic"), QStringLiteral("grad_accum"),
                      QStringLiteral("ddp"),   QStringLiteral("wsdp"),
                      QStringLiteral("fsdp"),  QStringLiteral("pipeline"),
                      QStringLiteral("gpipe"), QStringLiteral("pipeline_fsdp")};
    const QStringList mistakes = {QStringLiteral("not solved: update before allreduce"),
                                  QStringLiteral("not solved: a rank skipped a collective"),
                                  QStringLiteral("not solved: endless loop (time limit)"),
                                  QStringLiteral("not solved: syntax error")};
    const QStringList names = {QStringLiteral("ana"), QStringLiteral("ben"), QStringLiteral("cho"),
                               QStringLiteral("dev"), QStringLiteral("eli"), QStringLiteral("fay"),
                               QStringLiteral("gus"), QStringLiteral("hal"), QStringLiteral("ivy"),
                               QStringLiteral("jon")};
    for (int l = 0; l < 10; ++l) {
        ClassRoster::Learner learner{names[l], {}};
        for (int c = 0; c < roster.lessons.size(); ++c) {
            const QString status = c == 2 && l < 4    ? mistakes[l]
                                   : l == 7 && c >= 6 ? QStringLiteral("missing")
                                                      : QStringLiteral("solved");
            learner.cells.push_back({status, QStringLiteral("/tmp/class/x.py"), {}});
        }
        roster.learners.push_back(learner);
    }
    return roster;
}

TEST(FitColumnWidths, NarrowsTheWidestFirstAndNeverBelowTheLongestWord)
{
    EXPECT_EQ(fitColumnWidths({50, 60}, {20, 20}, 200), (std::vector<int>{50, 60}));
    EXPECT_EQ(fitColumnWidths({40, 200, 120}, {30, 80, 60}, 300), (std::vector<int>{40, 140, 120}));
    EXPECT_EQ(fitColumnWidths({100, 100}, {90, 90}, 100), (std::vector<int>{90, 90}))
        << "too narrow: each keeps its longest word, the table scrolls";
}

// The roster hid gpipe and pipeline_fsdp behind a scroll bar: at the width the Class tab has at
// 1280x800 every lesson's column shows, its name and mistakes whole.
TEST(RosterFit, EveryLessonsColumnShowsAtTheClassTabsWidth)
{
    RosterView view;
    view.resize(520, 560);
    view.show();
    view.setRoster(classOfTen());
    ASSERT_TRUE(settleLayouts(view));
    const QTableWidget &table = *view.table();
    const QHeaderView &header = *table.horizontalHeader();
    for (int c = 0; c < table.columnCount(); ++c)
        EXPECT_LE(header.sectionViewportPosition(c) + header.sectionSize(c),
                  table.viewport()->width())
            << c;
    EXPECT_TRUE(elidedTexts(view).isEmpty()) << listed(elidedTexts(view));
}

TEST_F(NothingCut, TheClassTabTakesTheWidthItsRosterNeeds)
{
    auto window = windowAt({1280, 800});
    window->showTab(Tab::Class);
    window->arrangeViews();
    ASSERT_TRUE(settleLayouts(*window));
    const QSplitter &work = *qobject_cast<QSplitter *>(window->parts().tabsPane->parentWidget());
    EXPECT_GE(window->parts().tabsPane->width(), work.width() / 2);
}

} // namespace
} // namespace rankstep::gui::testing
