// SPDX-License-Identifier: MIT
// The rank overview: a run's ranks folded by their layout, opened by a click, and a rank chosen
// there followed by every view.
#include "memorychart.h"
#include "rankoverview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QTest>

#include <algorithm>
#include <cmath>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// `ranks` ranks laid out as tensor 2 x pipeline 4: each rank computes one step, stage by stage as a
// pipeline's forwards do, then all-reduces for a step; figures filled in as a finished run has.
std::shared_ptr<const core::Trace> pipelined(int ranks)
{
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = ranks;
    trace->config.layout = {.tensor = 2, .pipeline = 4};
    const core::RankLayout layout(ranks, trace->config.layout);
    for (int rank = 0; rank < ranks; ++rank) {
        const int stage = layout.coords(rank).pipeline;
        core::Event forward;
        forward.rank = rank;
        forward.layer = stage;
        forward.batches.insert(0);
        forward.start = core::SimTime::steps(stage);
        forward.memory = 1000 * rank; // the stage's peak on its highest rank
        forward.duration = core::SimTime::steps(1);
        trace->events.push_back(forward);
        core::Event reduce = forward;
        reduce.op = core::OpKind::AllReduce;
        reduce.start = core::SimTime::steps(4);
        trace->events.push_back(reduce);
    }
    trace->figures.hasEvents = true;
    trace->figures.endTime = core::SimTime::steps(5);
    return trace;
}

struct Overview {
    explicit Overview(int ranks)
    {
        context.session.setTrace(pipelined(ranks));
        view.resize(900, 600);
        view.show();
    }
    gui::testing::ViewContext context;
    gui::RankOverview view{context.session, context.appearance};
};

QPoint middleOf(const QRectF &rect)
{
    return rect.center().toPoint();
}

} // namespace

TEST(RankOverview, StagesOpenOnAClickIntoReplicasAndRanks)
{
    Overview overview(64); // tensor 2 x pipeline 4 x data 8
    gui::RankOverview &view = overview.view;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_EQ(view.rows().size(), 4U);
    EXPECT_EQ(view.rowName(view.rows()[2]), QStringLiteral("stage 2"));
    QTest::mouseClick(&view, Qt::LeftButton, {}, middleOf(view.rowRect(2)));
    ASSERT_EQ(view.rows().size(), 4U + 8U);
    EXPECT_TRUE(view.rows()[2].open);
    EXPECT_EQ(view.rows()[3].kind, gui::RowKind::Replica);
    QTest::mouseClick(&view, Qt::LeftButton, {}, middleOf(view.rowRect(3)));
    ASSERT_EQ(view.rows().size(), 4U + 8U + 2U);
    EXPECT_EQ(view.rows()[4].kind, gui::RowKind::Rank);
    // A click on the open stage folds it again, its replicas with it.
    QTest::mouseClick(&view, Qt::LeftButton, {}, middleOf(view.rowRect(2)));
    EXPECT_EQ(view.rows().size(), 4U);
}

TEST(RankOverview, AStagesRowShowsWhenItsRanksComputedAndCommunicated)
{
    Overview overview(64);
    gui::RankOverview &view = overview.view;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    // Stage 1 computes in the run's second fifth and all-reduces in its last.
    const QRectF row = view.rowRect(1);
    const QPointF computing(row.left() + row.width() * 0.3, row.center().y());
    const QPointF idle(row.left() + row.width() * 0.7, row.center().y());
    const QPointF communicating(row.left() + row.width() * 0.9, row.center().y());
    EXPECT_TRUE(view.toolTipAt(computing).contains(QStringLiteral("computing 100 %")))
        << view.toolTipAt(computing).toStdString();
    EXPECT_TRUE(view.toolTipAt(idle).contains(QStringLiteral("idle 100 %")));
    EXPECT_TRUE(view.toolTipAt(communicating).contains(QStringLiteral("communicating 100 %")));
    EXPECT_TRUE(view.toolTipAt(computing).contains(QStringLiteral("16 ranks")));
    const QImage shot = view.grab().toImage();
    const QColor busy = shot.pixelColor(computing.toPoint());
    const QColor none = shot.pixelColor(idle.toPoint());
    const QColor comm = shot.pixelColor(communicating.toPoint());
    EXPECT_NE(busy, none);
    EXPECT_NE(comm, none);
    EXPECT_NE(busy, comm);
}

