// SPDX-License-Identifier: MIT
// Telling sixteen or sixty-four ranks' memory lines apart though their colors repeat after eight.
#include "palette.h"
#include "ranklines.h"

#include <gtest/gtest.h>

namespace gui = rankstep::gui;

namespace {

const gui::Palette &colors()
{
    return gui::Palette::of(gui::Palette::Scheme::Standard);
}

TEST(RankLines, RanksOfOneColorDashTheirLinesApart)
{
    ASSERT_EQ(colors().rank(2), colors().rank(10)); // the same purple
    EXPECT_TRUE(gui::rankDashes(2).isEmpty());
    EXPECT_FALSE(gui::rankDashes(10).isEmpty());
    for (int rank = 0; rank < 8; ++rank)
        for (int other = rank + 8; other < 40; other += 8)
            EXPECT_NE(gui::rankDashes(rank), gui::rankDashes(other)) << rank << ", " << other;
    EXPECT_EQ(gui::rankDashes(9), gui::rankDashes(15)); // one group, one dash: colors tell them
}

TEST(RankLines, TheSelectedRanksLineStandsOutOverTheOthersMuted)
{
    const QColor white(Qt::white);
    const gui::RankLineLook none = gui::rankLineLook(10, -1, colors(), white, 1);
    EXPECT_EQ(none.color, colors().rank(10));
    EXPECT_EQ(none.width, 1);
    const gui::RankLineLook selected = gui::rankLineLook(10, 10, colors(), white, 1);
    EXPECT_TRUE(selected.selected);
    EXPECT_EQ(selected.color, colors().rank(10));
    EXPECT_EQ(selected.width, 2);
    const gui::RankLineLook other = gui::rankLineLook(2, 10, colors(), white, 1);
    EXPECT_FALSE(other.selected);
    EXPECT_EQ(other.width, 1);
    EXPECT_GT(other.color.lightness(), colors().rank(2).lightness()); // toward the white
}

TEST(RankLines, EndLabelsNameTheRanksOfEachLineWithoutOverlapping)
{
    // Ranks 0-3 and 8 end on one line at 100, rank 5 just below, rank 6 far below.
    const std::vector<gui::LineEnd> ends{{8, 100}, {0, 100}, {5, 104}, {1, 101},
                                         {2, 100}, {3, 99},  {6, 300}};
    const auto labels = gui::endLabels(ends, 12, 0, 400);
    ASSERT_EQ(labels.size(), 2U);
    EXPECT_EQ(labels[0].text.toStdString(), "ranks 0-3, 5, 8");
    EXPECT_EQ(labels[1].text.toStdString(), "rank 6");
    EXPECT_NEAR(labels[1].y, 300, 1e-9);
    // Apart where close, inside the plot at its edges.
    const auto close = gui::endLabels({{0, 100}, {1, 108}, {2, 116}, {3, 395}}, 12, 0, 400);
    ASSERT_EQ(close.size(), 4U);
    for (std::size_t i = 1; i < close.size(); ++i)
        EXPECT_GE(close[i].y - close[i - 1].y, 12 - 1e-9) << i;
    EXPECT_LE(close.back().y, 400 - 6 + 1e-9);
    EXPECT_TRUE(gui::endLabels({}, 12, 0, 400).empty());
    // The selected rank's line is named alone, though it ends with the others.
    const auto selected = gui::endLabels(ends, 12, 0, 400, 2);
    ASSERT_EQ(selected.size(), 3U);
    EXPECT_EQ(selected[0].text.toStdString(), "rank 2"); // at 100, above the others' mean
    EXPECT_EQ(selected[1].text.toStdString(), "ranks 0-1, 3, 5, 8");
    EXPECT_GE(selected[1].y - selected[0].y, 12 - 1e-9);
}

// At 16,384 ranks presenting, "ranks 0-8, 16, ..." lay across the lines' last hundred steps: the
// labels go just above the lines under them, else just below, else stay; in order, apart.
TEST(RankLines, EndLabelsMoveOffTheLinesUnderThem)
{
    const std::vector<gui::LineEnd> ends{{0, 390}, {1, 391}, {9, 300}};
    auto above = gui::endLabels(ends, 12, 0, 400);
    ASSERT_EQ(above.size(), 2U);
    gui::clearOfLines(above, 12, 0, 400, 250, 395); // the lines run between 250 and 395
    EXPECT_LE(above[1].y + 6, 250);
    EXPECT_GE(above[0].y - 6, 0);
    EXPECT_GE(above[1].y - above[0].y, 12 - 1e-9);
    EXPECT_EQ(above[0].text.toStdString(), "rank 9"); // the higher line's label stays on top
    auto below = gui::endLabels(ends, 12, 0, 400);
    gui::clearOfLines(below, 12, 0, 400, 20, 300); // no room above: below them
    EXPECT_GE(below[0].y - 6, 300);
    EXPECT_LE(below[1].y + 6, 400);
    EXPECT_GE(below[1].y - below[0].y, 12 - 1e-9);
    const auto kept = gui::endLabels(ends, 12, 0, 400);
    auto nowhere = kept;
    gui::clearOfLines(nowhere, 12, 0, 400, 10, 390); // no room either side: where they were
    for (std::size_t i = 0; i < kept.size(); ++i)
        EXPECT_EQ(nowhere[i].y, kept[i].y) << i;
}

} // namespace
