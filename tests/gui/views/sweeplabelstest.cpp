// SPDX-License-Identifier: MIT
// The What if tab's words: its points' labels name what the sweep varies and never overlap, and
// a row's result says "solved" only where the lesson is graded, as the results panel does.
#include "guitestsupport.h"
#include "sweeplabels.h"

#include <gtest/gtest.h>

#include <QLineF>

namespace rankstep::gui::testing {
namespace {

io::SweepPoint pointOf(int ranks, int batches)
{
    io::SweepPoint point;
    point.ranks = ranks;
    point.layers = 8;
    point.batches = batches;
    return point;
}

TEST(SweepLabels, NameOnlyWhatTheSweepVaries)
{
    const QStringList ranks = sweepPointLabels({pointOf(16, 4), pointOf(64, 4), pointOf(1, 4)});
    EXPECT_EQ(ranks, (QStringList{QStringLiteral("16 ranks"), QStringLiteral("64 ranks"),
                                  QStringLiteral("1 rank")}));
    const QStringList both = sweepPointLabels({pointOf(2, 1), pointOf(4, 8)});
    EXPECT_EQ(both, (QStringList{QStringLiteral("2 ranks, 1 batch"),
                                 QStringLiteral("4 ranks, 8 batches")}));
}

TEST(SweepLabels, ClusteredPointsGetLabelsThatOverlapNoLabelAndNoPoint)
{
    // Twelve points, some a few pixels apart, as a sweep of ranks and batches puts them.
    const std::vector<QPointF> points = {{100, 200}, {104, 203}, {110, 190}, {300, 100},
                                         {305, 104}, {310, 96},  {200, 150}, {202, 150},
                                         {400, 300}, {90, 210},  {450, 50},  {120, 205}};
    const std::vector<QSizeF> sizes(points.size(), QSizeF(70, 16));
    const QRectF plot(40, 20, 500, 320);
    const auto placed =
        placePointLabels(points, sizes, plot, std::vector<double>(points.size(), 6.0));
    ASSERT_EQ(placed.size(), points.size());
    int shown = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        if (!placed[i])
            continue;
        ++shown;
        EXPECT_TRUE(plot.contains(*placed[i])) << i;
        for (std::size_t j = 0; j < placed.size(); ++j) {
            if (j != i && placed[j]) {
                EXPECT_FALSE(placed[i]->intersects(*placed[j])) << i << " and " << j;
            }
            EXPECT_FALSE(placed[i]->intersects(QRectF(points[j] - QPointF(6, 6), QSizeF(12, 12))))
                << "label " << i << " over point " << j;
        }
    }
    EXPECT_GE(shown, 9) << "most points keep a label";
    EXPECT_TRUE(placed[3].has_value()) << "a point alone always has room";
}

// Five settings a pixel or two apart (a sweep of ranks whose runs barely differ): beside their
// points there is room for two labels, and the rest were left out (listed as elided). Each gets
// a label farther out, its leader line to its point crossing no other point or label.
TEST(SweepLabels, EveryPointOfATightClusterGetsALabelWithALeader)
{
    const std::vector<QPointF> points = {
        {300, 200}, {301, 201}, {302, 199}, {300, 202}, {303, 200}};
    const std::vector<QSizeF> sizes(points.size(), QSizeF(64, 16));
    const QRectF plot(40, 20, 500, 320);
    const std::vector<double> radii(points.size(), 5.0);
    const auto placed = placePointLabels(points, sizes, plot, radii);
    ASSERT_EQ(placed.size(), points.size());
    int leaders = 0;
    for (std::size_t i = 0; i < placed.size(); ++i) {
        ASSERT_TRUE(placed[i].has_value()) << "point " << i << " has no label";
        EXPECT_TRUE(plot.contains(*placed[i])) << i;
        for (std::size_t j = 0; j < placed.size(); ++j) {
            if (j != i && placed[j]) {
                EXPECT_FALSE(placed[i]->intersects(*placed[j])) << i << " and " << j;
            }
            EXPECT_FALSE(placed[i]->intersects(QRectF(points[j] - QPointF(5, 5), QSizeF(10, 10))))
                << "label " << i << " over point " << j;
        }
        const QPointF end = leaderEnd(*placed[i], points[i]);
        EXPECT_TRUE(placed[i]->adjusted(-0.01, -0.01, 0.01, 0.01).contains(end)) << i;
        leaders += QLineF(points[i], end).length() > radii[i] + 4.0;
    }
    EXPECT_GE(leaders, 1) << "some moved out of the cluster";
}

TEST(SweepLabels, SolvedOnlyAtTheSettingTheLessonIsGradedAt)
{
    lessons::Lesson lesson;
    lesson.config.ranks = 4;
    lesson.config.layers = 8;
    lesson.config.batches = 4;
    lesson.targets = lessons::Targets{core::SimTime::steps(34), 4194304};
    io::SweepRow row;
    row.status = "solved";
    row.solved = true;
    row.timesteps = core::SimTime::steps(33);
    row.peakMemory = 4194304;
    row.point = pointOf(4, 4);
    EXPECT_EQ(sweepResultText(row, &lesson, "notebook"), QStringLiteral("solved"));
    EXPECT_EQ(sweepResultText(row, &lesson, "llama-7b"), QStringLiteral("correct"));
    row.point = pointOf(16, 4);
    EXPECT_EQ(sweepResultText(row, &lesson, "notebook"), QStringLiteral("correct"));
    row.point = pointOf(4, 4);
    row.peakMemory = 5000000;
    EXPECT_EQ(sweepResultText(row, &lesson, "notebook"), QStringLiteral("correct, targets missed"));
    EXPECT_EQ(settingText(lesson.config), QStringLiteral("4 ranks, 8 layers, 4 batches"));
}

} // namespace
} // namespace rankstep::gui::testing
