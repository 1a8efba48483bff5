// SPDX-License-Identifier: MIT
#include "tests/core/referencepuzzles.h"
#include "timelinegeometry.h"

#include <gtest/gtest.h>

#include <cmath>

using rankstep::core::Event;
using rankstep::core::OpKind;
using rankstep::core::SimTime;
using rankstep::core::Trace;
using namespace rankstep::gui;

namespace {

TimeAxis tenSteps()
{
    return TimeAxis{0.0, 10000.0, 80.0, 1000.0};
}

Event event(int rank, OpKind op, std::int64_t start, std::int64_t duration)
{
    Event e;
    e.rank = rank;
    e.op = op;
    e.start = SimTime::fromTicks(start);
    e.duration = SimTime::fromTicks(duration);
    return e;
}

// Rank 0: forward [0, 1), the loss at 1, backward [1, 2), idle, update [3, 3.5). Rank 1: nothing.
Trace smallTrace()
{
    Trace trace;
    trace.config.ranks = 2;
    trace.events = {event(0, OpKind::Forward, 0, 1000), event(0, OpKind::Loss, 1000, 0),
                    event(0, OpKind::Backward, 1000, 1000), event(0, OpKind::Update, 3000, 500)};
    return trace;
}

Trace referenceTrace(const std::string &name)
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles()) {
        if (puzzle.name == name) {
            return rankstep::testing::runProgram({puzzle.ranks, puzzle.layers, puzzle.batches, {}},
                                                 puzzle.program);
        }
    }
    return {};
}

} // namespace

TEST(TimelineGeometry, TimeAxisMapsTimeToPixelsAndBack)
{
    const TimeAxis axis = tenSteps();
    EXPECT_DOUBLE_EQ(axis.toX(SimTime::steps(0)), 80.0);
    EXPECT_DOUBLE_EQ(axis.toX(SimTime::fromTicks(2500)), 330.0);
    EXPECT_DOUBLE_EQ(axis.toX(SimTime::steps(10)), 1080.0);
    for (std::int64_t ticks = 0; ticks <= 10000; ticks += 130) {
        const SimTime t = SimTime::fromTicks(ticks);
        EXPECT_EQ(axis.timeAt(axis.toX(t)), t);
    }
    EXPECT_EQ(axis.timeAt(81.04), SimTime::fromTicks(10)); // 10.4 ticks round to 10
}

TEST(TimelineGeometry, ZoomKeepsTheTimeUnderThePointerFixed)
{
    const TimeAxis axis = tenSteps();
    for (double x : {80.0, 333.0, 700.5, 1080.0}) {
        const double before = axis.ticksAt(x);
        const TimeAxis in = zoomed(axis, 2.0, x, SimTime::steps(10));
        EXPECT_NEAR(in.span(), axis.span() / 2.0, 1e-9);
        EXPECT_NEAR(in.ticksAt(x), before, 1e-9) << "x " << x;
        const TimeAxis back = zoomed(in, 0.5, x, SimTime::steps(10));
        EXPECT_NEAR(back.from, axis.from, 1e-9);
        EXPECT_NEAR(back.to, axis.to, 1e-9);
    }
}

TEST(TimelineGeometry, ZoomStopsAtAHundredthOfAStepPerThousandPixels)
{
    const TimeAxis deepest = zoomed(tenSteps(), 1e9, 500.0, SimTime::steps(10));
    EXPECT_NEAR(deepest.span(), 10.0, 1e-9); // 0.01 step over the axis's 1000 pixels
    EXPECT_NEAR(deepest.ticksAt(500.0), tenSteps().ticksAt(500.0), 1e-9);
}

