// SPDX-License-Identifier: MIT
// Where a rank stands in the hang picture reads without color: every two standings differ in
// their node's outline (style or width) and in the mark beside the rank's name, drawn in one ink
// on nodes of one color.
#include "waitforglyphs.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>

namespace rankstep::gui {
namespace {

using explain::Standing;

constexpr Standing kAll[] = {Standing::Stopped, Standing::Waiting, Standing::Finished,
                             Standing::NotStarted, Standing::Underway};

QImage markOf(Standing standing)
{
    QImage image(32, 32, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paintStandingMark(painter, standing, QRectF(2, 2, 28, 28), Qt::black);
    return image;
}

TEST(WaitForGlyphs, EveryTwoStandingsHaveDifferentOutlines)
{
    const QColor color(0x44, 0x88, 0xcc);
    for (const Standing a : kAll)
        for (const Standing b : kAll) {
            if (a == b)
                continue;
            const QPen pa = nodeStyle(a, color, Qt::white, 1).outline;
            const QPen pb = nodeStyle(b, color, Qt::white, 1).outline;
            const bool hollowA = nodeStyle(a, color, Qt::white, 1).fill.color() == Qt::white;
            const bool hollowB = nodeStyle(b, color, Qt::white, 1).fill.color() == Qt::white;
            EXPECT_TRUE(pa.style() != pb.style() || pa.widthF() != pb.widthF() ||
                        hollowA != hollowB)
                << int(a) << " and " << int(b) << " differ only in color";
        }
}

TEST(WaitForGlyphs, EveryTwoStandingsHaveDifferentMarks)
{
    for (const Standing a : kAll) {
        const QImage mark = markOf(a);
        int inked = 0;
        for (int y = 0; y < mark.height(); ++y)
            for (int x = 0; x < mark.width(); ++x)
                inked += qGray(mark.pixel(x, y)) < 128;
        EXPECT_GT(inked, 10) << int(a) << " draws no mark";
        for (const Standing b : kAll) {
            if (int(b) <= int(a))
                continue;
            const QImage other = markOf(b);
            int differing = 0;
            for (int y = 0; y < mark.height(); ++y)
                for (int x = 0; x < mark.width(); ++x)
                    differing += std::abs(qGray(mark.pixel(x, y)) - qGray(other.pixel(x, y))) > 96;
            EXPECT_GT(differing, 20) << int(a) << " and " << int(b) << " look alike";
        }
    }
}

} // namespace
} // namespace rankstep::gui
