// SPDX-License-Identifier: MIT
// A scripted picture (rankstep --screenshot) is taken as the window is laid out after the last
// change, not as it was before: layout requests still waiting in the event queue are applied
// first. Opening the 4,096- and 16,384-rank runs, the step bar's slider came out 50 px shorter in
// some pictures (the position kept the width of "end of the run") and the Why tab's time split
// was squeezed to its title, depending on how busy the event loop was.
#include "scripting.h"
#include "stepbar.h"
#include "stepcontroller.h"
#include "tests/core/referencepuzzles.h"
#include "tests/gui/support/layoutwaits.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QTest>
#include <QVBoxLayout>

#include <algorithm>

namespace rankstep::gui {
namespace {

// The width a layout with room gives the position: its text's, or its least.
int wantedWidth(const QLabel &label)
{
    return std::max(label.sizeHint().width(), label.minimumWidth());
}

TracePtr ddpTrace()
{
    static const TracePtr trace = std::make_shared<const core::Trace>(
        rankstep::testing::runProgram(core::RunConfig{4, 2, 4, {}}, &rankstep::testing::ddp));
    return trace;
}

// The step bar at the run's end (its longest position), then stepped from the start as --step
// does, and grabbed before the event loop turns: its slider as wide as when it stood there all
// along.
TEST(CaptureLayout, TheStepBarsSliderHasTheSameWidthWhereverTheCursorCameFrom)
{
    testing::ViewContext context;
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *bar = new StepBar(context.session, context.appearance);
    layout->addWidget(bar);
    layout->addStretch(1);
    window.resize(1100, 120);
    context.session.setTrace(ddpTrace());
    StepController &stepper = context.session.stepper();
    stepper.setStepMode(StepController::StepMode::Time);
    const auto stepFromHome = [&stepper] {
        stepper.home();
        for (int k = 0; k < 2; ++k)
            stepper.next();
    };
    stepFromHome();
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(testing::settleLayouts(window));
    const int settled = bar->scrubber()->width();
    ASSERT_EQ(bar->positionLabel()->width(), wantedWidth(*bar->positionLabel()));

    stepper.end(); // the longest text: "... · end of the run"
    ASSERT_TRUE(testing::settleLayouts(window));
    ASSERT_LT(bar->scrubber()->width(), settled) << "the end's text is no longer";
    stepFromHome();
    grabWithDialogs(&window);
    EXPECT_EQ(bar->scrubber()->width(), settled);
    EXPECT_EQ(bar->positionLabel()->width(), wantedWidth(*bar->positionLabel()));
}

// A page in a scroll area that got its text while its pane showed it: the page takes the height
// its text needs (the Why tab's time split) in the picture, scrolling, instead of squeezing it.
TEST(CaptureLayout, APageInAScrollAreaTakesTheHeightOfItsNewText)
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *area = new QScrollArea;
    area->setWidgetResizable(true);
    auto *page = new QWidget;
    auto *column = new QVBoxLayout(page);
    auto *split = new QLabel(QStringLiteral("title"));
    split->setTextFormat(Qt::RichText);
    column->addWidget(split);
    column->addWidget(new QLabel(QStringLiteral("below")));
    area->setWidget(page);
    layout->addWidget(area);
    window.resize(400, 120);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    ASSERT_TRUE(testing::settleLayouts(window));

    QString table = QStringLiteral("<b>title</b><table>");
    for (int row = 0; row < 8; ++row)
        table += QStringLiteral("<tr><td>part %1</td><td>%1.0</td></tr>").arg(row);
    split->setText(table + QStringLiteral("</table>"));
    grabWithDialogs(&window);
    EXPECT_GE(split->height(), split->minimumSizeHint().height());
    EXPECT_GT(page->height(), area->viewport()->height()) << "the page scrolls";
}

} // namespace
} // namespace rankstep::gui
