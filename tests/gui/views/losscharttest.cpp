// SPDX-License-Identifier: MIT
// The loss chart of a PyTorch lesson draws the gradient norms when the run logged them (the
// checklist lesson: run.log(loss, norm)) on an axis of its own, with the clipping norm; a run
// without them keeps the chart it had. The chart is a function of the session: it draws the
// session's lesson report, and a new run's report replaces the curves.
#include "appearance.h"
#include "guitestsupport.h"
#include "losschart.h"
#include "runsession.h"

#include <QApplication>
#include <QChart>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QTextDocumentFragment>
#include <QValueAxis>

#include <algorithm>

namespace rankstep::gui::testing {
namespace {

io::TorchLessonReport report(bool norms, std::size_t steps = 3)
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
    for (std::size_t i = 3; i < steps; ++i) { // a longer run: the loss goes on falling
        r.referenceLosses.push_back(2.0 - 0.01 * double(i));
        r.ranks.front().losses.push_back(2.0 - 0.01 * double(i));
    }
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
    RunSession session;
    Appearance appearance;
    LossChart chart(session, appearance);
    session.setLessonReport(report(true));
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

    session.setLessonReport(report(false));
    EXPECT_FALSE(norm->isVisible());
    for (const QString &name : chart.seriesSummary())
        EXPECT_FALSE(name.startsWith(QStringLiteral("gradient norm"))) << utf8(name);
}

// Every text the view shows: the chart's own items and the labels on it, as plain text.
QStringList shownTexts(const LossChart &chart)
{
    QStringList texts;
    for (const QGraphicsItem *item : chart.scene()->items())
        if (item->isVisible() && item->type() == QGraphicsTextItem::Type)
            texts << static_cast<const QGraphicsTextItem *>(item)->toPlainText();
    for (const QLabel *label : chart.findChildren<QLabel *>())
        if (label->isVisible() && label->height() >= label->heightForWidth(label->width()))
            texts << QTextDocumentFragment::fromHtml(label->text())
                         .toPlainText()
                         .replace(QChar::Nbsp, QLatin1Char(' '));
    return texts;
}

// Presenting (150 %) the checklist's six curves do not fit in one row: each name is still shown
// whole (Qt's legend cut "gradient norm, the checklis...").
TEST(LossChart, ShowsEveryCurvesNameWholeWhenTheyDoNotFitInOneRow)
{
    RunSession session;
    Appearance appearance;
    appearance.setZoom(1.5);
    LossChart chart(session, appearance);
    chart.resize(900, 400);
    chart.show();
    session.setLessonReport(report(true));
    QApplication::processEvents();
    const QStringList texts = shownTexts(chart);
    for (QAbstractSeries *series : chart.chart()->series()) {
        const bool whole = std::any_of(texts.begin(), texts.end(), [&](const QString &text) {
            return text.contains(series->name());
        });
        EXPECT_TRUE(whole) << utf8(series->name()) << " in " << utf8(texts.join(" | "));
    }
    for (const QString &text : texts)
        EXPECT_FALSE(text.contains(QStringLiteral("...")) || text.contains(QChar(0x2026)))
            << utf8(text);
}

TEST(LossChart, FollowsTheSessionANewRunReplacesTheCurves)
{
    RunSession session;
    Appearance appearance;
    LossChart chart(session, appearance);
    EXPECT_TRUE(chart.seriesSummary().isEmpty()); // the placeholder before any run
    EXPECT_FALSE(chart.chart()->title().isEmpty());

    session.setLessonReport(report(false));
    EXPECT_TRUE(chart.seriesSummary().contains(QStringLiteral("your loop: 3")))
        << utf8(chart.seriesSummary().join(" | "));
    EXPECT_TRUE(chart.chart()->title().isEmpty());

    session.setLessonReport(report(false, 12)); // the next run: its curves, not the last one's
    const QStringList series = chart.seriesSummary();
    EXPECT_TRUE(series.contains(QStringLiteral("your loop: 12"))) << utf8(series.join(" | "));
    EXPECT_TRUE(series.contains(QStringLiteral("the plain loop: 12"))) << utf8(series.join(" | "));
    EXPECT_FALSE(series.contains(QStringLiteral("your loop: 3"))) << utf8(series.join(" | "));

    session.setLesson(nullptr); // another lesson: the last one's curves go
    EXPECT_EQ(session.lessonReport(), nullptr);
    EXPECT_TRUE(chart.seriesSummary().isEmpty()) << utf8(chart.seriesSummary().join(" | "));
    EXPECT_FALSE(chart.chart()->title().isEmpty());
}

} // namespace
} // namespace rankstep::gui::testing
