// SPDX-License-Identifier: MIT
// The timeline over learner-shaped worst cases: thousands of calls per pixel column show as
// merged columns (never dropped), a call of an absurd duration fills the view.
#include "longtraces.h"
#include "palette.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <cmath>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

struct Picture {
    QImage image;
    gui::TimelineScene scene;
    std::size_t blocks = 0;
};

Picture paint(const core::Trace &trace, double fromSteps, double toSteps, int width = 1100)
{
    Picture picture{QImage(width, 200, QImage::Format_ARGB32_Premultiplied), {}, 0};
    gui::TimelineScene &scene = picture.scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{trace.config.ranks}, 200, 32.0);
    const double ticks = double(core::SimTime::kTicksPerStep);
    scene.axis = {fromSteps * ticks, toSteps * ticks, scene.layout.labelWidth,
                  width - scene.layout.labelWidth};
    scene.bounds = picture.image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    QPainter painter(&picture.image);
    gui::TimelinePainter timeline(painter, scene);
    timeline.paint();
    picture.blocks = timeline.drawnBlocks();
    return picture;
}

// The columns of rank 0's row, from first to last (inclusive), left in the row's background.
int emptyColumns(const Picture &picture, int first, int last)
{
    const int y = int(picture.scene.layout.rowTop(0) + picture.scene.layout.rowHeight / 2);
    const QRgb background = picture.scene.palette.base().color().rgb();
    int empty = 0;
    for (int x = first; x <= last; ++x)
        empty += picture.image.pixel(x, y) == background ? 1 : 0;
    return empty;
}

// The columns of rank 0's row, from first to last (inclusive), in the fill of a call like `event`.
int columnsIn(const Picture &picture, const core::Event &event, int first, int last)
{
    const int y = int(picture.scene.layout.rowTop(0) + picture.scene.layout.rowHeight / 2);
    const QRgb fill =
        picture.scene.look.colors().event(event, picture.scene.trace->config.layers).rgb();
    int painted = 0;
    for (int x = first; x <= last; ++x)
        painted += picture.image.pixel(x, y) == fill ? 1 : 0;
    return painted;
}

} // namespace

TEST(TimelineDensity, TwentyThousandCallsInAThousandColumnsPaintEveryColumnOnce)
{
    const auto trace = gui::testing::loopTrace(20000); // forward and backward in turn
    const Picture picture = paint(*trace, 0, 20000);
    const gui::TimeAxis &axis = picture.scene.axis;
    const int first = int(std::ceil(axis.left)), last = int(axis.left + axis.width) - 1;
    EXPECT_EQ(emptyColumns(picture, first, last), 0); // before: sub-pixel blocks drew nothing
    EXPECT_LE(picture.blocks, std::size_t(axis.width) + 2);
}

TEST(TimelineDensity, ALoopOfCallsPaintsOnlyTheColumnsItCovers)
{
    const auto trace = gui::testing::loopTrace(20000);
    // The run ends at the middle of the view: the right half stays empty.
    const Picture picture = paint(*trace, 0, 40000);
    const gui::TimeAxis &axis = picture.scene.axis;
    const int middle = int(axis.toX(20000.0 * core::SimTime::kTicksPerStep));
    EXPECT_EQ(emptyColumns(picture, int(std::ceil(axis.left)), middle - 1), 0);
    const int right = int(axis.left + axis.width) - 1;
    EXPECT_EQ(columnsIn(picture, trace->events[0], middle + 1, right), 0);
    EXPECT_EQ(columnsIn(picture, trace->events[1], middle + 1, right), 0);
    EXPECT_GT(columnsIn(picture, trace->events[0], 0, middle - 1), 0);
}

TEST(TimelineDensity, ACallOfTwoToTheThirtyFirstStepsFillsTheViewToItsRightEdge)
{
    const auto trace = gui::testing::absurdTrace(std::int64_t(1) << 31);
    // A hundred steps in view: the call reaches some 2 × 10^10 pixels to the right.
    const Picture picture = paint(*trace, 0, 100);
    const gui::TimeAxis &axis = picture.scene.axis;
    const int start = int(std::ceil(axis.toX(1000.0)));
    EXPECT_EQ(emptyColumns(picture, start + 1, int(axis.left + axis.width) - 1), 0);
    EXPECT_LE(picture.blocks, 2U);
}

TEST(TimelineDensity, TheWholeAbsurdRunShowsItsShortCallsAsColumns)
{
    const auto trace = gui::testing::absurdTrace(std::int64_t(1) << 31);
    const Picture picture = paint(*trace, 0, std::ldexp(1.0, 31) + 2);
    const gui::TimeAxis &axis = picture.scene.axis;
    EXPECT_EQ(emptyColumns(picture, int(std::ceil(axis.left)) + 1, int(axis.left + axis.width) - 2),
              0);
    EXPECT_LE(picture.blocks, 3U);
}