TEST(TimelineGeometry, ZoomOutStopsAtTheWholeRunWithItsMargin)
{
    const SimTime end = SimTime::steps(10);
    EXPECT_EQ(timeBounds(end), std::pair(-200.0, 10200.0));
    const TimeAxis whole = fitted(tenSteps(), end);
    EXPECT_DOUBLE_EQ(whole.from, -200.0);
    EXPECT_DOUBLE_EQ(whole.to, 10200.0);
    EXPECT_EQ(zoomed(tenSteps(), 1e-9, 300.0, end), whole);
    // An empty run still has a step to look at.
    EXPECT_EQ(timeBounds(SimTime()), std::pair(-20.0, 1020.0));
}

TEST(TimelineGeometry, PanMovesByPixelsAndStopsAtTheEndsOfTheRun)
{
    const SimTime end = SimTime::steps(10);
    const TimeAxis zoomedIn{2000.0, 4000.0, 80.0, 1000.0};
    const TimeAxis later = panned(zoomedIn, -100.0, end); // dragging left shows later times
    EXPECT_DOUBLE_EQ(later.from, 2200.0);
    EXPECT_DOUBLE_EQ(later.to, 4200.0);
    EXPECT_DOUBLE_EQ(panned(zoomedIn, 1e6, end).from, -200.0);
    EXPECT_DOUBLE_EQ(panned(zoomedIn, -1e6, end).to, 10200.0);
    EXPECT_DOUBLE_EQ(panned(zoomedIn, -1e6, end).span(), 2000.0);
}

TEST(TimelineGeometry, RowsSitBelowTheAxisBand)
{
    RowLayout layout;
    layout.rows = 4;
    EXPECT_DOUBLE_EQ(layout.rowTop(0), 28.0);
    EXPECT_DOUBLE_EQ(layout.rowTop(3), 28.0 + 3 * 32.0);
    EXPECT_DOUBLE_EQ(layout.height(), 28.0 + 4 * 32.0);
    for (int row = 0; row < 4; ++row) {
        EXPECT_EQ(layout.rowAt(layout.rowTop(row) + 16.0), row);
    }
    EXPECT_EQ(layout.rowAt(10.0), std::nullopt);
    EXPECT_EQ(layout.rowAt(layout.height() + 1.0), std::nullopt);
}

TEST(TimelineGeometry, RowsShrinkSoThatEveryRankFits)
{
    RowLayout layout;
    layout.rows = 16;
    EXPECT_DOUBLE_EQ(fitRows(layout, 1000.0, 32.0).rowHeight, 32.0);
    const RowLayout squeezed = fitRows(layout, 300.0, 32.0);
    EXPECT_DOUBLE_EQ(squeezed.rowHeight, 17.0); // floor((300 - 28) / 16)
    EXPECT_LE(squeezed.height(), 300.0);
    EXPECT_DOUBLE_EQ(fitRows(layout, 40.0, 32.0).rowHeight, 4.0);
}

TEST(TimelineGeometry, RowsBelowTheBottomOfTheViewAreNotInView)
{
    RowLayout layout;
    layout.rows = 16;
    EXPECT_EQ(rowsInView(layout, 1000.0), 16);
    EXPECT_EQ(rowsInView(layout, 28.0 + 2 * 32.0), 2);
    EXPECT_EQ(rowsInView(layout, 28.0 + 2 * 32.0 + 1.0), 3); // a pixel of the third shows
    EXPECT_EQ(rowsInView(layout, 20.0), 0);                  // only the axis band
}

// The timeline follows the stepping rank (TimelineView::onCursorChanged) as an editor its cursor:
// a row out of view comes in at the nearer edge; a row in view moves nothing.
TEST(TimelineGeometry, ARowOutOfViewScrollsInAtTheNearerEdge)
{
    RowLayout layout;
    layout.rows = 16;
    const double height = 28.0 + 4 * 32.0; // four rows show
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 2), 0.0);
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 11), 8 * 32.0); // row 11 at the bottom
    layout.scroll = 8 * 32.0;
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 9), 8 * 32.0); // in view: stays
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 3), 3 * 32.0); // row 3 at the top
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 15), 12 * 32.0);
    layout.scroll = 10.0; // row 0 shows only in part
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 0), 0.0);
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 16), 10.0); // no such row
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, 1000.0, 15), 0.0);  // every row fits
}

