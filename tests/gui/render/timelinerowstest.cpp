// SPDX-License-Identifier: MIT
// The timeline's rows with many ranks: never thinner than a label, scrolled when they do not fit,
// every row labelled, and only the shown ranks.
#include "core/trace.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

#include <cmath>

#include <set>

namespace gui = rankstep::gui;
namespace core = rankstep::core;

namespace {

core::Trace manyRanks(int ranks)
{
    core::Trace trace;
    trace.config.ranks = ranks;
    trace.config.layers = 2;
    for (int rank = 0; rank < ranks; ++rank) {
        core::Event event;
        event.rank = rank;
        event.layer = rank % 2;
        event.batches.insert(0);
        event.duration = core::SimTime::fromTicks(1000);
        trace.events.push_back(event);
    }
    return trace;
}

TEST(TimelineRows, KeepTheirLeastHeightAndScrollWhenTheRanksDoNotFit)
{
    gui::RowLayout layout{64};
    layout = gui::fitRows(layout, 400.0, 32.0, 20.0);
    EXPECT_EQ(layout.rowHeight, 20.0);
    // Whole rows: the last row shows whole at the bottom, or above an empty part of a row.
    const double over = layout.axisHeight + 64 * 20.0 - 400.0;
    EXPECT_EQ(gui::maxScroll(layout, 400.0), std::ceil(over / 20.0) * 20.0);
    layout.scroll = 100.0;
    EXPECT_EQ(gui::firstRowInView(layout), 5);
    EXPECT_EQ(layout.rowAt(layout.axisHeight + 1.0), 5);
    EXPECT_EQ(gui::rowsInView(layout, 400.0), 24); // rows 5..23 show at least partly
    // Few ranks: rows as preferred, nothing to scroll.
    gui::RowLayout few = gui::fitRows(gui::RowLayout{4}, 400.0, 32.0, 20.0);
    EXPECT_EQ(few.rowHeight, 32.0);
    EXPECT_EQ(gui::maxScroll(few, 400.0), 0.0);
}

TEST(TimelineRows, ShowOnlyTheChosenRanksInOrder)
{
    gui::RowLayout layout{3};
    layout.ranks = {2, 5, 9};
    EXPECT_EQ(layout.rankOf(1), 5);
    EXPECT_EQ(layout.rowOf(9), 2);
    EXPECT_FALSE(layout.rowOf(3));
    const core::Trace trace = manyRanks(10);
    const gui::TimeAxis axis{0, 1000, layout.labelWidth, 500};
    EXPECT_TRUE(gui::eventRect(trace.events[3], layout, axis).isEmpty());
    EXPECT_EQ(gui::eventRect(trace.events[5], layout, axis).top(),
              layout.rowTop(1) + layout.blockPadding);
    EXPECT_EQ(
        gui::hitTest(trace, layout, axis, QPointF(layout.labelWidth + 100, layout.rowTop(1) + 10)),
        std::optional<std::size_t>(5));
}

// Whether the label column of `row` holds dark (text) pixels.
bool labelled(const QImage &image, const gui::RowLayout &layout, int row)
{
    const int top = int(std::max(layout.axisHeight, layout.rowTop(row)));
    const int bottom = int(std::min(double(image.height()), layout.rowTop(row + 1)));
    for (int y = top; y < bottom; ++y)
        for (int x = 10; x < int(layout.labelWidth) - 6; ++x)
            if (image.pixelColor(x, y).lightnessF() < 0.4)
                return true;
    return false;
}

// Paints the timeline of `ranks` ranks in a view 300 pixels tall, scrolled through page by page,
// and gives the rows that got a label.
std::set<int> labelledRows(int ranks, double minRowHeight)
{
    const core::Trace trace = manyRanks(ranks);
    QImage image(600, 300, QImage::Format_ARGB32_Premultiplied);
    gui::TimelineScene scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{ranks}, image.height(), 32.0, minRowHeight);
    scene.axis = {0, 1000, scene.layout.labelWidth, image.width() - scene.layout.labelWidth};
    scene.bounds = image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    std::set<int> rows;
    const double most = gui::maxScroll(scene.layout, image.height());
    for (double scroll = 0.0;; scroll = std::min(most, scroll + 100.0)) {
        scene.layout.scroll = scroll;
        {
            QPainter painter(&image);
            gui::TimelinePainter(painter, scene).paint();
        }
        for (int row = gui::firstRowInView(scene.layout);
             row < gui::rowsInView(scene.layout, image.height()); ++row)
            if (scene.layout.rowTop(row) >= scene.layout.axisHeight &&
                scene.layout.rowTop(row + 1) <= image.height() &&
                labelled(image, scene.layout, row))
                rows.insert(row);
        if (scroll >= most)
            return rows;
    }
}

TEST(TimelineRows, EveryRankGetsALabelAtSixteenAndSixtyFourRanks)
{
    for (int ranks : {16, 64}) {
        const std::set<int> rows = labelledRows(ranks, 20.0);
        EXPECT_EQ(int(rows.size()), ranks) << ranks << " ranks";
    }
}

} // namespace
