// SPDX-License-Identifier: MIT
// One time axis for the timeline and the memory chart: the pure maths, and a window where a time
// is at the same x in both views and the two cursor lines are one.
#include "guitestsupport.h"

#include "appearance.h"
#include "codeeditor.h"
#include "mainwindow.h"
#include "memorychart.h"
#include "presentation.h"
#include "runsession.h"
#include "stepcontroller.h"
#include "timelinegeometry.h"
#include "timelineview.h"

#include "tests/core/referencepuzzles.h"
#include "tests/gui/support/eventwaits.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QImage>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace rankstep::gui::testing {
namespace {

using core::SimTime;

core::Event event(int rank, double start, double duration)
{
    core::Event e;
    e.rank = rank;
    e.start = SimTime::fromTicks(std::llround(start * 1000));
    e.duration = SimTime::fromTicks(std::llround(duration * 1000));
    return e;
}

TEST(TimeAlignment, TheSharedSpanStartsAtTheLargerLeftAndEndsAtTheSmallerRight)
{
    EXPECT_EQ(sharedTimeSpan({72, 988}, {60, 990}), (PixelSpan{72, 988}));
    EXPECT_EQ(sharedTimeSpan({50, 990}, {64, 960}), (PixelSpan{64, 960}));
}

TEST(TimeAlignment, TheCursorLineSitsOnThePixelBoundaryNearestItsTime)
{
    const TimeAxis axis{0.0, 1000.0, 100.0, 500.0}; // two ticks per pixel
    EXPECT_DOUBLE_EQ(cursorLineX(axis, SimTime::fromTicks(0)), 100.0);
    EXPECT_DOUBLE_EQ(cursorLineX(axis, SimTime::fromTicks(401)), 301.0); // 200.5 pixels in
    EXPECT_DOUBLE_EQ(cursorLineX(axis, SimTime::fromTicks(403)), 302.0);
}

TEST(TimeAlignment, BinarySearchFindsTheEventsInViewAndEachRanksGhostEdge)
{
    core::Trace trace;
    trace.config.ranks = 2;
    // Rank 0: [0,1) [1,2) [2,3) [3,4); rank 1 runs ahead in trace order: [0,2) [2,4).
    for (const auto &[rank, start, duration] : {std::tuple{0, 0.0, 1.0},
                                                {1, 0.0, 2.0},
                                                {0, 1.0, 1.0},
                                                {1, 2.0, 2.0},
                                                {0, 2.0, 1.0},
                                                {0, 3.0, 1.0}})
        trace.events.push_back(event(rank, start, duration));
    const auto ranks = indexByRank(trace);
    ASSERT_EQ(ranks.size(), 2U);
    // Steps 1.5 to 2.5 show rank 0's events 2 and 4 (positions 1 and 2 by start).
    EXPECT_EQ(eventsBetween(trace, ranks[0], 1500, 2500, 0),
              (std::pair<std::size_t, std::size_t>{1, 3}));
    EXPECT_EQ(eventsBetween(trace, ranks[0], 5000, 6000, 0).first,
              eventsBetween(trace, ranks[0], 5000, 6000, 0).second); // none
    // After four events: rank 0 has applied 0 and 2, so its ghosts start with event 4; rank 1 all.
    EXPECT_EQ(firstGhost(ranks[0], 4), std::optional<std::size_t>(4));
    EXPECT_EQ(lastApplied(ranks[0], 4), std::optional<std::size_t>(2));
    EXPECT_EQ(firstGhost(ranks[1], 4), std::nullopt);
    EXPECT_EQ(firstGhost(ranks[1], 1), std::optional<std::size_t>(1));
    EXPECT_EQ(lastApplied(ranks[1], 1), std::nullopt);
}

TEST(TimeAlignment, TheIndexedHitTestFindsWhatTheFullScanFinds)
{
    for (const std::string name : {"gpipe", "pipeline_fsdp", "ddp"}) {
        std::shared_ptr<const core::Trace> trace;
        for (const auto &puzzle : rankstep::testing::referencePuzzles())
            if (puzzle.name == name)
                trace = std::make_shared<const core::Trace>(rankstep::testing::runProgram(
                    {puzzle.ranks, puzzle.layers, puzzle.batches, {}}, puzzle.program));
        ASSERT_TRUE(trace);
        RowLayout layout;
        layout.rows = trace->config.ranks;
        const auto ranks = indexByRank(*trace);
        const TimeAxis axis = fitted(TimeAxis{0.0, 1.0, 80.0, 900.0}, trace->figures.endTime);
        int found = 0;
        for (int row = 0; row < layout.rows; ++row) {
            for (double x = 80.0; x < 980.0; x += 1.5) {
                const QPointF point(x, layout.rowTop(row) + layout.rowHeight / 2.0);
                const auto indexed = hitTest(*trace, layout, axis, point, &ranks);
                EXPECT_EQ(indexed, hitTest(*trace, layout, axis, point)) << name << " at " << x;
                found += indexed.has_value();
            }
        }
        EXPECT_GT(found, layout.rows * 100) << name;
    }
}

using TimeAlignmentWindow = WindowTest;

std::shared_ptr<const core::Trace> gpipe()
{
    for (const auto &puzzle : rankstep::testing::referencePuzzles())
        if (puzzle.name == "gpipe")
            return std::make_shared<const core::Trace>(rankstep::testing::runProgram(
                {puzzle.ranks, puzzle.layers, puzzle.batches, {}}, puzzle.program));
    return nullptr;
}

TEST_F(TimeAlignmentWindow, ATimeIsAtTheSameXInTheTimelineAndTheMemoryChart)
{
    auto window = makeWindow();
    const auto trace = gpipe();
    window->parts().session->setTrace(trace);
    window->parts().stepper->toEvent(int(trace->events.size() / 2));
    TimelineView &timeline = *window->parts().timeline;
    MemoryChart &chart = *window->parts().memoryChart;
    const QChartView &view = *chart.chartView();
    // How far apart a time is in the two views, at the worst of a few times.
    const auto misalignment = [&] {
        const double timelineX = timeline.mapTo(window.get(), QPoint(0, 0)).x();
        const double viewX = view.mapTo(window.get(), QPoint(0, 0)).x();
        double worst = 0.0;
        for (const double steps : {0.0, 5.0, 12.5, 30.0}) {
            const SimTime time = SimTime::fromTicks(std::llround(steps * 1000));
            const double inTimeline = timelineX + timeline.timeAxis().toX(time);
            // Where Qt Charts itself puts the time, not only our reading of its axis.
            const QPointF inChart = view.viewportTransform().map(
                chart.chart()->mapToScene(chart.chart()->mapToPosition(QPointF(steps, 0.0))));
            worst = std::max(worst, std::abs(inTimeline - (viewX + inChart.x())));
        }
        return worst;
    };
    // The aligner runs once both layouts settled, as many event rounds as that takes.
    EXPECT_TRUE(QTest::qWaitFor([&] { return misalignment() < 0.01; }, kSettleTimeoutMs))
        << misalignment() << " pixels apart";
    ASSERT_TRUE(deliverPostedEvents()); // and it stays so: nothing pending moves either view
    EXPECT_LT(misalignment(), 0.01);
    // The two cursor lines: the same blue columns in the grabbed window, in both views.
    const QImage image = window->grab().toImage();
    const auto blueColumns = [&](int y) {
        std::vector<int> columns;
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.blue() > 150 && pixel.red() < 90 && pixel.green() < 130)
                columns.push_back(x);
        }
        return columns;
    };
    // Rows above the blocks and above the memory lines: the axis band, the top of the plot.
    const int timelineY =
        timeline.mapTo(window.get(), QPoint(0, 0)).y() + int(timeline.rowLayout().axisHeight) - 3;
    const QRectF plot = chart.chart()->plotArea();
    const int chartY = view.mapTo(window.get(), QPoint(0, 0)).y() + int(plot.top()) + 2;
    const std::vector<int> inTimeline = blueColumns(timelineY);
    ASSERT_EQ(inTimeline.size(), 2U);
    EXPECT_EQ(blueColumns(chartY), inTimeline);
}

