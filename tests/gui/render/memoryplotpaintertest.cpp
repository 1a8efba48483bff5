// SPDX-License-Identifier: MIT
// The exported figure's memory plot: its geometry, and that it draws each rank's memory on the
// timeline's time axis (a time at the same x as in the timeline), veiled after the cursor.
#include "memoryplotpainter.h"
#include "memoryseries.h"
#include "palette.h"
#include "statetestsupport.h"
#include "theme.h"

#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <cmath>

namespace rankstep::gui {
namespace {

using testing::ReplayedRun;

MemoryPlotScene sceneOf(const core::Trace &trace)
{
    MemoryPlotScene scene;
    scene.trace = &trace;
    scene.colors = &Palette::of(Palette::Scheme::Standard);
    scene.bounds = QRectF(0, 0, 900, 400);
    scene.axis.left = 110;
    scene.axis.width = 760;
    scene.axis = fitted(scene.axis, trace.figures.endTime);
    scene.palette = themePalette(Theme::Light);
    return scene;
}

QImage paint(const MemoryPlotScene &scene)
{
    QImage image(scene.bounds.size().toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    paintMemoryPlot(painter, scene);
    return image;
}

// The leftmost column in which a pixel has exactly `color`; -1 if none.
int leftmostColumn(const QImage &image, const QColor &color)
{
    for (int x = 0; x < image.width(); ++x)
        for (int y = 0; y < image.height(); ++y)
            if (image.pixel(x, y) == color.rgb())
                return x;
    return -1;
}

TEST(MemoryPlot, SpansTheTimeAxisBetweenTheLegendAndTheTimeLabels)
{
    ReplayedRun run("ddp");
    const MemoryPlotScene scene = sceneOf(*run.trace());
    const QRectF plot = memoryPlotArea(scene);
    EXPECT_EQ(plot.left(), 110);
    EXPECT_EQ(plot.width(), 760);
    EXPECT_EQ(plot.top(), kPlotLegendHeight);
    EXPECT_EQ(plot.bottom(), 400 - kPlotTimeSpace);
}

TEST(MemoryPlot, ValueAxisRunsFromZeroToATickAboveTheMaximumWithRoomForItsLabel)
{
    ReplayedRun run("ddp"); // maximum 1835008 B: 1.15 times that is 2110259, ticks of 500 kB
    const auto ticks = memoryPlotTicks(*run.trace(), std::nullopt);
    EXPECT_EQ(ticks, (std::vector<std::int64_t>{0, 500000, 1000000, 1500000, 2000000, 2500000}));
    // A higher target: 1.15 times 3 MB is 3.45 MB, five intervals of at least 690 kB: 1 MB.
    EXPECT_EQ(memoryPlotTicks(*run.trace(), 3000000).back(), 4000000);
    const QRectF plot(10, 20, 100, 200);
    EXPECT_EQ(memoryY(plot, 2500000, 0), 220);
    EXPECT_EQ(memoryY(plot, 2500000, 2500000), 20);
    EXPECT_EQ(memoryY(plot, 2500000, 1250000), 120);
}

TEST(MemoryPlot, TimeTicksAreRoundStepsInsideTheAxis)
{
    TimeAxis axis;
    axis.from = -120; // ticks: a thousandth of a step
    axis.to = 5700;
    EXPECT_EQ(plotTimeTicks(axis), (std::vector<double>{0, 1, 2, 3, 4, 5}));
    axis.from = 1000;
    axis.to = 35000;
    EXPECT_EQ(plotTimeTicks(axis), (std::vector<double>{5, 10, 15, 20, 25, 30, 35}));
}

TEST(MemoryPlot, EachRanksLineStartsAtItsFirstCallOnTheTimeAxis)
{
    // GPipe: rank 0 starts at time 0, the later stages when their first micro-batch arrives.
    ReplayedRun run("gpipe");
    const core::Trace &trace = *run.trace();
    const MemoryPlotScene scene = sceneOf(trace);
    const QImage image = paint(scene);
    for (int rank = 1; rank < trace.config.ranks; ++rank) {
        const auto samples = memorySamples(trace, rank);
        ASSERT_FALSE(samples.empty()) << rank;
        const double expected = scene.axis.toX(samples.front().time);
        EXPECT_NEAR(leftmostColumn(image, Palette::of(Palette::Scheme::Standard).rank(rank)),
                    expected, 2.0)
            << "rank " << rank;
    }
}

TEST(MemoryPlot, TheTimeAfterTheCursorIsVeiled)
{
    ReplayedRun run("gpipe");
    MemoryPlotScene scene = sceneOf(*run.trace());
    const QImage whole = paint(scene);
    scene.cursor = core::SimTime::fromTicks(10000);
    const QImage stepped = paint(scene);
    const int x = int(std::lround(cursorLineX(scene.axis, *scene.cursor)));
    const QRectF plot = memoryPlotArea(scene);
    const auto differs = [&](int from, int to) {
        for (int column = from; column < to; ++column)
            for (int y = int(plot.top()); y < int(plot.bottom()); ++y)
                if (whole.pixel(column, y) != stepped.pixel(column, y))
                    return true;
        return false;
    };
    EXPECT_FALSE(differs(int(plot.left()), x - 3)) << "the time before the cursor changed";
    EXPECT_TRUE(differs(x + 3, int(plot.right()))) << "the time after the cursor is not veiled";
    // The rank lines after the cursor are paler: no pixel there keeps rank 0's full color (the
    // legend above the plot does).
    const QImage after =
        stepped.copy(x + 3, int(plot.top()), int(plot.right()) - x - 3, int(plot.height()));
    EXPECT_EQ(leftmostColumn(after, Palette::of(Palette::Scheme::Standard).rank(0)), -1);
}

// Sixteen ranks get no legend and share their colors two by two: the lines' right ends name
// their ranks, the label in the color of its first rank's line, darker.
TEST(MemoryPlot, PastEightRanksTheLinesEndsNameTheirRanks)
{
    ReplayedRun run("pipeline_fsdp");
    const MemoryPlotScene scene = sceneOf(*run.trace());
    const QImage image = paint(scene);
    const QRectF plot = memoryPlotArea(scene);
    const QRgb label = scene.colors->rank(0).darker(130).rgb();
    bool found = false;
    for (int x = int(plot.right()) - 80; x < int(plot.right()) && !found; ++x)
        for (int y = int(plot.top()); y < int(plot.bottom()) && !found; ++y)
            found = image.pixel(x, y) == label;
    EXPECT_TRUE(found);
}

core::Trace withDevice(const core::Trace &trace, std::int64_t bytes)
{
    core::Trace changed = trace;
    changed.config.cost.deviceMemory = bytes;
    return changed;
}

// How many pixels of row `y` inside the plot have exactly `color`.
int pixelsInRow(const QImage &image, const QRectF &plot, int y, const QColor &color)
{
    int count = 0;
    for (int x = int(plot.left()); x < int(plot.right()); ++x)
        count += image.pixel(x, y) == color.rgb();
    return count;
}

// The exported plot draws the device's memory a trace carries as the app's memory chart does:
// an orange dash-dot line across the run inside the value axis, "3 MB: the device's memory" in
// the darker orange above it at the left, and the maximum's label says by how much the peak
// fits or overflows it. A trace without it draws none of that.
TEST(MemoryPlot, DrawsTheDevicesMemoryAsTheAppsChartDoes)
{
    ReplayedRun run("ddp"); // its maximum: 1835008 B on rank 0 at t 4
    const core::Trace plain = *run.trace();
    const core::Trace fits = withDevice(plain, 3'000'000);
    EXPECT_EQ(plotDeviceMemory(plain), std::nullopt);
    EXPECT_EQ(plotDeviceMemory(fits), 3'000'000);
    EXPECT_EQ(memoryPlotMaximumLabel(plain), QStringLiteral("max 1.84 MB (rank 0, t 4)"));
    EXPECT_EQ(memoryPlotMaximumLabel(fits),
              QStringLiteral("max 1.84 MB (rank 0, t 4): fits, 1.16 MB to spare"));
    EXPECT_EQ(memoryPlotMaximumLabel(withDevice(plain, 1'000'000)),
              QStringLiteral("max 1.84 MB (rank 0, t 4): 835.01 kB over the device's memory"));
    EXPECT_EQ(deviceMemoryLabel(80'000'000'000), QStringLiteral("80 GB: the device's memory"));
    // 3 MB is above the maximum: the axis reaches past it (1.15 x 3 MB, in steps of 1 MB).
    EXPECT_EQ(memoryPlotTicks(fits, std::nullopt).back(), 4'000'000);

    const MemoryPlotScene scene = sceneOf(fits);
    const QRectF plot = memoryPlotArea(scene);
    const int y = int(memoryY(plot, 4'000'000, 3'000'000));
    const QImage image = paint(scene);
    // Dash-dot: well over a third of the run's width in the line's orange, on its row or the next
    // (a 2-pixel pen on a half pixel).
    const double runWidth = scene.axis.toX(fits.figures.endTime) - scene.axis.toX(core::SimTime());
    const int orange = std::max(pixelsInRow(image, plot, y, kDeviceMemory),
                                pixelsInRow(image, plot, y - 1, kDeviceMemory));
    EXPECT_GT(orange, runWidth / 3) << orange << " of " << runWidth;
    // Its words above it at the left.
    const QImage words = image.copy(int(plot.left()), y - 30, int(plot.width() / 3), 28);
    EXPECT_GE(leftmostColumn(words, kDeviceMemory.darker(130)), 0) << "no words above the line";

    const QImage without = paint(sceneOf(plain));
    for (int row = int(plot.top()); row < int(plot.bottom()); ++row) {
        ASSERT_EQ(pixelsInRow(without, plot, row, kDeviceMemory), 0) << "row " << row;
        ASSERT_EQ(pixelsInRow(without, plot, row, kDeviceMemory.darker(130)), 0) << "row " << row;
    }
}

} // namespace
} // namespace rankstep::gui
