// SPDX-License-Identifier: MIT
// The bubble lesson's experiments in the window: after a run, the same code runs again at
// m = 1, 2, 4, 8 in the background, and a table and a chart set the measured idle share beside
// the formula (p - 1) / (m + p - 1).
#include "bubblechart.h"
#include "codeeditor.h"
#include "experimentsview.h"
#include "guitestsupport.h"

#include <gtest/gtest.h>

#include <QLineSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QValueAxis>

namespace rankstep::gui {
namespace {

class ExperimentsTabTest : public testing::WindowTest
{};

TEST_F(ExperimentsTabTest, TheBubbleLessonShowsMeasuredIdleShareBesideTheFormula)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("bubble")));
    ExperimentsView *view = window->parts().experimentsView;
    auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_TRUE(tabs->isTabEnabled(tabs->indexOf(view)));
    ASSERT_EQ(view->table()->rowCount(), 4);
    EXPECT_EQ(testing::utf8(view->table()->item(0, 2)->text()), "75.0%"); // 3 / (1 + 3)
    window->parts().editor->replaceAllUndoable(
        QString::fromStdString(testing::builtinLesson(QStringLiteral("bubble")).solution));
    QSignalSpy finished(view, &ExperimentsView::experimentsFinished);

    ASSERT_TRUE(runAndWait(*window));
    // The experiments run in child processes: the window is back before they are done.
    EXPECT_TRUE(view->isRunning());
    ASSERT_TRUE(finished.count() > 0 || finished.wait(60000));

    const QStringList measured = {QStringLiteral("71.1%"), QStringLiteral("57.9%"),
                                  QStringLiteral("42.6%"), QStringLiteral("28.7%")};
    for (int row = 0; row < 4; ++row)
        EXPECT_EQ(testing::utf8(view->table()->item(row, 1)->text()), testing::utf8(measured[row]))
            << "row " << row << " (the CLI's figures for the reference solution)";
    EXPECT_EQ(testing::utf8(view->table()->item(3, 0)->text()), "8");
    EXPECT_EQ(view->measuredSeries()->count(), 4);
    EXPECT_EQ(view->formulaSeries()->count(), 4);
    EXPECT_NEAR(view->measuredSeries()->at(0).y(), 71.1, 0.1);
}

// The zero-bubble lesson's experiments are not GPipe's: each m's measured bubble (a share of the
// ideal time, as the Why tab measures it) stands beside ZB-H1's formula, not GPipe's idle share.
TEST_F(ExperimentsTabTest, TheZeroBubbleLessonShowsItsOwnScheduleAndFormula)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("zero_bubble")));
    ExperimentsView *view = window->parts().experimentsView;
    ASSERT_EQ(view->table()->rowCount(), 4);
    window->parts().editor->replaceAllUndoable(
        QString::fromStdString(testing::builtinLesson(QStringLiteral("zero_bubble")).solution));
    QSignalSpy finished(view, &ExperimentsView::experimentsFinished);
    ASSERT_TRUE(runAndWait(*window));
    ASSERT_TRUE(finished.count() > 0 || finished.wait(60000));

    const QString formula = view->table()->horizontalHeaderItem(2)->text();
    EXPECT_TRUE(formula.contains(QStringLiteral("F+B"))) << testing::utf8(formula);
    EXPECT_TRUE(view->formulaSeries()->name().contains(QStringLiteral("F+B")));
    // The notebook's costs: F 1, B and W half a step each, so (p-1)(F+B-W)/(m(F+B+W)) = 3/(2m).
    for (int row = 0; row < 4; ++row) {
        const int m = view->table()->item(row, 0)->text().toInt();
        EXPECT_EQ(testing::utf8(view->table()->item(row, 2)->text()),
                  testing::utf8(QStringLiteral("%1%").arg(300.0 / (2 * m), 0, 'f', 1)))
            << "m = " << m;
    }
    // The measured bubble is above the formula (messages cost 0.2 steps) and falls with m.
    ASSERT_EQ(view->measuredSeries()->count(), 4);
    for (int i = 0; i < 4; ++i)
        EXPECT_GT(view->measuredSeries()->at(i).y(), view->formulaSeries()->at(i).y());
    EXPECT_GT(view->measuredSeries()->at(0).y(), view->measuredSeries()->at(3).y());
}

// The zero-bubble lesson's m runs to 16: its axis counts 0, 2, 4, ... 16, not ten ticks over 0-17
// that whole-number labels round to 0, 1, 3, 5.
TEST_F(ExperimentsTabTest, TheMAxisCountsInRoundSteps)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("zero_bubble")));
    ExperimentsView *view = window->parts().experimentsView;
    ASSERT_EQ(view->formulaSeries()->count(), 4);
    const QList<QAbstractAxis *> axes = view->formulaSeries()->attachedAxes();
    QValueAxis *m = nullptr;
    for (QAbstractAxis *axis : axes)
        if (axis->orientation() == Qt::Horizontal)
            m = qobject_cast<QValueAxis *>(axis);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->tickType(), QValueAxis::TicksDynamic);
    EXPECT_EQ(m->tickAnchor(), 0.0);
    EXPECT_EQ(m->tickInterval(), 2.0);
    EXPECT_EQ(roundTickStep(9), 1.0);
    EXPECT_EQ(roundTickStep(17), 2.0);
    EXPECT_EQ(roundTickStep(23), 5.0);
    EXPECT_EQ(roundTickStep(170), 20.0);
}

TEST_F(ExperimentsTabTest, ALessonWithoutExperimentsDisablesTheTab)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("ddp")));
    auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_FALSE(tabs->isTabEnabled(tabs->indexOf(window->parts().experimentsView)));
    EXPECT_EQ(window->parts().experimentsView->table()->rowCount(), 0);
}

} // namespace
} // namespace rankstep::gui
