// SPDX-License-Identifier: MIT
// A short memory chart (1280x800: about 120 px) kept its legend, its axis title and six memory
// labels, and Qt Charts elided every axis label to "…": it now gives those to its labels.
#include "guitestsupport.h"
#include "longtraces.h"
#include "memorychart.h"
#include "viewcontext.h"

#include <QCategoryAxis>
#include <QChart>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QTest>
#include <QValueAxis>

#include <utility>
#include <vector>

namespace rankstep::gui::testing {
namespace {

TEST(ChartFit, AShortChartGivesItsLegendAndTitleToLabelsThatFit)
{
    ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    chart.resize(1000, 300);
    chart.show();
    context.session.setTrace(referenceTrace("gpipe"));
    auto *memory = qobject_cast<QCategoryAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
    auto *time = qobject_cast<QValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
    ASSERT_TRUE(memory && time);
    EXPECT_TRUE(chart.chart()->legend()->isVisible()) << "a roomy chart keeps its legend";
    EXPECT_TRUE(time->isTitleVisible());

    chart.resize(1000, 120);
    EXPECT_FALSE(chart.chart()->legend()->isVisible());
    EXPECT_FALSE(time->isTitleVisible());
    const double label = QFontMetricsF(memory->labelsFont()).height();
    EXPECT_LE(memory->count() * 1.6 * label, 120.0) << memory->count() << " memory labels";
    EXPECT_GE(memory->count(), 2);
}

// The visible texts Qt Charts drew, with where they sit in the scene.
std::vector<std::pair<QString, QRectF>> textsDrawn(const MemoryChart &chart)
{
    std::vector<std::pair<QString, QRectF>> texts;
    for (QGraphicsItem *item : chart.chart()->scene()->items())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
            texts.emplace_back(text->toPlainText(), text->sceneBoundingRect());
    return texts;
}

// What the chart drew as the memory axis' labels: every visible text left of the plot, Qt
// Charts' own or the chart's.
QStringList memoryLabelsDrawn(const MemoryChart &chart)
{
    QStringList labels;
    const QRectF plot = chart.chart()->plotArea();
    auto texts = textsDrawn(chart);
    for (const auto &[text, rect] : chart.memoryLabels())
        texts.emplace_back(text, rect);
    for (const auto &[text, rect] : texts)
        if (rect.right() <= plot.left() + 1 && rect.bottom() <= plot.bottom() + 20)
            labels << text;
    return labels;
}

// Seen at 1280x800 with the state tab open (a chart about 120 px high, its plot 85 px): four
// memory labels, each elided to "…", because Qt Charts gives a label the plot's height divided
// by their number, less its padding. Every height from 90 to 220 px now draws whole labels.
TEST(ChartFit, NoMemoryLabelIsElidedAtAnyHeight)
{
    ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    chart.resize(1000, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    context.session.setTrace(referenceTrace("gpipe"));
    for (int height = 90; height <= 220; height += 5) {
        chart.resize(1000, height);
        QCoreApplication::processEvents(); // Qt Charts lays out and labels
        const QStringList labels = memoryLabelsDrawn(chart);
        EXPECT_GE(labels.size(), 2)
            << "at " << height << " px: " << labels.join(u'|').toStdString();
        for (const QString &label : labels)
            EXPECT_FALSE(label.contains(QChar(0x2026)) || label.contains(QStringLiteral("...")))
                << "at " << height << " px: " << labels.join(u'|').toStdString();
    }
}

// Seen presenting (zoom 1.5) at 1920x1080 and in the What if tab at 1500x940: the memory labels
// were "…" wherever their height or width did not fit what Qt Charts gave them. Every height,
// zoomed or not, now draws whole labels, inside the chart, right of nothing they run into.
TEST(ChartFit, MemoryLabelsStayWholeZoomedAtEveryHeight)
{
    ViewContext context;
    context.appearance.setZoom(1.5);
    MemoryChart chart(context.session, context.appearance);
    chart.resize(1400, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    context.session.setTrace(referenceTrace("gpipe"));
    for (int height = 80; height <= 320; height += 10) {
        chart.resize(1400, height);
        QCoreApplication::processEvents(); // Qt Charts lays out and labels
        const QStringList labels = memoryLabelsDrawn(chart);
        const std::string seen =
            "at " + std::to_string(height) + " px: " + labels.join(u'|').toStdString();
        EXPECT_GE(labels.size(), 2) << seen;
        for (const QString &label : labels)
            EXPECT_FALSE(label.contains(QChar(0x2026)) || label.contains(QStringLiteral("...")))
                << seen;
        for (const auto &[text, rect] : chart.memoryLabels()) {
            EXPECT_GE(rect.left(), 0.0) << text.toStdString() << " " << seen;
            EXPECT_TRUE(text.endsWith(QStringLiteral("B"))) << text.toStdString();
        }
        EXPECT_TRUE(chart.elidedTexts().isEmpty())
            << chart.elidedTexts().join(u'|').toStdString() << " " << seen;
    }
    // Pinned to another view's time span that starts further left than the labels need: the
    // plot keeps their room (Qt Charts cut them to "…" in what was left).
    chart.resize(1400, 200);
    chart.setTimeSpan(PixelSpan{12.0, 1300.0});
    QCoreApplication::processEvents();
    const QStringList labels = memoryLabelsDrawn(chart);
    EXPECT_GE(labels.size(), 2) << labels.join(u'|').toStdString();
    for (const QString &label : labels)
        EXPECT_FALSE(label.contains(QChar(0x2026))) << labels.join(u'|').toStdString();
    for (const auto &[text, rect] : chart.memoryLabels())
        EXPECT_GE(rect.left(), 0.0) << text.toStdString();
}

// Seen on a loop stopped by the operation budget (10,000,000 steps): the chart's time axis said
// "2e+06" below the timeline's "2000000".
TEST(ChartFit, LongTimesAreWrittenOutAsTheTimelineWritesThem)
{
    ViewContext context;
    MemoryChart chart(context.session, context.appearance);
    chart.resize(1000, 300);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    context.session.setTrace(loopTrace(1000, 1, 10000));
    QCoreApplication::processEvents();
    QStringList labels;
    for (const auto &[text, rect] : textsDrawn(chart))
        labels << text;
    ASSERT_TRUE(labels.contains(QStringLiteral("2000000"))) << labels.join(u'|').toStdString();
    for (const QString &label : labels)
        EXPECT_FALSE(label.contains(QStringLiteral("e+"))) << label.toStdString();
}

} // namespace
} // namespace rankstep::gui::testing
