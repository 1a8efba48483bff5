// SPDX-License-Identifier: MIT
// The exported figure of a learner's long loop: the timeline shows the loop's work (merged per
// pixel column), not a blank row.
#include "exportfigure.h"
#include "longtraces.h"

#include <gtest/gtest.h>

#include <QImage>

namespace gui = rankstep::gui;

namespace {

int pixelsOf(const QImage &image, const QColor &color)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    int count = 0;
    for (int y = 0; y < rgb.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x)
            count += line[x] == color.rgb() ? 1 : 0;
    }
    return count;
}

} // namespace

TEST(ExportFigure, TheTimelineOfFiveThousandForwardsIsNotBlank)
{
    const auto trace = gui::testing::loopTrace(5000, 1, 4); // 20,000 steps, a call per 0.2 px
    gui::FigureOptions options;
    options.size = QSize(1600, 900);
    const QImage image = gui::renderTimelineFigure(trace, options);
    const gui::Palette &colors = gui::Palette::of(gui::Palette::Scheme::Standard);
    const int forward = pixelsOf(image, colors.event(trace->events[0], trace->config.layers));
    const int backward = pixelsOf(image, colors.event(trace->events[1], trace->config.layers));
    // The row is some 1000 pixels wide and 10 or more tall, every column of it busy.
    EXPECT_GT(forward + backward, 10000);
}
