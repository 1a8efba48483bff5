// SPDX-License-Identifier: MIT
// The memory chart's time axis never makes more tick items than a few per label, whatever range
// it is given: a long loop and an absurd duration show at once.
#include "boundedtimeaxis.h"
#include "longtraces.h"
#include "memorychart.h"
#include "viewcontext.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QTest>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gui = rankstep::gui;

namespace {

constexpr int kMaxIntervals = 10;

// The most intervals the axis held at any change of its range or interval: what Qt Charts lays
// out one tick item each for at that moment.
struct IntervalWatch {
    explicit IntervalWatch(QValueAxis &axis) : m_axis(axis)
    {
        // maxChanged comes before Qt Charts lays the ticks out, rangeChanged after.
        QObject::connect(&axis, &QValueAxis::minChanged, [this] { look(); });
        QObject::connect(&axis, &QValueAxis::maxChanged, [this] { look(); });
        QObject::connect(&axis, &QValueAxis::rangeChanged, [this] { look(); });
        QObject::connect(&axis, &QValueAxis::tickIntervalChanged, [this] { look(); });
    }
    void look() { most = std::max(most, (m_axis.max() - m_axis.min()) / m_axis.tickInterval()); }
    QValueAxis &m_axis;
    double most = 0;
};

QValueAxis &dynamicAxis(QValueAxis &axis)
{
    axis.setTickType(QValueAxis::TicksDynamic);
    axis.setTickAnchor(0);
    return axis;
}

std::size_t sceneItems(const gui::MemoryChart &chart)
{
    return std::size_t(chart.chart()->scene()->items().size());
}

QValueAxis &timeAxis(const gui::MemoryChart &chart)
{
    return *qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
}

} // namespace

TEST(BoundedTimeAxis, AnEmptyChartJumpingToTwentyThousandStepsNeverHoldsMoreIntervals)
{
    QValueAxis axis;
    gui::setBoundedRange(dynamicAxis(axis), 0, 1, kMaxIntervals);
    IntervalWatch watch(axis);
    gui::setBoundedRange(axis, 0, 20000, kMaxIntervals);
    EXPECT_EQ(axis.min(), 0);
    EXPECT_EQ(axis.max(), 20000);
    EXPECT_EQ(axis.tickInterval(), 2000);
    EXPECT_LE(watch.most, kMaxIntervals + 1e-9);
}

TEST(BoundedTimeAxis, ZoomingFromAnAbsurdRangeToOneStepNeverHoldsMoreIntervals)
{
    QValueAxis axis;
    gui::setBoundedRange(dynamicAxis(axis), 0, std::ldexp(1.0, 31), kMaxIntervals);
    IntervalWatch watch(axis);
    gui::setBoundedRange(axis, 0, 1, kMaxIntervals);
    EXPECT_DOUBLE_EQ(axis.tickInterval(), 0.1);
    EXPECT_LE(watch.most, kMaxIntervals + 1e-9);
}

TEST(BoundedTimeAxis, AnIntervalAlwaysMovesATickAtHugeTimes)
{
    const double far = std::ldexp(1.0, 60);
    const double interval = gui::boundedTickInterval(far, far + 1, kMaxIntervals);
    EXPECT_GT(far + interval, far); // a tick loop (value += interval) ends
    EXPECT_LE(gui::boundedTickInterval(0, 1, kMaxIntervals), 0.1);
}

TEST(MemoryChart, ALoopOfTwentyThousandCallsLaysOutAFewTicksOnly)
{
    auto chart = gui::testing::makeView<gui::MemoryChart>();
    chart->resize(900, 300);
    chart->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(chart.get()));
    const std::size_t empty = sceneItems(*chart);
    IntervalWatch watch(timeAxis(*chart)); // attaching series, fitting the run: every change
    gui::testing::sharedContext().session.setTrace(gui::testing::loopTrace(20000));
    QCoreApplication::processEvents();
    EXPECT_FALSE(chart->showsPlaceholder());
    // A line per rank, the maximum, labels and a dozen ticks; before, a tick per 0.1 step.
    EXPECT_LE(watch.most, kMaxIntervals + 1e-9);
    EXPECT_LT(sceneItems(*chart), empty + 200);
    gui::testing::sharedContext().session.clear();
}

TEST(MemoryChart, ACallOfTwoToTheThirtyFirstStepsLaysOutAFewTicksOnly)
{
    auto chart = gui::testing::makeView<gui::MemoryChart>();
    chart->resize(900, 300);
    chart->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(chart.get()));
    const std::size_t empty = sceneItems(*chart);
    IntervalWatch watch(timeAxis(*chart));
    gui::testing::sharedContext().session.setTrace(
        gui::testing::absurdTrace(std::int64_t(1) << 31));
    QCoreApplication::processEvents();
    EXPECT_LE(watch.most, kMaxIntervals + 1e-9);
    EXPECT_LT(sceneItems(*chart), empty + 200);
    gui::testing::sharedContext().session.clear();
}

TEST(MemoryChart, AMillionPointLineIsDrawnFromAFewPointsPerColumn)
{
    auto chart = gui::testing::makeView<gui::MemoryChart>();
    chart->resize(900, 300);
    chart->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(chart.get()));
    gui::testing::sharedContext().session.setTrace(gui::testing::loopTrace(100000));
    QCoreApplication::processEvents();
    auto *line = qobject_cast<QLineSeries *>(chart->chart()->series().value(0));
    ASSERT_NE(line, nullptr);
    EXPECT_LE(line->count(), 4 * 1024 + 2); // of 200,000 points: every step up and down
    EXPECT_GT(line->count(), 1024);
    // Zoomed into 100 calls: each shows again.
    gui::testing::sharedContext().session.setVisibleRange(0, 100 * 1000);
    EXPECT_GE(line->count(), 200);
    EXPECT_LE(line->count(), 210);
    gui::testing::sharedContext().session.clear();
}
