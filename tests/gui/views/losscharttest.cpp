// SPDX-License-Identifier: MIT
// The loss chart of a PyTorch lesson draws the gradient norms when the run logged them (the
// checklist lesson: run.log(loss, norm)) on an axis of its own, with the clipping norm; a run
// without them keeps the chart it had.
#include "guitestsupport.h"
#include "losschart.h"

#include <QChart>
#include <QValueAxis>

namespace rankstep::gui::testing {
namespace {

io::TorchLessonReport report(bool norms)
{
    io::TorchLessonReport r;
    r.check = norms ? "checklist" : "loop";
    r.expectedInitLoss = 2.302585;
    r.referenceLosses = {2.30, 2.25, 2.10};
    io::TorchRankLosses rank;
    rank.losses = {2.30, 2.24, 2.12};
    if (norms) {
        r.referenceGradNorms = {0.5, 30.0, 4.0};
        r.clipNorm = 1.0;
        rank.gradNorms = {0.5, 29.0, 4.5};
    }
    r.ranks.push_back(rank);
    return r;
}

QValueAxis *normAxis(const LossChart &chart)
{
    for (QAbstractAxis *axis : chart.chart()->axes(Qt::Vertical))
        if (axis->titleText() == QStringLiteral("gradient norm"))
            return static_cast<QValueAxis *>(axis);
    return nullptr;
}

TEST(LossChart, DrawsTheGradientNormsAndTheClippingNormOnAnAxisOfTheirOwn)
{
    LossChart chart;
    const io::TorchLessonReport withNorms = report(true);
    chart.setReport(&withNorms);
    const QStringList series = chart.seriesSummary();
    EXPECT_TRUE(series.contains(QStringLiteral("gradient norm, the checklist's loop: 3")))
        << utf8(series.join(" | "));
    EXPECT_TRUE(series.contains(QStringLiteral("gradient norm, your loop: 3")))
        << utf8(series.join(" | "));
    EXPECT_TRUE(series.contains(QStringLiteral("clipped to 1: 2"))) << utf8(series.join(" | "));
    EXPECT_TRUE(series.contains(QStringLiteral("your loop: 3"))) << utf8(series.join(" | "));
    QValueAxis *norm = normAxis(chart);
    ASSERT_NE(norm, nullptr);
    EXPECT_TRUE(norm->isVisible());
    EXPECT_GE(norm->max(), 30.0); // the largest norm fits
    EXPECT_EQ(norm->min(), 0.0);

    const io::TorchLessonReport without = report(false);
    chart.setReport(&without);
    EXPECT_FALSE(norm->isVisible());
    for (const QString &name : chart.seriesSummary())
        EXPECT_FALSE(name.startsWith(QStringLiteral("gradient norm"))) << utf8(name);
}

} // namespace
} // namespace rankstep::gui::testing
