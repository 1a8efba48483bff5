// SPDX-License-Identifier: MIT
// A rank's idle gaps are drawn (dotted, only where it waits), and highlighted events
// are outlined.
#include "core/explain/waitexplain.h"
#include "core/trace.h"
#include "timelinegeometry.h"
#include "timelinepainter.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

namespace gui = rankstep::gui;
namespace core = rankstep::core;
namespace explain = rankstep::explain;

namespace {

core::Event forward(int rank, int start)
{
    core::Event event;
    event.rank = rank;
    event.layer = 0;
    event.batches.insert(0);
    event.start = core::SimTime::steps(start);
    event.duration = core::SimTime::steps(1);
    return event;
}

// Rank 0 works at [0, 1) and [5, 6); rank 1 at [3, 4): rank 0 waits from 1 to 5, rank 1 from 0
// to 3; nobody waits after their last operation.
core::Trace twoRanks()
{
    core::Trace trace;
    trace.config.ranks = 2;
    trace.config.layers = 2;
    trace.events = {forward(0, 0), forward(1, 3), forward(0, 5)};
    trace.figures = core::computeFigures(trace.events, 2);
    return trace;
}

struct Picture {
    QImage image;
    gui::TimelineScene scene;
};

Picture paint(const core::Trace &trace, const std::vector<explain::Wait> *gaps,
              const std::vector<std::size_t> *highlight)
{
    Picture p{QImage(800, 200, QImage::Format_ARGB32_Premultiplied), {}};
    gui::TimelineScene &scene = p.scene;
    scene.trace = &trace;
    scene.layout = gui::fitRows(gui::RowLayout{2}, p.image.height(), 40.0);
    scene.axis = {0.0, 6000.0, scene.layout.labelWidth, 800.0 - scene.layout.labelWidth};
    scene.bounds = p.image.rect();
    scene.palette = QApplication::palette();
    scene.font = QApplication::font();
    scene.gaps = gaps;
    scene.highlight = highlight;
    QPainter painter(&p.image);
    gui::TimelinePainter(painter, scene).paint();
    return p;
}

// Pixels of `image` in the middle band of `rank`'s row between times from and to (steps) that
// differ from `other`.
int differing(const Picture &a, const Picture &b, int rank, double from, double to)
{
    const gui::RowLayout &l = a.scene.layout;
    const int top = int(l.rowTop(rank) + l.rowHeight * 0.4);
    const int bottom = int(l.rowTop(rank) + l.rowHeight * 0.6);
    int count = 0;
    for (int x = int(a.scene.axis.toX(from * 1000)); x < int(a.scene.axis.toX(to * 1000)); ++x)
        for (int y = top; y < bottom; ++y)
            count += a.image.pixel(x, y) != b.image.pixel(x, y);
    return count;
}

TEST(TimelineIdle, GapsAreDrawnWhereARankWaitsAndNowhereElse)
{
    const core::Trace trace = twoRanks();
    const std::vector<explain::Wait> gaps = explain::waits(trace, false);
    ASSERT_EQ(gaps.size(), 2U);
    const Picture with = paint(trace, &gaps, nullptr);
    const Picture without = paint(trace, nullptr, nullptr);
    EXPECT_GT(differing(with, without, 0, 1.2, 4.8), 50) << "rank 0 waits from 1 to 5";
    EXPECT_GT(differing(with, without, 1, 0.2, 2.8), 50) << "rank 1 waits from 0 to 3";
    EXPECT_EQ(differing(with, without, 1, 4.2, 5.8), 0) << "rank 1 is done, not waiting";
    EXPECT_EQ(differing(with, without, 0, 0.2, 0.8), 0) << "rank 0 works there";
}

TEST(TimelineIdle, HighlightedEventsAreOutlinedInTheHighlightColor)
{
    const core::Trace trace = twoRanks();
    const std::vector<std::size_t> highlight{1};
    const Picture with = paint(trace, nullptr, &highlight);
    const QRectF rect = gui::eventRect(trace.events[1], with.scene.layout, with.scene.axis);
    const QRgb outline = QApplication::palette().color(QPalette::Highlight).rgb();
    int found = 0;
    for (int x = int(rect.left()) - 2; x <= int(rect.right()) + 2; ++x)
        found += with.image.pixel(x, int(rect.top()) - 1) == outline;
    EXPECT_GT(found, int(rect.width()) / 2);
    const Picture plain = paint(trace, nullptr, nullptr);
    EXPECT_NE(with.image, plain.image);
}

} // namespace