// The widget x (in the window) of a time in the chart, where Qt Charts puts it.
double chartX(MainWindow &window, MemoryChart &chart, SimTime time)
{
    const QChartView &view = *chart.chartView();
    const double steps = double(time.ticks()) / 1000.0;
    const QPointF inChart = view.viewportTransform().map(
        chart.chart()->mapToScene(chart.chart()->mapToPosition(QPointF(steps, 0.0))));
    return view.mapTo(&window, QPoint(0, 0)).x() + inChart.x();
}

// Fails where t = 0 or the end is more than a pixel apart in the two views, or where they
// use less of their width than a fitted run takes (a plot area left from an older size).
::testing::AssertionResult linedUp(MainWindow &window)
{
    TimelineView &timeline = *window.parts().timeline;
    MemoryChart &chart = *window.parts().memoryChart;
    const double timelineX = timeline.mapTo(&window, QPoint(0, 0)).x();
    const SimTime end = window.parts().session->endTime();
    for (const SimTime time : {SimTime(), end}) {
        const double inTimeline = timelineX + timeline.timeAxis().toX(time);
        const double inChart = chartX(window, chart, time);
        if (std::abs(inTimeline - inChart) > 1.0)
            return ::testing::AssertionFailure()
                   << "t " << time.toString() << " at " << inTimeline << " and " << inChart;
    }
    const double span = timeline.timeAxis().toX(end) - timeline.timeAxis().toX(SimTime());
    if (span < 0.85 * timeline.width())
        return ::testing::AssertionFailure()
               << "the run takes " << span << " of " << timeline.width() << " pixels";
    return ::testing::AssertionSuccess();
}

