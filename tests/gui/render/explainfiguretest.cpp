// SPDX-License-Identifier: MIT
// The explanation exports like the other figures, its legend included.
#include "explainfigure.h"
#include "exportfiles.h"
#include "kindcolors.h"
#include "palette.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

namespace rankstep::gui {
namespace {

TEST(ExplainFigure, TheSvgSaysThePeakAndNamesEveryKindInItsLegend)
{
    const auto trace = std::make_shared<const core::Trace>(testing::runReference("gpipe"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("why.svg"));
    FigureOptions options;
    options.memoryTarget = 4063232;
    ASSERT_EQ(writeExplainFigure(*trace, options, path, true).toStdString(), "");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    EXPECT_TRUE(svg.contains(QStringLiteral("Peak 4194304 B on rank 1 at t 30.4")));
    EXPECT_TRUE(svg.contains(QStringLiteral("131072 B over the target of 4063232 B")));
    for (int kind = 0; kind < 5; ++kind)
        EXPECT_TRUE(svg.contains(kindPlural(core::ObjectKind(kind))))
            << kindPlural(core::ObjectKind(kind)).toStdString();
}

// Every kind the peak rank holds is painted in its color.
TEST(ExplainFigure, ThePngPaintsEachKindInItsColor)
{
    const auto trace = std::make_shared<const core::Trace>(testing::runReference("gpipe"));
    const QImage image = renderExplainFigure(*trace, FigureOptions{});
    for (int kind = 0; kind < 5; ++kind) {
        const QRgb color = kindColor(core::ObjectKind(kind)).rgb();
        int found = 0;
        for (int y = 0; y < image.height() && found < 100; y += 2)
            for (int x = 0; x < image.width() && found < 100; x += 2)
                found += image.pixel(x, y) == color;
        EXPECT_GE(found, 100) << "kind " << kind;
    }
}

// A trace that names its device's memory: the slide says whether the peak fits it, as explain's
// text does, and draws it over the peak rank's memory as the memory chart does, an orange
// dash-dot line with its words.
TEST(ExplainFigure, SaysAndDrawsTheDevicesMemoryTheTraceNames)
{
    core::Trace trace = testing::runReference("gpipe"); // its peak: 4194304 B on rank 1
    trace.config.cost.deviceMemory = 4'000'000;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("why.svg"));
    ASSERT_EQ(writeExplainFigure(trace, FigureOptions{}, path, true).toStdString(), "");
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    // (the apostrophes are the SVG's entities)
    for (const char *words : {"The peak is 194304 B (194.3 kB) over the device",
                              "memory of 4000000 B (4 MB): it does not fit.", "4 MB: the device"})
        EXPECT_TRUE(svg.contains(QString::fromUtf8(words))) << words;

    const auto countOf = [](const QImage &image, const QColor &color) {
        int found = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                found += image.pixel(x, y) == color.rgb();
        return found;
    };
    const QImage image = renderExplainFigure(trace, FigureOptions{});
    EXPECT_GE(countOf(image, kDeviceMemory), 200);
    trace.config.cost.deviceMemory = 0;
    EXPECT_EQ(countOf(renderExplainFigure(trace, FigureOptions{}), kDeviceMemory), 0);
}

// The slide's axes read as the window's: memory in its short units (a raw byte count of eleven
// digits was cut at the left), and the times in the trace's unit: "ms" where a tick is a
// microsecond (a real-scale cost model), as the run's summary and the Memory tab say them.
TEST(ExplainFigure, ItsAxesSayMemoryInUnitsAndTimeInTheTracesUnit)
{
    core::Trace trace = testing::runReference("gpipe"); // its peak: 4194304 B on rank 1
    const auto svgOf = [](const core::Trace &t) {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("why.svg"));
        EXPECT_EQ(writeExplainFigure(t, FigureOptions{}, path, true).toStdString(), "");
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::ReadOnly));
        return QString::fromUtf8(file.readAll());
    };
    QString svg = svgOf(trace);
    EXPECT_TRUE(svg.contains(QStringLiteral(">2 MB<"))) << "a tick in megabytes";
    EXPECT_FALSE(svg.contains(QStringLiteral(">2000000<")));
    EXPECT_TRUE(svg.contains(QStringLiteral("Memory of rank 1 by kind over time (steps)")));
    EXPECT_FALSE(svg.contains(QStringLiteral(" ms")));

    trace.config.cost.network = core::Network{};
    svg = svgOf(trace);
    EXPECT_TRUE(svg.contains(QStringLiteral("Memory of rank 1 by kind over time (ms)")));
    const QString end = QString::fromStdString(trace.figures.endTime.toString());
    EXPECT_TRUE(svg.contains(QStringLiteral("each rank adds up to %1 ms").arg(end)))
        << end.toStdString();
    EXPECT_TRUE(svg.contains(QStringLiteral("to t %1 ms, set the end time").arg(end)));
}

} // namespace
} // namespace rankstep::gui