TEST(RankOverview, ARankClickedIsSelectedAndShownWithItsGroupsAtTheTimeClicked)
{
    Overview overview(64);
    gui::RankOverview &view = overview.view;
    gui::RunSession &session = overview.context.session;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.toggleRow(1); // stage 1
    view.toggleRow(2); // its first replica: ranks 2 and 3
    ASSERT_EQ(view.rows()[4].kind, gui::RowKind::Rank);
    const int rank = view.rows()[4].ranks.front();
    EXPECT_EQ(rank, 3);
    const QRectF row = view.rowRect(4);
    QTest::mouseClick(&view, Qt::LeftButton, {},
                      QPointF(row.left() + row.width() * 0.3, row.center().y()).toPoint());
    EXPECT_EQ(session.selectedRank(), rank);
    const core::RankLayout layout(64, session.trace()->config.layout);
    EXPECT_EQ(session.shownRanks(), gui::ranksAround(layout, rank, gui::kOverviewShownRanks));
    EXPECT_TRUE(std::binary_search(session.shownRanks().begin(), session.shownRanks().end(), 2));
}

TEST(RankOverview, AWideRunStartsTheOtherViewsOnRankZeroAndItsGroups)
{
    Overview overview(512); // more than a row per rank fits
    const core::RankLayout layout(512, overview.context.session.trace()->config.layout);
    EXPECT_EQ(overview.context.session.shownRanks(),
              gui::ranksAround(layout, 0, gui::kOverviewShownRanks));
    Overview narrow(64);
    EXPECT_TRUE(narrow.context.session.shownRanks().empty());
}

TEST(RankOverview, ItsTitleCallsOneRankOneRankAndNotDataParallel)
{
    for (const int ranks : {1, 4}) {
        auto trace = std::make_shared<core::Trace>();
        trace->config.ranks = ranks; // no layout: every rank a data-parallel replica
        for (int rank = 0; rank < ranks; ++rank) {
            core::Event forward;
            forward.rank = rank;
            forward.batches.insert(rank);
            forward.duration = core::SimTime::steps(1);
            trace->events.push_back(forward);
        }
        trace->figures.hasEvents = true;
        trace->figures.endTime = core::SimTime::steps(1);
        gui::testing::ViewContext context;
        const gui::RankOverview view(context.session, context.appearance);
        context.session.setTrace(trace);
        EXPECT_EQ(view.title().toStdString(), ranks == 1 ? "1 rank" : "4 ranks, data parallel");
    }
}

TEST(RankOverview, TheKeyboardOpensGroupsAndChoosesARank)
{
    Overview overview(64);
    gui::RankOverview &view = overview.view;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    view.setFocus();
    EXPECT_EQ(view.focusRow(), 0);
    QTest::keyClick(&view, Qt::Key_Down);
    QTest::keyClick(&view, Qt::Key_Right); // stage 1 opens
    ASSERT_EQ(view.rows().size(), 4U + 8U);
    QTest::keyClick(&view, Qt::Key_Down);
    QTest::keyClick(&view, Qt::Key_Return); // its first replica: ranks 2 and 3
    ASSERT_EQ(view.rows().size(), 4U + 8U + 2U);
    QTest::keyClick(&view, Qt::Key_Down);
    QTest::keyClick(&view, Qt::Key_Down);
    QTest::keyClick(&view, Qt::Key_Space);
    EXPECT_EQ(overview.context.session.selectedRank(), 3);
    QTest::keyClick(&view, Qt::Key_Up);
    QTest::keyClick(&view, Qt::Key_Up);
    QTest::keyClick(&view, Qt::Key_Left); // the replica folds
    EXPECT_EQ(view.rows().size(), 4U + 8U);
}

TEST(MemoryChart, AWideRunShowsTheChosenRanksStageAsABandNamingItsPeakRank)
{
    gui::testing::ViewContext context;
    gui::MemoryChart chart(context.session, context.appearance);
    gui::RankOverview overview(context.session, context.appearance);
    chart.resize(900, 300);
    chart.show();
    context.session.setTrace(pipelined(512)); // tensor 2 x pipeline 4 x data 64
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    EXPECT_TRUE(chart.bandName().startsWith(QStringLiteral("stage 0: 128 ranks")))
        << chart.bandName().toStdString();
    overview.chooseRank(3, std::nullopt); // tensor 1, stage 1, replica 0
    // Stage 1's highest rank, 1 + 2 * (1 + 4 * 63), holds the most.
    EXPECT_TRUE(chart.bandName().startsWith(QStringLiteral("stage 1: 128 ranks")))
        << chart.bandName().toStdString();
    EXPECT_TRUE(chart.bandName().endsWith(QStringLiteral("on rank 507")))
        << chart.bandName().toStdString();
    context.session.setTrace(pipelined(64));
    EXPECT_TRUE(chart.bandName().isEmpty());
}
