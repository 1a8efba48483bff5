// SPDX-License-Identifier: MIT
// The timeline painter on a long run: it draws what can be seen, not every event.
#include "core/trace.h"
#include "legendpainter.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// ranks × perRank back-to-back events of one step each; every even rank passes a message to
// the odd rank after it in each step.
core::Trace longRun(int ranks, int perRank)
{
    core::Trace trace;
    trace.config.layers = 96;
    for (int i = 0; i < perRank; ++i)
        for (int rank = 0; rank < ranks; ++rank) {
            core::Event event;
            event.rank = rank;
            event.layer = i % 96;
            event.op = rank % 2 == 0 ? core::OpKind::PassTo : core::OpKind::Receive;
            event.link = std::int32_t(i) * ranks + rank / 2 * 2;
            event.batches.insert(0);
            event.start = core::SimTime::fromTicks(std::int64_t(i) * 1000);
            event.duration = core::SimTime::fromTicks(1000);
            trace.events.push_back(event);
        }
    return trace;
}

struct Painted {
    std::size_t blocks = 0;
    std::size_t arrows = 0;
};

Painted paint(const core::Trace &trace, int rows, double from, double to, int width = 1200)
{
    QImage image(width, 800, QImage::Format_ARGB32_Premultiplied);
    gui::TimelineScene scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{rows}, image.height(), 32.0);
    scene.axis = {from, to, scene.layout.labelWidth, image.width() - scene.layout.labelWidth};
    scene.bounds = image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    QPainter painter(&image);
    gui::TimelinePainter timeline(painter, scene);
    timeline.paint();
    return {timeline.drawnBlocks(), timeline.drawnArrows()};
}

TEST(TimelinePainter, AFittedRunOfAHundredThousandEventsDrawsAtMostABlockPerPixelColumn)
{
    const int ranks = 100, perRank = 1100, imageWidth = 400;
    const core::Trace trace = longRun(ranks, perRank);
    ASSERT_GT(trace.events.size(), 100000U);
    const double width = imageWidth - gui::RowLayout{}.labelWidth; // about 3 events per pixel
    const Painted painted = paint(trace, ranks, 0.0, perRank * 1000.0, imageWidth);
    EXPECT_GE(painted.blocks, std::size_t(ranks)); // something in every row (a merged run)
    EXPECT_LE(painted.blocks, std::size_t(ranks * (width + 1))); // never more than pixels
    EXPECT_LT(painted.blocks, trace.events.size() * 3 / 4);      // and fewer than events
    EXPECT_EQ(painted.arrows, 0U);                               // between sub-pixel blocks
}

TEST(TimelinePainter, LeavesOutArrowsWhenThousandsAreInView)
{
    const core::Trace trace = longRun(192, 600);
    // A hundred steps of about eleven pixels each: 96 messages per step in view.
    EXPECT_EQ(paint(trace, 192, 0.0, 100000.0).arrows, 0U);
    EXPECT_EQ(paint(longRun(4, 100), 4, 20500.0, 30500.0).arrows, 2U * 11U);
}

TEST(TimelinePainter, ZoomedInEveryEventInViewIsItsOwnBlock)
{
    const core::Trace trace = longRun(4, 100);
    // Steps 20 to 30 are (partly) in view: eleven blocks per rank, each over a hundred pixels.
    const Painted painted = paint(trace, 4, 20500.0, 30500.0);
    EXPECT_EQ(painted.blocks, 4U * 11U);
}

// A zero-bubble run: the weight gradient's block carries its stripes in the stronger ink, the
// input gradient's does not, so W stands out beside B and not only by its lighter fill.
TEST(TimelinePainter, StripesTheWeightGradientButNotTheInputGradient)
{
    core::Trace trace;
    trace.config.layers = 4;
    for (const core::OpKind op : {core::OpKind::BackwardInput, core::OpKind::BackwardWeight}) {
        core::Event event;
        event.op = op;
        event.layer = 2;
        event.start = core::SimTime::fromTicks(std::int64_t(trace.events.size()) * 1000);
        event.duration = core::SimTime::fromTicks(1000);
        trace.events.push_back(event);
    }
    QImage image(800, 200, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    gui::TimelineScene scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{1}, image.height(), 32.0);
    scene.axis = {0.0, 2000.0, scene.layout.labelWidth, image.width() - scene.layout.labelWidth};
    scene.bounds = image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    {
        QPainter painter(&image);
        gui::TimelinePainter(painter, scene).paint();
    }
    const QColor hatch =
        gui::weightHatch(scene.look.colors(), trace.events[1], trace.config.layers);
    ASSERT_TRUE(hatch.isValid());
    const auto inkIn = [&](const core::Event &event) {
        const QRect block = gui::eventRect(event, scene.layout, scene.axis).toAlignedRect();
        int count = 0;
        for (int y = block.top(); y <= block.bottom(); ++y)
            for (int x = block.left(); x <= block.right(); ++x)
                count += image.valid(x, y) && image.pixel(x, y) == hatch.rgb() ? 1 : 0;
        return std::pair{count, block.width() * block.height()};
    };
    const auto [weightInk, weightArea] = inkIn(trace.events[1]);
    EXPECT_GT(weightInk, weightArea / 20) << "stripes across the W block";
    EXPECT_EQ(inkIn(trace.events[0]).first, 0) << "B stays a plain fill";
}

} // namespace