// Presenting with the quiz, the rows' band held three and a half rows: following rank 3 scrolled
// half a row, and rank 0's row showed half cut at the top. The rows scroll by whole rows.
TEST(TimelineGeometry, TheRowsScrollByWholeRowsSoTheTopRowShowsWhole)
{
    RowLayout layout;
    layout.rows = 4;
    layout.rowHeight = 28.0;
    const double height = layout.axisHeight + 3.5 * 28.0;
    EXPECT_DOUBLE_EQ(scrollShowingRow(layout, height, 3), 28.0) << "one whole row up, not 14 px";
    EXPECT_DOUBLE_EQ(maxScroll(layout, height), 28.0);
    EXPECT_DOUBLE_EQ(wholeRowScroll(layout, height, 10.0), 0.0);
    EXPECT_DOUBLE_EQ(wholeRowScroll(layout, height, 20.0), 28.0);
    EXPECT_DOUBLE_EQ(wholeRowScroll(layout, height, 500.0), 28.0);
    layout.rows = 16;
    for (int row = 0; row < 16; ++row) {
        const double scroll = scrollShowingRow(layout, height, row);
        EXPECT_DOUBLE_EQ(std::fmod(scroll, 28.0), 0.0) << row;
        EXPECT_GE(row * 28.0, scroll) << row;
        EXPECT_LE((row + 1) * 28.0, scroll + 3.5 * 28.0) << row << ": shows whole";
    }
}

TEST(TimelineGeometry, HitTestFindsTheBlockUnderThePoint)
{
    const Trace trace = smallTrace();
    RowLayout layout;
    layout.rows = 2;
    const TimeAxis axis = tenSteps(); // 10 ticks per pixel
    const double y = layout.rowTop(0) + 16.0;
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(500.0), y}), 0u);
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(1500.0), y}), 2u);
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(3200.0), y}), 3u);
    // Between the backward and the update there is nothing; nor on the idle rank or the axis.
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(2500.0), y}), std::nullopt);
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(500.0), layout.rowTop(1) + 16.0}),
              std::nullopt);
    EXPECT_EQ(hitTest(trace, layout, axis, {axis.toX(500.0), 5.0}), std::nullopt);
}

TEST(TimelineGeometry, TheZeroLengthLossCanBeHitAFewPixelsWide)
{
    const Trace trace = smallTrace();
    RowLayout layout;
    layout.rows = 2;
    const TimeAxis axis = tenSteps();
    const double y = layout.rowTop(0) + 16.0;
    const double x = axis.toX(1000.0);
    EXPECT_DOUBLE_EQ(eventRect(trace.events[1], layout, axis).width(), kMarkWidth);
    for (double dx : {-3.0, -1.0, 0.0, 2.0, 3.0}) {
        EXPECT_EQ(hitTest(trace, layout, axis, {x + dx, y}), 1u) << "dx " << dx;
    }
    EXPECT_EQ(hitTest(trace, layout, axis, {x - 5.0, y}), 0u);
    EXPECT_EQ(hitTest(trace, layout, axis, {x + 5.0, y}), 2u);
}

TEST(TimelineGeometry, EveryBlockOfTheDdpRunIsFoundAtItsCenter)
{
    const Trace trace = referenceTrace("ddp");
    ASSERT_FALSE(trace.events.empty());
    RowLayout layout;
    layout.rows = trace.config.ranks;
    const TimeAxis axis = fitted(TimeAxis{0.0, 1.0, 80.0, 1200.0}, trace.figures.endTime);
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const QPointF center = eventRect(trace.events[i], layout, axis).center();
        EXPECT_EQ(hitTest(trace, layout, axis, center), i) << "event " << i;
    }
}

