// SPDX-License-Identifier: MIT
// An operation that has started but not finished at the cursor is drawn as running: solid up to
// the cursor, faint and striped after it, not as a finished block.
#include "core/trace.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <set>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

// One rank's forward from 0 to 4 steps.
core::Trace oneForward()
{
    core::Trace trace;
    core::Event event;
    event.layer = 0;
    event.duration = core::SimTime::steps(4);
    trace.events.push_back(event);
    return trace;
}

// The colors along the middle of rank 0's row between the times (in steps) from and to.
std::set<QRgb> colorsBetween(const QImage &image, const gui::TimelineScene &scene, double from,
                             double to)
{
    std::set<QRgb> colors;
    const int y = int(scene.layout.rowTop(0) + scene.layout.rowHeight / 2);
    const int left = int(scene.axis.toX(core::SimTime::fromTicks(std::int64_t(from * 1000))));
    const int right = int(scene.axis.toX(core::SimTime::fromTicks(std::int64_t(to * 1000))));
    for (int x = left; x < right; ++x)
        for (int dy = -3; dy <= 3; ++dy)
            colors.insert(image.pixel(x, y + dy));
    return colors;
}

QImage paint(const gui::TimelineScene &scene)
{
    QImage image(scene.bounds.size(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    gui::TimelinePainter(painter, scene).paint();
    return image;
}

TEST(TimelineRunning, ARunningOperationIsSolidOnlyUpToTheCursor)
{
    const core::Trace trace = oneForward();
    gui::TimelineScene scene;
    scene.trace = &trace;
    scene.bounds = QRect(0, 0, 600, 120);
    scene.layout = gui::fitRows(gui::RowLayout{1}, scene.bounds.height(), 32.0);
    scene.axis = {0.0, 10000.0, scene.layout.labelWidth, 600 - scene.layout.labelWidth};
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    scene.cursor = core::SimTime::steps(1);
    scene.ghostAfter = 1; // the forward has started
    const std::set<QRgb> finished = colorsBetween(paint(scene), scene, 2.2, 3.8);
    ASSERT_EQ(finished.size(), 1U) << "a finished block is one solid fill";
    const QRgb fill = *finished.begin();

    scene.running = {0};
    const QImage running = paint(scene);
    EXPECT_EQ(colorsBetween(running, scene, 0.2, 0.8), finished) << "solid up to the cursor";
    const std::set<QRgb> after = colorsBetween(running, scene, 2.2, 3.8);
    EXPECT_FALSE(after.count(fill)) << "the part still to run is not the solid fill";
    EXPECT_GE(after.size(), 2U) << "striped";
}

} // namespace
