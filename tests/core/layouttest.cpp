// SPDX-License-Identifier: MIT
#include "core/layout.h"

#include <gtest/gtest.h>

#include <set>

using namespace rankstep::core;

TEST(Layout, LlamaOrderPutsTensorInnermostAndDataOutermost)
{
    // 16 ranks as tensor 2 x pipeline 4: data 2; rank = t + 2 * (p + 4 * d).
    const RankLayout layout(16, Layout{2, 1, 4, 1});
    ASSERT_EQ(layout.data(), 2);
    const Coords c = layout.coords(13); // 13 = 1 + 2 * (2 + 4 * 1)
    EXPECT_EQ(c.tensor, 1);
    EXPECT_EQ(c.pipeline, 2);
    EXPECT_EQ(c.data, 1);
    EXPECT_EQ(layout.rankAt(c), 13);
    for (int rank = 0; rank < 16; ++rank)
        EXPECT_EQ(layout.rankAt(layout.coords(rank)), rank);
}

TEST(Layout, GroupsAreOrderedByTheirCoordinateAndPartitionTheRanks)
{
    const RankLayout layout(16, Layout{2, 1, 4, 1});
    EXPECT_EQ(layout.group(13, Axis::Tensor), (std::vector<int>{12, 13}));
    EXPECT_EQ(layout.group(13, Axis::Pipeline), (std::vector<int>{9, 11, 13, 15}));
    EXPECT_EQ(layout.group(13, Axis::Data), (std::vector<int>{5, 13}));
    for (Axis axis : {Axis::Tensor, Axis::Pipeline, Axis::Data}) {
        std::set<std::vector<int>> groups;
        for (int rank = 0; rank < 16; ++rank) {
            const std::vector<int> group = layout.group(rank, axis);
            EXPECT_EQ(group[std::size_t(layout.coords(rank).along(axis))], rank);
            groups.insert(group);
        }
        EXPECT_EQ(int(groups.size()) * layout.degree(axis), 16) << axisName(axis);
    }
}

TEST(Layout, ExpertGroupsAreDataNeighbours)
{
    // 8 ranks, tensor 2: data 4, split into expert groups of 2.
    const RankLayout layout(8, Layout{2, 1, 1, 2});
    EXPECT_EQ(layout.coords(5).data, 2);
    EXPECT_EQ(layout.coords(5).expert, 0);
    EXPECT_EQ(layout.group(5, Axis::Expert), (std::vector<int>{5, 7}));
    EXPECT_EQ(layout.group(3, Axis::Expert), (std::vector<int>{1, 3}));
}

TEST(Layout, ProblemsNameTheOptionsAndTheRanks)
{
    EXPECT_EQ(layoutProblem(8, Layout{}), "");
    EXPECT_EQ(layoutProblem(8, Layout{3, 1, 2, 1}),
              "--tensor 3 x --pipeline 2 need a multiple of 6 ranks, and 8 is not one");
    EXPECT_EQ(layoutProblem(4, Layout{8, 1, 1, 1}),
              "--tensor 8 needs a multiple of 8 ranks, and 4 is not one");
    EXPECT_NE(layoutProblem(8, Layout{2, 1, 1, 3}).find("--expert 3"), std::string::npos);
    EXPECT_NE(layoutProblem(8, Layout{0, 1, 1, 1}).find("at least 1"), std::string::npos);
    EXPECT_EQ(RankLayout(8, Layout{3, 1, 1, 1}).data(), 0);
}

TEST(Layout, TextNamesOnlyTheDegreesThatAreNotOne)
{
    EXPECT_EQ(layoutText(Layout{}), "");
    EXPECT_EQ(layoutText(Layout{8, 1, 16, 1}), "tensor 8 x pipeline 16");
}
