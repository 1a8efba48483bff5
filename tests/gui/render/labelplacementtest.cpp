// SPDX-License-Identifier: MIT
// The memory chart's maximum label stays clear of the level lines (target, model state) and their
// labels, the axis and the right edge.
#include "labelplacement.h"

#include <gtest/gtest.h>

namespace rankstep::gui {
namespace {

MaximumLabelInput input(QPointF point)
{
    MaximumLabelInput in;
    in.plot = QRectF(60, 10, 500, 200);
    in.point = point;
    in.label = QSizeF(150, 16);
    return in;
}

TEST(MaximumLabel, SitsCenteredAboveItsPointWhenThereIsRoom)
{
    EXPECT_EQ(placeMaximumLabel(input({300, 100})), QRectF(225, 80, 150, 16));
}

TEST(MaximumLabel, StaysInsideThePlotAtTheRightEdgeAndOverTheAxisLabels)
{
    EXPECT_EQ(placeMaximumLabel(input({555, 100})).right(), 560);
    EXPECT_EQ(placeMaximumLabel(input({62, 100})).left(), 60);
}

TEST(MaximumLabel, GoesBelowItsPointWhenTheTargetLineWouldCrossIt)
{
    // A maximum just under the target: centered above, the dashed line would strike it through.
    MaximumLabelInput in = input({300, 100});
    in.lines = {90};

    const QRectF placed = placeMaximumLabel(in);

    EXPECT_GT(placed.top(), 100);
    EXPECT_FALSE(placed.top() <= 90 && placed.bottom() >= 90);
}

TEST(MaximumLabel, AvoidsTheTargetsOwnLabel)
{
    MaximumLabelInput in = input({120, 100});
    in.lines = {150};
    in.labels = {QRectF(66, 80, 100, 16)};

    EXPECT_FALSE(placeMaximumLabel(in).intersects(in.labels[0]));
}

TEST(MaximumLabel, AvoidsEveryLevelsLabelNotOnlyTheTargets)
{
    // A loop's maximum at t 1 just above the model state's line, whose label sits at the left
    // under the line; the target's line is high above. Above the point is clear.
    MaximumLabelInput in = input({90, 130});
    in.lines = {40, 140};
    in.labels = {QRectF(66, 22, 100, 16), QRectF(66, 141, 160, 16)};

    const QRectF placed = placeMaximumLabel(in);

    EXPECT_FALSE(placed.intersects(in.labels[0]));
    EXPECT_FALSE(placed.intersects(in.labels[1]));
    EXPECT_LT(placed.bottom(), 130);
}

TEST(MaximumLabel, NeverLeavesThePlotAtTheTop)
{
    EXPECT_GE(placeMaximumLabel(input({300, 12})).top(), 10);
}

} // namespace
} // namespace rankstep::gui
