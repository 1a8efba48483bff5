// SPDX-License-Identifier: MIT
// Where the wait-for picture puts its rank nodes and arrows.
#include "waitforgeometry.h"

#include <gtest/gtest.h>

namespace rankstep::gui {
namespace {

const QRectF kArea(10, 40, 480, 330); // a 500x400 view less its title and legend

class WaitForNodes : public ::testing::TestWithParam<int>
{};

TEST_P(WaitForNodes, StayInsideTheAreaWithoutOverlapping)
{
    const int ranks = GetParam();
    const std::vector<QRectF> nodes = waitForNodes(ranks, kArea);
    ASSERT_EQ(int(nodes.size()), ranks);
    for (const QRectF &node : nodes) {
        EXPECT_TRUE(kArea.adjusted(-0.01, -0.01, 0.01, 0.01).contains(node))
            << node.x() << "," << node.y() << " " << node.width() << "x" << node.height();
        EXPECT_GE(node.width(), 30);
        EXPECT_GE(node.height(), 20);
    }
    EXPECT_FALSE(anyOverlap(nodes, 0));
}

INSTANTIATE_TEST_SUITE_P(Ranks, WaitForNodes, ::testing::Values(1, 2, 3, 4, 8, 16, 17, 40, 64));

TEST(WaitForGeometry, FewRanksGetFullSizeNodes)
{
    for (int ranks : {2, 4}) {
        for (const QRectF &node : waitForNodes(ranks, kArea))
            EXPECT_EQ(node.size(), kPreferredNodeSize) << ranks << " ranks";
    }
}

TEST(WaitForGeometry, ANarrowViewKeepsRoomForTheArrowsBetweenNodes)
{
    const QRectF narrow(12, 40, 296, 330); // the "Why it hung" tab beside the editor
    const auto nodes = waitForNodes(4, narrow);
    EXPECT_GE(nodes[1].left() - nodes[3].right(), 26);
    EXPECT_GE(nodes[0].width(), 120);
}

TEST(WaitForGeometry, TwoRanksSitSideBySideAndRankZeroOfMoreAtTheTop)
{
    const auto two = waitForNodes(2, kArea);
    EXPECT_DOUBLE_EQ(two[0].center().y(), two[1].center().y());
    EXPECT_LT(two[0].center().x(), two[1].center().x());
    const auto four = waitForNodes(4, kArea);
    EXPECT_NEAR(four[0].top(), kArea.top(), 1e-6);
    EXPECT_NEAR(four[1].right(), kArea.right(), 1e-6); // clockwise: right, bottom, left
    EXPECT_NEAR(four[2].bottom(), kArea.bottom(), 1e-6);
    EXPECT_NEAR(four[3].left(), kArea.left(), 1e-6);
}

TEST(WaitForGeometry, SixteenRanksStayOnTheRingAndMoreGoToAGrid)
{
    const auto ring = waitForNodes(16, kArea);
    EXPECT_NEAR(ring[0].center().x(), kArea.center().x(), 0.01);
    const auto grid = waitForNodes(40, kArea);
    EXPECT_DOUBLE_EQ(grid[0].topLeft().x(), kArea.left());
    EXPECT_DOUBLE_EQ(grid[0].topLeft().y(), kArea.top());
    EXPECT_DOUBLE_EQ(grid[1].top(), grid[0].top());
}

TEST(WaitForGeometry, BoundaryPointIsOnTheRectTowardTheTarget)
{
    const QRectF rect(0, 0, 100, 40);
    EXPECT_EQ(boundaryToward(rect, QPointF(300, 20)), QPointF(100, 20));
    EXPECT_EQ(boundaryToward(rect, QPointF(50, -100)), QPointF(50, 0));
    EXPECT_EQ(boundaryToward(rect, rect.center()), rect.center());
}

TEST(WaitForGeometry, ArrowRunsBetweenTheBoundariesOfTwoNodes)
{
    const QRectF a(0, 0, 100, 40);
    const QRectF b(300, 0, 100, 40);
    const QLineF line = arrowBetween(a, b, 3, 0);
    EXPECT_EQ(line.p1(), QPointF(103, 20));
    EXPECT_EQ(line.p2(), QPointF(297, 20));
    EXPECT_FALSE(a.contains(line.p2()));
    EXPECT_FALSE(b.contains(line.p1()));
    // The way back is shifted to the other side, so both arrows of a mutual wait show.
    const QLineF there = arrowBetween(a, b, 3, 6);
    const QLineF back = arrowBetween(b, a, 3, 6);
    EXPECT_DOUBLE_EQ(there.p1().y(), 26);
    EXPECT_DOUBLE_EQ(back.p1().y(), 14);
    EXPECT_EQ(arrowBetween(a, a, 3, 0).length(), 0);
}

TEST(WaitForGeometry, ArrowHeadStrokesLeaveTheTipBackwards)
{
    const QLineF line(0, 0, 100, 0);
    const auto [left, right] = arrowHead(line, 10);
    EXPECT_EQ(left.p1(), line.p2());
    EXPECT_NEAR(left.length(), 10, 1e-9);
    EXPECT_LT(left.p2().x(), 100);
    EXPECT_LT(right.p2().x(), 100);
    EXPECT_NEAR(left.p2().y(), -right.p2().y(), 1e-9);
}

TEST(WaitForGeometry, NodeAtFindsTheNodeUnderAPoint)
{
    const auto nodes = waitForNodes(4, kArea);
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(nodeAt(nodes, nodes[std::size_t(i)].center()), i);
    EXPECT_EQ(nodeAt(nodes, kArea.center()), std::nullopt);
    EXPECT_EQ(nodeAt({}, kArea.center()), std::nullopt);
}

} // namespace
} // namespace rankstep::gui
