// SPDX-License-Identifier: MIT
// Many ranks on screen: the timeline keeps readable rows and scrolls, and the rank picker's choice
// (the session's shown ranks) is what the timeline, the state view and the memory chart show.
#include "legendbar.h"
#include "memorychart.h"
#include "staterankpicker.h"
#include "statetestsupport.h"
#include "stateview.h"
#include "timelineview.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <QApplication>
#include <QChart>
#include <QLineEdit>
#include <QLineSeries>
#include <QScrollBar>
#include <QTest>
#include <QWheelEvent>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// One forward per rank, figures filled in as a finished run has them.
std::shared_ptr<const core::Trace> manyRanks(int ranks)
{
    auto trace = std::make_shared<core::Trace>();
    trace->config.ranks = ranks;
    for (int rank = 0; rank < ranks; ++rank) {
        core::Event event;
        event.rank = rank;
        event.layer = 0;
        event.batches.insert(0);
        event.duration = core::SimTime::fromTicks(1000);
        trace->events.push_back(event);
    }
    trace->figures.hasEvents = true;
    trace->figures.endTime = core::SimTime::fromTicks(1000);
    return trace;
}

// A timeline of `ranks` ranks in a 900x240 window: room for a few rows only.
struct ShortTimeline {
    explicit ShortTimeline(int ranks)
    {
        context.session.setTrace(manyRanks(ranks));
        view.resize(900, 240);
        view.show();
    }
    gui::testing::ViewContext context;
    gui::TimelineView view{context.session, context.appearance};
};

TEST(TimelineView, RowsKeepALabelsHeightAndScrollAtSixteenAndSixtyFourRanks)
{
    for (int ranks : {16, 64}) {
        ShortTimeline timeline(ranks);
        gui::TimelineView &view = timeline.view;
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
        const gui::RowLayout &layout = view.rowLayout();
        EXPECT_GE(layout.rowHeight, view.minRowHeight()) << ranks;
        EXPECT_GE(view.minRowHeight(), 16.0);
        ASSERT_TRUE(view.rowScrollBar()->isVisible()) << ranks;
        EXPECT_LT(view.naturalTimeSpan().right, view.rowScrollBar()->geometry().left());
        view.rowScrollBar()->setValue(view.rowScrollBar()->maximum());
        // Scrolled to the end the last row shows whole, the top one too: the rows scroll by
        // whole rows (the band below the last may stay empty).
        const gui::RowLayout &end = view.rowLayout();
        EXPECT_LE(end.rowTop(ranks), view.height() + 0.5) << ranks;
        EXPECT_GE(end.rowTop(end.rowAt(end.axisHeight + 1).value_or(0)), end.axisHeight - 0.5)
            << ranks;
        EXPECT_EQ(view.rowLayout().rowAt(end.rowTop(ranks - 1) + 1), ranks - 1) << ranks;
        // The wheel over the rank labels scrolls the rows back up (elsewhere it zooms).
        const QPointF labels(10, view.height() / 2.0);
        QWheelEvent wheel(labels, view.mapToGlobal(labels), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        EXPECT_LT(view.rowLayout().scroll, view.rowScrollBar()->maximum());
        EXPECT_EQ(view.rowScrollBar()->value(), int(std::lround(view.rowLayout().scroll)));
    }
}

// Stepping one rank's events brings its row into view, as the step bar names it; the end of the
// run (where a new run opens) leaves the rows at the top.
TEST(TimelineView, AStepOfOneRankBringsItsRowIntoView)
{
    ShortTimeline timeline(16);
    gui::TimelineView &view = timeline.view;
    gui::testing::ViewContext &context = timeline.context;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    ASSERT_TRUE(view.rowScrollBar()->isVisible());
    EXPECT_EQ(view.rowLayout().scroll, 0.0);
    const auto wholeInView = [&](int rank) {
        const gui::RowLayout &layout = view.rowLayout();
        const int row = *layout.rowOf(rank);
        return layout.rowTop(row) >= layout.axisHeight &&
               layout.rowTop(row) + layout.rowHeight <= view.height();
    };
    gui::StepController &step = context.session.stepper();
    step.setStepMode(gui::StepController::StepMode::Operation);
    for (int event : {12, 14, 3, 9}) {
        step.toEvent(event);
        const std::optional<std::size_t> last = step.cursor()->lastEvent();
        ASSERT_TRUE(last.has_value()) << event;
        EXPECT_TRUE(wholeInView(context.session.trace()->events[*last].rank)) << event;
        EXPECT_EQ(view.rowScrollBar()->value(), int(std::lround(view.rowLayout().scroll)));
    }
    EXPECT_GT(view.rowLayout().scroll, 0.0);
}

TEST(TimelineView, FewRanksNeedNoScrollBar)
{
    ShortTimeline timeline(4);
    gui::TimelineView &view = timeline.view;
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    EXPECT_FALSE(view.rowScrollBar()->isVisible());
    EXPECT_EQ(view.rowLayout().scroll, 0.0);
}

std::vector<QString> seriesNames(const gui::MemoryChart &chart)
{
    std::vector<QString> names;
    for (QAbstractSeries *series : chart.chart()->series())
        if (qobject_cast<QLineSeries *>(series) && series->name().startsWith(QLatin1String("rank")))
            names.push_back(series->name());
    return names;
}

TEST(ShownRanks, ThePickersChoiceIsWhatTimelineStateAndMemoryChartShow)
{
    gui::testing::ReplayedRun run("pipeline_fsdp");
    gui::testing::ViewContext context;
    gui::TimelineView timeline(context.session, context.appearance);
    gui::StateView state(context.session, context.appearance);
    gui::MemoryChart memory(context.session, context.appearance);
    gui::LegendBar legend(context.session, context.appearance);
    context.session.setTrace(run.trace());
    legend.resize(1200, legend.heightForWidth(1200));
    timeline.resize(900, 400);
    state.resize(900, 700);
    EXPECT_EQ(timeline.rowCount(), 16);
    EXPECT_EQ(state.visibleRanks().size(), 16U);
    EXPECT_EQ(seriesNames(memory).size(), 16U);

    gui::StateRankPicker *picker = legend.rankPicker();
    ASSERT_TRUE(picker->isVisibleTo(&legend));
    picker->field()->setText(QStringLiteral("2, 5"));
    QTest::keyClick(picker->field(), Qt::Key_Return);
    EXPECT_EQ(context.session.shownRanks(), (std::vector<int>{2, 5}));
    EXPECT_EQ(timeline.rowCount(), 2);
    EXPECT_EQ(timeline.rowLayout().rankOf(1), 5);
    EXPECT_EQ(state.visibleRanks(), (std::vector<int>{2, 5}));
    EXPECT_EQ(seriesNames(memory),
              (std::vector<QString>{QStringLiteral("rank 2"), QStringLiteral("rank 5")}));
    // The second row is rank 5's: hovering its block finds rank 5's event.
    const auto &events = run.trace()->events;
    const auto fifth = std::find_if(events.begin(), events.end(), [](const core::Event &e) {
        return e.rank == 5 && e.duration.ticks() > 0;
    });
    ASSERT_NE(fifth, events.end());
    const QRectF block = gui::eventRect(*fifth, timeline.rowLayout(), timeline.timeAxis());
    const auto hovered = timeline.eventAt(block.center());
    ASSERT_TRUE(hovered);
    EXPECT_EQ(events[*hovered].rank, 5);

    context.session.setShownRanks({});
    EXPECT_EQ(timeline.rowCount(), 16);
    EXPECT_EQ(seriesNames(memory).size(), 16U);
}

} // namespace
