// SPDX-License-Identifier: MIT
// Objects brought by communication fly from the senders' panels: the path (a pure function), who
// sent what, and the travels a receive and an allreduce start in the view.
#include "palette.h"
#include "statetestsupport.h"
#include "statetravel.h"
#include "stateview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QTest>
#include <QVariantAnimation>

#include <algorithm>
#include <memory>

namespace gui = rankstep::gui;
using rankstep::core::MapKind;
using rankstep::core::OpKind;

namespace {

std::unique_ptr<gui::StateView> shownView(const gui::testing::ReplayedRun &run)
{
    auto view = gui::testing::makeView<gui::StateView>();
    // The shared session's shown ranks are the first ones, whichever a test before chose (run
    // after StateView.ShowsTheChosenRanksOfALargeRun in one process, no travel reached rank 2).
    gui::testing::sharedContext().session.setTrace(run.trace());
    gui::testing::sharedContext().session.setShownRanks({});
    view->resize(1000, 800);
    view->show();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view.get()));
    return view;
}

// The first change of `rank` made right after its first `op` event.
std::size_t changeAfter(const rankstep::core::Trace &trace, int rank, OpKind op)
{
    std::size_t event = 0;
    while (trace.events[event].rank != rank || trace.events[event].op != op)
        ++event;
    std::size_t change = 0;
    while (trace.changes[change].rank != rank || trace.changes[change].eventCount <= event)
        ++change;
    return change;
}

TEST(TravelRect, StartsAtTheSenderPassesHalfwayAndLandsInTheSlot)
{
    const QRectF start(100, 50, 40, 10), end(500, 450, 80, 20);
    EXPECT_EQ(gui::travelRect(start, end, 0.0), start);
    EXPECT_EQ(gui::travelRect(start, end, 0.5), QRectF(300, 250, 60, 15));
    EXPECT_EQ(gui::travelRect(start, end, 1.0), end);
    EXPECT_EQ(gui::travelRect(start, end, 1.7), end); // clamped
    const QRectF early = gui::travelRect(start, end, 0.1);
    EXPECT_GT(early.left(), start.left());
    EXPECT_LT(early.left(), 100 + 0.1 * 400); // eased: slow off the mark
}

TEST(TravelColor, IsCommunicationGrayInTheAirAndItsOwnColorOnLanding)
{
    const QColor own(200, 40, 40);
    EXPECT_EQ(gui::travelColor(own, 0.0, gui::Palette::of(gui::Palette::Scheme::Standard)).rgb(),
              gui::Palette::of(gui::Palette::Scheme::Standard).message().rgb());
    EXPECT_EQ(gui::travelColor(own, 0.5, gui::Palette::of(gui::Palette::Scheme::Standard)).rgb(),
              gui::Palette::of(gui::Palette::Scheme::Standard).message().rgb());
    EXPECT_EQ(gui::travelColor(own, 1.0, gui::Palette::of(gui::Palette::Scheme::Standard)).rgb(),
              own.rgb());
}

TEST(SendersOf, AnAllreducedGradientCameFromEveryOtherRank)
{
    gui::testing::ReplayedRun run("ddp");
    const auto &trace = *run.trace();
    const auto &change = trace.changes[changeAfter(trace, 2, OpKind::AllReduce)];
    EXPECT_EQ(gui::sendersOf(trace, change), (std::vector<int>{0, 1, 3}));
    EXPECT_TRUE(gui::sendersOf(trace, trace.changes.front()).empty()); // a loaded weight
}

TEST(StateView, AReceiveStartsATravelFromTheSendersPanelToTheReceivers)
{
    gui::testing::ReplayedRun run("gpipe");
    const auto &trace = *run.trace();
    const std::size_t change = changeAfter(trace, 1, OpKind::Receive);
    const auto at = [&](std::size_t changes) {
        return run.stateAt(run.home().toPosition({trace.changes[change].eventCount, changes}));
    };
    auto view = shownView(run);
    view->setState(at(change));
    view->setState(at(change + 1)); // rank 1 stores what rank 0 passed to it
    ASSERT_TRUE(view->isAnimating());
    ASSERT_EQ(view->travels().size(), 1U);
    const gui::Travel &travel = view->travels().front();
    EXPECT_EQ(travel.from, 0);
    EXPECT_EQ(travel.to, 1);
    EXPECT_EQ(travel.map, MapKind::Activations);
    EXPECT_TRUE(view->panelRectOf(0).contains(travel.start));
    EXPECT_TRUE(view->panelRectOf(1).contains(travel.end));
    EXPECT_EQ(view->objectAt(travel.end.center())->rank, 1);
    EXPECT_TRUE(view->animatedRegion().contains(
        gui::travelRect(travel.start, travel.end, 0.5).center().toPoint()));
    EXPECT_FALSE(view->grab().isNull()); // a frame with the object in the air
}

TEST(StateView, AnAllreduceResultConvergesFromTheOtherMembersPanels)
{
    gui::testing::ReplayedRun run("ddp");
    const auto &trace = *run.trace();
    const std::size_t change = changeAfter(trace, 2, OpKind::AllReduce);
    const auto at = [&](std::size_t changes) {
        return run.stateAt(run.home().toPosition({trace.changes[change].eventCount, changes}));
    };
    auto view = shownView(run);
    view->setState(at(change));
    view->setState(at(change + 1));
    std::vector<int> from;
    for (const gui::Travel &travel : view->travels())
        if (travel.to == 2)
            from.push_back(travel.from);
    std::sort(from.begin(), from.end());
    EXPECT_EQ(from, (std::vector<int>{0, 1, 3}));
}

// With RANKSTEP_SCREENSHOTS=folder: an allreduce result on its way, as docs/screenshots show it.
TEST(StateViewScreenshots, WritesAFrameOfAnAllreduceInTheAir)
{
    const QString folder = qEnvironmentVariable("RANKSTEP_SCREENSHOTS");
    if (folder.isEmpty())
        GTEST_SKIP() << "set RANKSTEP_SCREENSHOTS=folder to write the picture";
    gui::testing::ReplayedRun run("ddp");
    const auto &trace = *run.trace();
    const std::size_t change = changeAfter(trace, 2, OpKind::AllReduce);
    auto view = shownView(run);
    view->setState(run.stateAt(run.home().toPosition({trace.changes[change].eventCount, change})));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !view->isAnimating(); }, 30000));
    view->setState(
        run.stateAt(run.home().toPosition({trace.changes[change].eventCount, change + 1})));
    ASSERT_TRUE(view->isAnimating());
    // Halfway, exactly: the frame does not depend on how fast the machine paints.
    auto *animation = view->findChild<QVariantAnimation *>();
    ASSERT_NE(animation, nullptr);
    animation->setCurrentTime(animation->duration() / 2);
    ASSERT_TRUE(view->isAnimating());
    EXPECT_TRUE(view->grab().save(QDir(folder).filePath(QStringLiteral("state-travel.png"))));
}

TEST(StateView, WithoutAnimationsAStepShowsAtOnce)
{
    gui::testing::ReplayedRun run("gpipe");
    auto view = shownView(run);
    view->setAnimated(false);
    view->setState(run.afterSlices(3));
    view->setState(run.afterSlices(6));
    EXPECT_FALSE(view->isAnimating());
    EXPECT_TRUE(view->travels().empty());
    EXPECT_EQ(view->lookOf(1, MapKind::Weights, 0).opacity, 1.0);
}

} // namespace