// A real run's profile knows its sends and receives but not which meets which (link -1): no
// arrow, rather than one from a send to every receive.
TEST(TimelineGeometry, MessagesWithoutALinkGetNoArrow)
{
    Trace trace;
    trace.config.ranks = 2;
    Event send;
    send.op = OpKind::PassTo;
    Event receive = send;
    receive.op = OpKind::Receive;
    receive.rank = 1;
    trace.events.push_back(send);
    trace.events.push_back(receive);
    trace.events.push_back(receive);
    EXPECT_TRUE(messageLinks(trace).empty());
}

// A hand-made trace may name one link twice: its receives meet the first send, and a receive
// of a link no send names meets none.
TEST(TimelineGeometry, ReceivesMeetTheFirstSendOfTheirLink)
{
    Trace trace;
    trace.config.ranks = 3;
    Event send;
    send.op = OpKind::PassTo;
    send.link = 7;
    Event receive = send;
    receive.op = OpKind::Receive;
    receive.rank = 1;
    Event stray = receive;
    stray.link = 5;
    Event later = send;
    later.rank = 2;
    trace.events.push_back(receive); // 0: before any send, still its link's
    trace.events.push_back(send);    // 1
    trace.events.push_back(later);   // 2: the same link again
    trace.events.push_back(stray);   // 3: no send
    trace.events.push_back(receive); // 4
    const std::vector<std::pair<std::size_t, std::size_t>> expected = {{1, 0}, {1, 4}};
    EXPECT_EQ(messageLinks(trace), expected);
}

TEST(TimelineGeometry, MessageLinksPairEachPassToWithItsReceive)
{
    const Trace trace = referenceTrace("gpipe");
    const auto links = messageLinks(trace);
    std::size_t sends = 0;
    for (const Event &e : trace.events) {
        sends += e.op == OpKind::PassTo ? 1 : 0;
    }
    ASSERT_GT(sends, 0u);
    EXPECT_EQ(links.size(), sends);
    for (const auto &[sent, received] : links) {
        const Event &from = trace.events[sent];
        const Event &to = trace.events[received];
        EXPECT_EQ(from.op, OpKind::PassTo);
        EXPECT_EQ(to.op, OpKind::Receive);
        EXPECT_EQ(from.link, to.link);
        EXPECT_EQ(from.peer, to.rank);
        EXPECT_EQ(to.peer, from.rank);
        EXPECT_LE(from.end(), to.start);
    }
}

TEST(TimelineGeometry, TickStepsAreOneTwoOrFiveTimesAPowerOfTen)
{
    TimeAxis axis{0.0, 10000.0, 0.0, 1000.0};
    EXPECT_EQ(tickStep(axis, 90.0), SimTime::steps(1)); // 900 ticks wanted
    axis.to = 2000.0;
    EXPECT_EQ(tickStep(axis, 90.0), SimTime::fromTicks(200)); // 180 wanted
    axis.to = 5000.0;
    EXPECT_EQ(tickStep(axis, 90.0), SimTime::fromTicks(500)); // 450 wanted
    axis.to = 20.0;
    EXPECT_EQ(tickStep(axis, 90.0), SimTime::fromTicks(2)); // 1.8 wanted
    axis.to = 1.0;
    EXPECT_EQ(tickStep(axis, 90.0), SimTime::fromTicks(1)); // never finer than a tick
}

TEST(TimelineGeometry, TicksAreExactMultiplesFromTimeZero)
{
    const TimeAxis axis{-200.0, 1250.0, 0.0, 1000.0};
    const std::vector<SimTime> marks = ticks(axis, SimTime::fromTicks(200));
    ASSERT_EQ(marks.size(), 7u); // 0, 0.2, ..., 1.2: nothing before time zero
    EXPECT_EQ(marks.front(), SimTime());
    EXPECT_EQ(marks[1].toString(), "0.2");
    EXPECT_EQ(marks[3].toString(), "0.6");
    EXPECT_EQ(marks.back().toString(), "1.2");
}
