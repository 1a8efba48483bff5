// SPDX-License-Identifier: MIT
// The error dialog never hides what it explains: the line the error is on and every rank's state
// (it opened centred, over both).
#include "codeeditor.h"
#include "errordialog.h"
#include "guitestsupport.h"

#include <QTabWidget>

namespace rankstep::gui::testing {
namespace {

TEST(PlaceClear, TakesTheFirstPlaceThatHidesNothing)
{
    const QRect window(0, 0, 1280, 800);
    const QSize box(400, 150);
    // The bottom right is free: it goes there.
    EXPECT_EQ(placeClear(box, window, {QRect(0, 0, 600, 400)}),
              QPoint(1280 - 8 - 400, 800 - 8 - 150));
    // The bottom right is taken: the bottom left.
    EXPECT_EQ(placeClear(box, window, {QRect(700, 500, 580, 300)}), QPoint(8, 800 - 8 - 150));
    // Everything but a strip at the bottom taken: a bottom place, which hides the least.
    EXPECT_EQ(placeClear(box, window, {QRect(0, 0, 1280, 790)}).y(), 800 - 8 - 150);
}

class ErrorPlacementTest : public WindowTest
{};

TEST_F(ErrorPlacementTest, TheWalkThroughsRefusedUpdateLeavesItsLineAndTheStateInView)
{
    auto window = makeWindow();
    window->resize(1280, 800);
    ASSERT_TRUE(window->openLesson(QStringLiteral("walkthrough")));
    ASSERT_TRUE(runAndWait(*window));
    QMessageBox *box = visibleMessageBox(QStringLiteral("runErrorDialog"));
    ASSERT_NE(box, nullptr);
    const auto trace = window->parts().session->trace();
    ASSERT_TRUE(trace && trace->error);
    const QRect line = window->parts().editor->lineRectGlobal(trace->error->line);
    ASSERT_FALSE(line.isEmpty()) << "the error's line is scrolled into view";
    auto *tabs = window->findChild<QTabWidget *>(QStringLiteral("leftTabs"));
    ASSERT_NE(tabs, nullptr);
    const QRect state(tabs->mapToGlobal(QPoint(0, 0)), tabs->size());
    const QRect dialog = box->frameGeometry();
    EXPECT_FALSE(dialog.intersects(line)) << "the dialog hides line " << trace->error->line;
    EXPECT_FALSE(dialog.intersects(state)) << "the dialog hides the state of every rank";
}

} // namespace
} // namespace rankstep::gui::testing