// The aligner runs once both layouts settled, which takes as many event rounds as the window's
// arrangement, the chart's relabelling and the aligner's own zero timer need: wait until the
// views line up, then check that nothing still pending moves them apart again.
::testing::AssertionResult startAndEndLineUp(MainWindow &window)
{
    if (!QTest::qWaitFor([&] { return bool(linedUp(window)); }, kSettleTimeoutMs))
        return linedUp(window);
    if (!deliverPostedEvents() || !letTimersFire(0))
        return ::testing::AssertionFailure() << "the events did not settle";
    return linedUp(window);
}

TEST_F(TimeAlignmentWindow, TheStartAndTheEndLineUpAtEverySizeAndZoom)
{
    auto window = makeWindow();
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->parts().editor->setCode(
        QString::fromStdString(builtinLesson(QStringLiteral("gpipe")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    window->parts().stepper->next(); // stepping: the state tab, the views' heights
    for (const auto &[width, height, zoom] : {std::tuple{1280, 800, 1.0},
                                              {1500, 940, 1.0},
                                              {1920, 1080, 1.0},
                                              {1280, 800, 1.5},
                                              {1500, 940, 1.5},
                                              {1920, 1080, 1.5}}) {
        window->parts().appearance->setZoom(zoom);
        window->resize(width, height);
        EXPECT_TRUE(startAndEndLineUp(*window)) << width << "x" << height << " zoom " << zoom;
    }
    // A zoom alone moves the timeline's labels and the chart's axis, without a resize.
    for (const double zoom : {1.0, 1.25, 2.0}) {
        window->parts().appearance->setZoom(zoom);
        EXPECT_TRUE(startAndEndLineUp(*window)) << "zoom " << zoom;
    }
    window->parts().appearance->setZoom(1.0);
    window->parts().presentation->setActive(true);
    EXPECT_TRUE(startAndEndLineUp(*window)) << "presenting";
}

TEST_F(TimeAlignmentWindow, APresentationStartedBeforeTheRunLinesUpToo)
{
    auto window = makeWindow();
    window->parts().presentation->setActive(true);
    window->parts().appearance->setZoom(1.5);
    window->resize(1920, 1080);
    ASSERT_TRUE(window->openLesson(QStringLiteral("gpipe")));
    window->parts().editor->setCode(
        QString::fromStdString(builtinLesson(QStringLiteral("gpipe")).solution));
    ASSERT_TRUE(runAndWait(*window));
    window->parts().stepper->home();
    for (int k = 0; k < 40; ++k)
        window->parts().stepper->next();
    EXPECT_TRUE(startAndEndLineUp(*window));
    // Drawn where it maps: rank 0's line begins at t 0 on the screen too, not where a layout
    // before the alignment put it.
    MemoryChart &chart = *window->parts().memoryChart;
    const QImage image = chart.chartView()->grab().toImage();
    const QColor color = window->parts().appearance->look().colors().rank(0);
    const QRectF plot = chart.chart()->plotArea();
    int leftmost = -1;
    for (int x = 0; x < image.width() && leftmost < 0; ++x)
        for (int y = int(plot.top()); y < int(plot.bottom()) && leftmost < 0; ++y)
            if (image.pixelColor(x, y) == color)
                leftmost = x;
    const double start = chartX(*window, chart, SimTime()) -
                         chart.chartView()->mapTo(window.get(), QPoint(0, 0)).x();
    EXPECT_NEAR(leftmost, start, 2.0);
}

} // namespace
} // namespace rankstep::gui::testing
